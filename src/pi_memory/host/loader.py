"""Finding and loading extensions.

An extension is a callable ``extension(pi, config=None)`` (sync or async). Sources, in load order
(handlers run in this order and the first registration of a tool or command name wins):

1. ``-e`` on the command line: ``package.module:function``, ``package.module`` (its ``extension``),
   or a path to a ``.py`` file or a package directory (its ``extension``, else ``default``);
2. installed packages: the entry-point group ``pi_memory.extensions``, each named
   ``entry:<name>`` (``-entry:<name>`` in the global settings list disables one; ``-e
   entry:<name>`` loads one explicitly, e.g. after ``--no-extensions``);
3. the settings ``extensions`` list (strings or ``{"source", "config"}``; relative paths are
   relative to the settings file's directory; ``-source`` entries disable a source);
4. auto-discovered ``*.py`` files and packages in ``<agent dir>/extensions/``.

Project sources (the project settings' list and ``<cwd>/.pi/extensions/``) load only once the
project is trusted, after the others, because extensions may take part in that decision. A
broken extension is reported and loading goes on. :func:`load_session_extensions` is that whole
sequence for one session runtime, trust decision included (:func:`decide_project_trust`).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import importlib.util
import inspect
import os
import sys
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .api import EventBus, ExtensionAPI
from .paths import agent_dir, project_config_dir
from .runner import ExtensionRunner
from .settings import Settings, load_settings
from .trust import ProjectTrustStore, TrustAnswer
from .trust import decide_project_trust as decide
from .types import ExtensionError, result_field
from .wrapper import positional_capacity

if TYPE_CHECKING:
    from .context import UI

__all__ = [
    "ENTRY_POINT_GROUP",
    "ENTRY_PREFIX",
    "ExtensionSource",
    "ExtensionSwitches",
    "decide_project_trust",
    "disabled_sources",
    "discover_dir",
    "entry_point_sources",
    "load_extensions",
    "load_session_extensions",
    "sdk_sources",
    "settings_sources",
]

ENTRY_POINT_GROUP = "pi_memory.extensions"
#: How an installed (entry-point) extension is named in ``-e`` and in the settings list.
ENTRY_PREFIX = "entry:"
_FACTORY_NAMES = ("extension", "default")


@dataclass(frozen=True, slots=True)
class ExtensionSource:
    """Where one extension comes from; ``factory`` is set for entry points and in-process factories."""

    spec: str
    origin: str = "cli"
    config: Any = None
    base_dir: str | None = None
    factory: Callable[..., Any] | None = field(default=None, compare=False)


def _is_path(spec: str) -> bool:
    return spec.endswith(".py") or os.sep in spec or spec.startswith(".") or os.path.exists(spec)


def _load_module_from_path(path: Path) -> ModuleType:
    target = path / "__init__.py" if path.is_dir() else path
    if not target.is_file():
        raise FileNotFoundError(f"no such extension file: {target}")
    name = "pi_memory_ext_" + hashlib.sha1(str(target).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(
        name, target, submodule_search_locations=[str(path)] if path.is_dir() else None)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {target}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def _factory_from_module(module: ModuleType, label: str) -> Callable[..., Any]:
    for name in _FACTORY_NAMES:
        candidate = getattr(module, name, None)
        if callable(candidate):
            return candidate  # type: ignore[no-any-return]
    raise LookupError(f"Extension does not export a valid factory function: {label} "
                      f"(define `def extension(pi, config=None)`)")


def resolve(source: ExtensionSource) -> tuple[str, Callable[..., Any]]:
    """``(label, factory)`` for a source; raises with a readable message when it cannot be found."""
    if source.factory is not None:
        return source.spec, source.factory
    spec = source.spec
    if spec.startswith(ENTRY_PREFIX):
        return _entry_point(spec[len(ENTRY_PREFIX):])
    if _is_path(spec):
        path = Path(os.path.expanduser(spec))
        if not path.is_absolute() and source.base_dir:
            path = Path(source.base_dir) / path
        path = path.resolve()
        return str(path), _factory_from_module(_load_module_from_path(path), str(path))
    module_name, _, attr = spec.partition(":")
    module = importlib.import_module(module_name)
    if attr:
        factory = getattr(module, attr, None)
        if not callable(factory):
            raise LookupError(f"Extension does not export a valid factory function: {spec}")
        return spec, factory
    return spec, _factory_from_module(module, spec)


def entry_point_sources(disabled: Iterable[str] = ()) -> list[ExtensionSource]:
    """Installed extensions (``[project.entry-points."pi_memory.extensions"]``), by name.

    ``disabled`` holds specs to leave out; the ``entry:<name>`` ones name entry points."""
    off = {d[len(ENTRY_PREFIX):] for d in disabled if d.startswith(ENTRY_PREFIX)}
    found = sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)
    return [ExtensionSource(ep.value, "entry_point", factory=_lazy_entry_point(ep)) for ep in found
            if ep.name not in off]


def _entry_point(name: str) -> tuple[str, Callable[..., Any]]:
    """``-e entry:<name>``: the installed extension of that name (labelled by its value, so it
    loads once even when the entry points are loaded too)."""
    found = {ep.name: ep for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    if name not in found:
        known = ", ".join(sorted(found)) or "none installed"
        raise LookupError(f"No installed extension named {name!r} (entry points: {known})")
    return found[name].value, _lazy_entry_point(found[name])


def _lazy_entry_point(ep: importlib.metadata.EntryPoint) -> Callable[..., Any]:
    def factory(pi: Any, config: Any = None) -> Any:
        loaded = ep.load()
        if not callable(loaded):
            raise LookupError(f"Extension does not export a valid factory function: {ep.value}")
        return _invoke(loaded, pi, config)
    return factory


def _settings_entries(settings: Settings, scopes: Iterable[str]) -> Iterator[tuple[str, str, Any, str]]:
    """``(scope, spec, entry, base dir)`` for each usable entry of the layers' ``extensions`` lists."""
    layers = {layer.scope: layer for layer in settings.layers}
    for scope in scopes:
        layer = layers.get(scope)
        entries = layer.data.get("extensions") if layer is not None else None
        if layer is None or not isinstance(entries, list):
            continue
        for entry in entries:
            spec = entry if isinstance(entry, str) else entry.get("source") if isinstance(entry, Mapping) else None
            if isinstance(spec, str) and spec:
                yield scope, spec, entry, str(layer.path.parent)


