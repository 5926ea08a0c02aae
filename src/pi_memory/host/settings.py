"""Layered settings: global, agent config dir, and project (only when trusted).

Layers, lowest priority first:

1. **global** — ``~/.pi/agent/settings.json``;
2. **config** — ``settings.json`` in ``$PI_CODING_AGENT_DIR`` (else ``$PI_AGENT_HOME``),
   skipped when it is the global file;
3. **project** — ``<cwd>/.pi/settings.json``, read **only** when the project is trusted,
   because a cloned repository must not configure the agent that opens it.

The full settings merge like pi's (nested objects merge recursively, everything else is
replaced) and are used as pi uses them: pi 1.6.0 expands no environment variables in
``settings.json``, so neither do we for its keys. An extension's section (:meth:`Settings.section`)
merges like pi-memory's ``loadPiSettings`` (top-level keys of the section, shallow), and in the
global and config layers its strings expand environment variables with pi's own template rule,
the one pi applies to ``apiKey`` and header values (``$NAME``, ``${NAME}``, ``$$`` for a literal
``$``; :func:`pi_memory.base.settings.interpolate`). A value naming an unset variable is left
out and reported (:meth:`Settings.section_errors`). The project layer is never expanded, so a
repository cannot read your secrets into its settings. A malformed file is reported as a
warning and ignored — never a crash.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from pi_memory.base.settings import SettingsError, deep_merge, interpolate, json_kind
from pi_memory.host.paths import config_dir, global_agent_dir, project_config_dir

__all__ = ["PATH_KEYS", "SectionRead", "Settings", "SettingsLayer", "deep_merge", "interpolate", "load_settings",
           "migrate", "read_layer"]


def migrate(settings: dict[str, Any]) -> dict[str, Any]:
    """pi's load-time renames (``queueMode`` → ``steeringMode``, ``websockets`` → ``transport``)."""
    if "queueMode" in settings and "steeringMode" not in settings:
        settings["steeringMode"] = settings.pop("queueMode")
    if "transport" not in settings and isinstance(settings.get("websockets"), bool):
        settings["transport"] = "websocket" if settings.pop("websockets") else "sse"
    return settings


#: Keys that hold file paths, per section (read by every reader of the section through :meth:`Settings.section`).
PATH_KEYS: dict[str, tuple[str, ...]] = {"pi-memory": ("dataDir",), "pi-memory-recall": ("url",)}


@dataclass(frozen=True)
class SettingsLayer:
    """One settings file as read (``error`` when the whole file is ignored).

    ``expand_env``: whether extension sections of this layer expand environment variables.
    """

    scope: str
    path: Path
    data: dict[str, Any]
    error: str | None = None
    expand_env: bool = False

    def section(self, name: str) -> SectionRead:
        """This layer's ``name`` section (expanded when the layer allows) and what is wrong with it."""
        value = self.data.get(name)
        if value is None:
            return SectionRead(None)
        if not isinstance(value, dict):
            return SectionRead(None, (f"{self.path}: \"{name}\" must be an object of settings such as "
                                      f"{{\"key\": value}}, not {json_kind(value)}; it is ignored until you fix it",))
        if not self.expand_env:
            return SectionRead(value)
        ignored: list[str] = []
        unresolved: list[str] = []

        def report(key: str, text: str, fatal: bool) -> None:
            (unresolved if fatal else ignored).append(f"{key} in {self.path}: {text}")

        try:
            expanded = interpolate(value, report=report, where=name)
        except RecursionError:
            return SectionRead(None, (f"{self.path}: \"{name}\" nests objects or lists too deeply to read; "
                                      "it is ignored",))
        return SectionRead(expanded, tuple(ignored), tuple(unresolved))


class SectionRead(NamedTuple):
    """One layer's section: ``value`` (``None`` when absent or ignored), notes about what was
    ignored, and values left out because they name an unset variable."""

    value: dict[str, Any] | None
    ignored: tuple[str, ...] = ()
    unresolved: tuple[str, ...] = ()


