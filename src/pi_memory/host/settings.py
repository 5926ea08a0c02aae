"""Layered settings: global, agent config dir, and project (only when trusted).

Layers, lowest priority first:

1. **global** — ``~/.pi/agent/settings.json``;
2. **config** — ``settings.json`` in ``$PI_CODING_AGENT_DIR`` (else ``$PI_AGENT_HOME``),
   skipped when it is the global file;
3. **project** — ``<cwd>/.pi/settings.json``, read **only** when the project is trusted,
   because a cloned repository must not configure the agent that opens it.

The global and config layers may reference environment variables (``${VAR}``,
``${VAR:-default}``, ``$VAR``); the project layer never is interpolated, so a repository
cannot read your secrets into its settings. The full settings merge like pi's (nested
objects merge recursively, everything else is replaced); an extension's section merges
like pi-memory's ``loadPiSettings`` (top-level keys of the section, shallow). A malformed
file is reported as a warning and ignored — never a crash.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_memory.host.paths import config_dir, global_agent_dir, project_config_dir

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-(.*?))?\}|\$([A-Z_][A-Z0-9_]*)")


def interpolate(value: Any, env: dict[str, str] | None = None) -> Any:
    """Expand ``${VAR}``, ``${VAR:-default}`` and ``$VAR`` in every string of ``value``.

    Unset or empty variables take the default, else ``""``. Dicts and lists are walked;
    other values are returned unchanged.
    """
    environ = os.environ if env is None else env
    if isinstance(value, str):

        def expand(match: re.Match[str]) -> str:
            name = match.group(1) or match.group(3)
            current = environ.get(name, "")
            if current:
                return current
            return match.group(2) or ""

        return _VAR.sub(expand, value)
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    return value


def deep_merge(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """pi's merge: nested objects merge recursively; lists and scalars are replaced."""
    result = dict(base)
    for key, value in overrides.items():
        current = base.get(key)
        if isinstance(current, dict) and isinstance(value, dict):
            result[key] = deep_merge(current, value)
        else:
            result[key] = value
    return result


def migrate(settings: dict[str, Any]) -> dict[str, Any]:
    """pi's load-time renames (``queueMode`` → ``steeringMode``, ``websockets`` → ``transport``)."""
    if "queueMode" in settings and "steeringMode" not in settings:
        settings["steeringMode"] = settings.pop("queueMode")
    if "transport" not in settings and isinstance(settings.get("websockets"), bool):
        settings["transport"] = "websocket" if settings.pop("websockets") else "sse"
    return settings


@dataclass(frozen=True)
class SettingsLayer:
    """One settings file as read."""

    scope: str
    path: Path
    data: dict[str, Any]
    error: str | None = None


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
    if not isinstance(data, dict):
        return SettingsLayer(scope, path, {}, f"{path} must hold a JSON object at the top; it is ignored")
    data = migrate(data)
    return SettingsLayer(scope, path, interpolate(data) if interpolate_env else data)


@dataclass
class Settings:
    """The effective settings and where they came from."""

    layers: list[SettingsLayer]
    project_trusted: bool
    merged: dict[str, Any] = field(default_factory=dict)

    @property
    def warnings(self) -> list[str]:
        return [layer.error for layer in self.layers if layer.error]

    def get(self, key: str, default: Any = None) -> Any:
        return self.merged.get(key, default)

    def section(self, name: str) -> dict[str, Any]:
        """An extension's section, merged per top-level key (pi-memory's rule).

        A section that is not an object in some layer is ignored in that layer.
        """
        result: dict[str, Any] = {}
        for layer in self.layers:
            value = layer.data.get(name)
            if isinstance(value, dict):
                result.update(value)
        return result


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
    for layer in layers:
        merged = deep_merge(merged, layer.data)
    return Settings(layers=layers, project_trusted=project_trusted, merged=merged)