def disabled_sources(settings: Settings, scopes: Iterable[str]) -> set[str]:
    """The specs that ``-spec`` entries of the given layers switch off (e.g. ``entry:recall``)."""
    return {spec[1:] for _, spec, _, _ in _settings_entries(settings, scopes) if spec.startswith("-")}


def settings_sources(settings: Settings, scopes: Iterable[str]) -> list[ExtensionSource]:
    """The ``extensions`` lists of the given settings layers, in the order of ``scopes``."""
    scopes = list(scopes)
    disabled = disabled_sources(settings, scopes)
    out = [
        ExtensionSource(spec.lstrip("+"), f"settings:{scope}",
                        entry.get("config") if isinstance(entry, Mapping) else None, base)
        for scope, spec, entry, base in _settings_entries(settings, scopes) if not spec.startswith("-")
    ]
    return [s for s in out if s.spec not in disabled]


def discover_dir(directory: Path, origin: str) -> list[ExtensionSource]:
    """``*.py`` files and packages (``*/__init__.py``) directly in ``directory``, sorted by name."""
    if not directory.is_dir():
        return []
    found: list[ExtensionSource] = []
    for child in sorted(directory.iterdir()):
        if child.name.startswith(("_", ".")):
            continue
        if (child.is_file() and child.suffix == ".py") or (child.is_dir() and (child / "__init__.py").is_file()):
            found.append(ExtensionSource(str(child), origin))
    return found


def _invoke(factory: Callable[..., Any], pi: Any, config: Any) -> Any:
    accepted, _ = positional_capacity(factory)
    return factory(pi, config) if accepted is None or accepted >= 2 else factory(pi)


async def load_extensions(
    sources: Iterable[ExtensionSource], runner: ExtensionRunner, events: EventBus,
    seen: set[str] | None = None,
) -> list[ExtensionAPI]:
    """Load each source into ``runner`` in order; returns the ``pi`` objects to bind to the runtime.

    Failures become :class:`ExtensionError` (event ``"load"``) on the runner and loading continues.
    A source that resolves to one already loaded is skipped.
    """
    apis: list[ExtensionAPI] = []
    seen = seen if seen is not None else set()
    for source in sources:
        try:
            label, factory = resolve(source)
        except Exception as exc:
            runner.emit_error(ExtensionError(source.spec, "load", f"Failed to load extension: {exc}"))
            continue
        if label in seen:
            continue
        seen.add(label)
        extension = runner.add_extension(label)
        api = ExtensionAPI(runner, extension, events)
        try:
            result = _invoke(factory, api, source.config)
            if inspect.isawaitable(result):
                await result
        except Exception as exc:
            runner.extensions.remove(extension)
            for name in list(extension.tools):
                runner.tools.pop(name, None)
            for name in list(extension.commands):
                runner.commands.pop(name, None)
            runner.report(label, "load", RuntimeError(f"Failed to load extension: {exc}"))
            continue
        apis.append(api)
    return apis