def read_layer(scope: str, path: Path, *, interpolate_env: bool) -> SettingsLayer:
    """Read one settings file; a problem becomes ``error`` and an empty layer."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return SettingsLayer(scope, path, {})
    except (OSError, UnicodeDecodeError) as exc:
        return SettingsLayer(scope, path, {}, f"cannot read {path}: {exc}; it is ignored")
    if not text.strip():
        return SettingsLayer(scope, path, {})
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return SettingsLayer(
            scope, path, {},
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "it is ignored until you fix it",
        )
    except RecursionError:
        return SettingsLayer(scope, path, {}, f"{path} nests objects or lists too deeply to read (keep it under a "
                                              "few hundred levels); it is ignored until you fix it")
    if not isinstance(data, dict):
        return SettingsLayer(scope, path, {}, f"{path} must hold a JSON object at the top; it is ignored")
    return SettingsLayer(scope, path, migrate(data), expand_env=interpolate_env)


@dataclass
class Settings:
    """The effective settings and where they came from."""

    layers: list[SettingsLayer]
    project_trusted: bool
    merged: dict[str, Any] = field(default_factory=dict)

    @property
    def warnings(self) -> list[str]:
        """Files that are ignored and why (problems inside a section: :meth:`section_warnings`)."""
        return [layer.error for layer in self.layers if layer.error]

    def get(self, key: str, default: Any = None) -> Any:
        return self.merged.get(key, default)

    def section(self, name: str, *, paths: Iterable[str] | None = None) -> dict[str, Any]:
        """An extension's section, merged per top-level key (pi-memory's rule).

        A section that is not an object in some layer is ignored in that layer (see
        :meth:`section_warnings`). The keys in ``paths`` (default: :data:`PATH_KEYS` of the
        section) hold file paths: a relative one is resolved against the directory of the
        settings file that set it, as pi resolves the resource paths in its settings, so it
        never depends on where the agent was started.
        """
        path_keys = set(PATH_KEYS.get(name, ()) if paths is None else paths)
        result: dict[str, Any] = {}
        for layer in self.layers:
            value = layer.section(name).value
            if value is not None:
                result.update(value)
                for key in path_keys & value.keys():
                    result[key] = _relative_to(value[key], layer.path.parent)
        return result

    def section_warnings(self, name: str) -> list[str]:
        """What of the ``name`` section is ignored, naming the file (a section that is not an
        object, a ``${...}`` that is not a variable name)."""
        return [note for layer in self.layers for note in layer.section(name).ignored]

    def section_errors(self, name: str) -> list[str]:
        """Values of the ``name`` section left out because they name an unset variable, naming
        the file and the key. A reader should refuse to run rather than use a default in their
        place: a memory directory or database guessed wrong splits what the agent remembers."""
        return [note for layer in self.layers for note in layer.section(name).unresolved]

    def checked_section(self, name: str, warn: Callable[[str], None]) -> dict[str, Any]:
        """:meth:`section`, after passing each of :meth:`section_warnings` to ``warn`` (they name
        the file and the key) and raising :class:`~pi_memory.base.settings.SettingsError` for
        :meth:`section_errors` — the way every reader of a section treats what is wrong with it."""
        for warning in self.section_warnings(name):
            warn(warning)
        if errors := self.section_errors(name):
            raise SettingsError("; ".join(errors))
        return self.section(name)


def _relative_to(value: Any, directory: Path) -> Any:
    """``value`` joined to ``directory`` when it is a relative path (not ``~``, not a URL, not blank)."""
    if not isinstance(value, str) or not value.strip() or "://" in value:
        return value
    text = value.strip()
    if os.path.isabs(os.path.expanduser(text)):
        return value
    return os.path.join(directory, text)


def load_settings(cwd: Path | str, *, project_trusted: bool) -> Settings:
    """Read and merge every layer that applies to ``cwd``."""
    global_path = global_agent_dir() / "settings.json"
    layers = [read_layer("global", global_path, interpolate_env=True)]
    config_path = config_dir() / "settings.json"
    if os.path.realpath(config_path) != os.path.realpath(global_path):
        layers.append(read_layer("config", config_path, interpolate_env=True))
    if project_trusted:
        layers.append(read_layer("project", project_config_dir(cwd) / "settings.json", interpolate_env=False))
    merged: dict[str, Any] = {}
    for n, layer in enumerate(layers):
        try:
            merged = deep_merge(merged, layer.data)
        except RecursionError:  # two layers nesting the same keys hundreds of levels deep
            layers[n] = SettingsLayer(layer.scope, layer.path, {}, f"{layer.path} nests objects too deeply to "
                                                                   "merge with the other settings; it is ignored")
    return Settings(layers=layers, project_trusted=project_trusted, merged=merged)
