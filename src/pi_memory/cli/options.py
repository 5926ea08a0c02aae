"""The options every memory command shares, declared once, and the settings they override.

``status``, ``read``, ``add``, ``replace`` and ``remove`` (and the top-level callback) all take
``--dir``, ``--dsn``, ``--namespace``, ``--json``, ``--memory-limit`` and ``--user-limit``, before
or after the command word. :func:`store_command` adds them to a command's signature and hands the
command one merged :class:`Options` instead, so the six options are declared and merged in one
place. :func:`load_memory_settings` then resolves them against the ``pi-memory`` settings the
agent itself reads, so the command and the agent always open the same store.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from pi_memory.extensions.memory.settings import MemorySettings
    from pi_memory.host.settings import Settings
    from pi_memory.providers import ModelRegistry

__all__ = ["API_KEY_HELP", "BASE_URL_HELP", "Options", "endpoint_overrides", "load_memory_settings", "store_command"]

BASE_URL_HELP = ("Endpoint of the model's provider, e.g. http://127.0.0.1:8080/v1 (wins over settings' baseUrl "
                 "and OPENAI_BASE_URL / ANTHROPIC_BASE_URL).")
API_KEY_HELP = ("API key for the model's provider (same forms as apiKey in settings: a key, an environment "
                "variable's name, or !command).")


@dataclass(frozen=True)
class Options:
    """Options given before the command; the same options after it win.

    ``dir``, ``memory_limit``, ``user_limit`` and ``json`` keep their names: ``pi-memory dream``
    and ``pi-memory mcp`` read them from the parent context.
    """

    dir: Path | None = None
    json: bool = False
    memory_limit: int | None = None
    user_limit: int | None = None
    dsn: str | None = None
    namespace: str | None = None

    def merged(self, later: Options) -> Options:
        """These options overridden by every option ``later`` sets."""
        return Options(**{f.name: getattr(later, f.name) or getattr(self, f.name) for f in fields(self)})


_OPTIONS: list[inspect.Parameter] = [
    inspect.Parameter("dir", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Annotated[
        Path | None, typer.Option(
            "--dir", file_okay=False, show_default=False,
            help="Memory directory (forces the file backend). Default: pi-memory settings, else "
                 "$PI_AGENT_HOME/memories, else ~/.pi/agent/memories.")]),
    inspect.Parameter("dsn", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Annotated[
        str | None, typer.Option(
            "--dsn", show_default=False,
            help="PostgreSQL DSN (forces the PostgreSQL backend). Default: pi-memory settings, else $PI_MEMORY_DSN "
                 "when pi-memory.backend is postgres.")]),
    inspect.Parameter("namespace", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Annotated[
        str | None, typer.Option("--namespace", show_default=False,
                                 help="PostgreSQL namespace (default: pi-memory.namespace, else 'default').")]),
    inspect.Parameter("json", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=Annotated[
        bool, typer.Option("--json", help="Print the result as JSON.")]),
    inspect.Parameter("memory_limit", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Annotated[
        int | None, typer.Option("--memory-limit", min=1,
                                 help="Char budget of MEMORY.md (default: pi-memory.memoryCharLimit, else 2200).")]),
    inspect.Parameter("user_limit", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Annotated[
        int | None, typer.Option("--user-limit", min=1,
                                 help="Char budget of USER.md (default: pi-memory.userCharLimit, else 1375).")]),
]
_NAMES = [p.name for p in _OPTIONS]


def _is_option(parameter: inspect.Parameter) -> bool:
    """Declared with ``typer.Option`` (as opposed to an argument or the context)."""
    return any(isinstance(meta, typer.models.OptionInfo) for meta in getattr(parameter.annotation, "__metadata__", ()))


def store_command(function: Callable[..., None]) -> Callable[..., None]:
    """Give ``function(ctx, options, …)`` the shared options, wherever they appear on the line.

    Typer reads the returned function's signature: ``function``'s own parameters (without
    ``options``) followed by the six shared options. The call merges what was given after the
    command over what the top-level callback saw (``ctx.obj``).
    """
    own = [p for p in inspect.signature(function, eval_str=True).parameters.values() if p.name != "options"]

    def command(ctx: typer.Context, *args: Any, **kwargs: Any) -> None:
        given = Options(**{name: kwargs.pop(name) for name in _NAMES})
        before = ctx.obj if isinstance(ctx.obj, Options) else Options()
        function(ctx, before.merged(given), *args, **kwargs)

    # Keyword-only after the shared options: the command's own options (such as --version) come last in --help.
    own = [p if not _is_option(p) else p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own]
    ordered = [p for p in own if not _is_option(p)] + _OPTIONS + [p for p in own if _is_option(p)]
    command.__signature__ = inspect.Signature(ordered)  # type: ignore[attr-defined]
    command.__name__ = function.__name__
    command.__qualname__ = function.__qualname__
    command.__doc__ = function.__doc__
    command.__module__ = function.__module__
    return command


def host_settings(cwd: Path) -> tuple[Settings, list[str]]:
    """The settings the host would use in ``cwd`` (a trusted project's layer included), and
    warnings about them — so every command reads the same memory as ``pi-memory chat`` there."""
    from pi_memory.host.settings import load_settings

    untrusted = load_settings(cwd, project_trusted=False)
    trusted, warnings = _project_trusted(cwd, untrusted.get("defaultProjectTrust", "ask"))
    settings = load_settings(cwd, project_trusted=True) if trusted else untrusted
    return settings, [*settings.warnings, *warnings]


def _project_trusted(cwd: Path, default: Any) -> tuple[bool, list[str]]:
    """The host's headless trust decision for ``cwd``: trust.json, ``defaultProjectTrust``; never asks."""
    from pi_memory.host.trust import DefaultTrust, ProjectTrustStore, TrustStoreError, resolve_project_trusted

    policy: DefaultTrust = "always" if default == "always" else "never" if default == "never" else "ask"
    try:
        return asyncio.run(resolve_project_trusted(cwd, store=ProjectTrustStore(), default=policy)), []
    except TrustStoreError as exc:
        return False, [f"{exc}; project settings are ignored"]


def load_memory_settings(options: Options, cwd: Path | None = None) -> tuple[MemorySettings, list[str]]:
    """The effective ``pi-memory`` settings for this command, and warnings about settings files.

    Layers as the host reads them (global, agent config dir, the project's only when trusted),
    then the command line: ``--dir`` forces files, ``--dsn`` PostgreSQL, ``--namespace`` and the
    limits override their keys. Raises the extension's ``SettingsError`` for a value that cannot
    be used (a PostgreSQL backend without a DSN, a bad limit, both ``--dir`` and ``--dsn``).
    """
    from pi_memory.extensions.memory.settings import SECTION, SettingsError, parse_settings

    if options.dir is not None and options.dsn is not None:
        raise SettingsError("pass either --dir (files) or --dsn (PostgreSQL), not both")
    settings, warnings = host_settings(Path.cwd() if cwd is None else cwd)
    overrides: dict[str, Any] = {}
    if options.dir is not None:
        overrides.update(backend="file", dataDir=str(options.dir))
    if options.dsn is not None:
        overrides.update(backend="postgres", dsn=options.dsn)
    if options.namespace is not None:
        overrides["namespace"] = options.namespace
    if options.memory_limit is not None:
        overrides["memoryCharLimit"] = options.memory_limit
    if options.user_limit is not None:
        overrides["userCharLimit"] = options.user_limit
    parsed = parse_settings(settings.section(SECTION), overrides)
    if options.namespace is not None and parsed.backend != "postgres":
        raise SettingsError("--namespace only applies to the PostgreSQL backend: add --dsn, or set "
                            "pi-memory.backend to \"postgres\"")
    return parsed, warnings


def endpoint_overrides(model: str | None, base_url: str | None,
                       api_key: str | None) -> Callable[[ModelRegistry], None] | None:
    """``--base-url`` / ``--api-key`` as a registry hook: they apply to the provider of ``--model``
    (or of a bare model id, settings' ``defaultProvider``). Raises :class:`ModelNotFoundError` when
    no provider is named, so the command exits 2 with what to add."""
    if not base_url and not api_key:
        return None

    from pi_memory.providers import ModelNotFoundError, parse_model_ref

    def configure(registry: ModelRegistry) -> None:
        provider = parse_model_ref(model)[0] if model else None
        provider = provider or registry.default_provider
        if not provider:
            raise ModelNotFoundError("--base-url and --api-key apply to the provider of --model: add "
                                     "--model provider/model-id (e.g. --model openai/gpt-4.1-mini)")
        registry.override(provider, base_url=base_url, api_key=api_key)

    return configure