# ----------------------------------------------------------------------------- one session's extensions


@dataclass(frozen=True, slots=True)
class ExtensionSwitches:
    """Which sources load besides the SDK's and ``-e``'s (all three off is pi's ``--no-extensions``)."""

    entry_points: bool = True
    discover: bool = True
    settings: bool = True


def sdk_sources(extensions: Iterable[str | ExtensionSource], factories: Iterable[Callable[..., Any]],
                tools: Iterable[Any]) -> list[ExtensionSource]:
    """``-e`` specs, then loose ``tools`` (registered as if by one extension), then in-process
    ``factories``: what ``SessionRuntime.create`` is given, in load order."""
    sources = [s if isinstance(s, ExtensionSource) else ExtensionSource(s, "cli") for s in extensions]
    tool_list = list(tools)
    if tool_list:
        def register_tools(pi: ExtensionAPI) -> None:
            for tool in tool_list:
                pi.register_tool(tool)
        sources.append(ExtensionSource("<sdk:tools>", "sdk", factory=register_tools))
    return sources + [ExtensionSource(f"<inline:{n}>", "sdk", factory=f) for n, f in enumerate(factories)]


async def decide_project_trust(cwd: str, untrusted: Settings, runner: ExtensionRunner, ui: UI, *,
                               store: ProjectTrustStore | None, override: bool | None) -> bool:
    """The project trust decision (:func:`pi_memory.host.trust.decide_project_trust`) with the loaded
    extensions' ``project_trust`` handlers, and the user when there is a UI."""

    async def extension_hook(path: str) -> TrustAnswer | None:
        answer = await runner.emit_project_trust(path)
        if answer is None:
            return None
        return TrustAnswer(bool(result_field(answer, "trusted")), bool(result_field(answer, "remember", False)))

    async def ask_user(path: str) -> TrustAnswer | None:
        ok = await ui.confirm("Trust this project?",
                              f"{path} has a .pi/ folder that can configure and extend the agent.")
        return TrustAnswer(ok, remember=True)

    return await decide(cwd, untrusted.get("defaultProjectTrust", "ask"), store=store, override=override,
                        extension_hook=extension_hook, ask_user=ask_user if getattr(ui, "has_ui", False) else None)


async def load_session_extensions(
    cwd: str, sources: Sequence[ExtensionSource], switches: ExtensionSwitches, runner: ExtensionRunner,
    events: EventBus, *, bind: Callable[[ExtensionAPI], None], trust: Callable[[Settings], Awaitable[bool]],
    warn: Callable[[str], None],
) -> tuple[Settings, bool]:
    """Load a session's extensions into a fresh ``runner``: ``sources``, installed, settings-listed
    and discovered ones; then ``trust(untrusted settings)`` decides the project (its ``project_trust``
    handlers are loaded and bound by then); then the project's own sources when trusted.

    Returns the effective settings (their warnings already passed to ``warn``) and the trust.
    """
    seen: set[str] = set()
    untrusted = load_settings(cwd, project_trusted=False)
    found = list(sources)
    if switches.entry_points:
        found += entry_point_sources(disabled_sources(untrusted, ["config", "global"]))
    if switches.settings:
        found += settings_sources(untrusted, ["config", "global"])
    if switches.discover:
        found += discover_dir(agent_dir() / "extensions", "discovered:global")
    for api in await load_extensions(found, runner, events, seen):
        bind(api)
    trusted = await trust(untrusted)
    settings = load_settings(cwd, project_trusted=trusted)
    for warning in settings.warnings:
        warn(warning)
    if trusted:
        project = settings_sources(settings, ["project"]) if switches.settings else []
        if switches.discover:
            project += discover_dir(project_config_dir(cwd) / "extensions", "discovered:project")
        for api in await load_extensions(project, runner, events, seen):
            bind(api)
    return settings, trusted
