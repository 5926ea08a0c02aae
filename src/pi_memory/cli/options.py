"""The options every memory command shares, declared once, and the settings they override.

``status``, ``read``, ``add``, ``replace`` and ``remove`` (and the top-level callback) all take
``--dir``, ``--dsn``, ``--namespace``, ``--json``, ``--memory-limit`` and ``--user-limit``, before
or after the command word. :func:`store_command` adds them to a command's signature and hands the
command one merged :class:`Options` instead, so the six options are declared and merged in one
place. :func:`load_memory_settings` then resolves them against the ``pi-memory`` settings the
agent itself reads, so the command and the agent always open the same store (it and
:class:`Options` live in :mod:`pi_memory.cli.settings`, which needs no typer).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pi_memory.cli.settings import Options, host_settings, load_memory_settings

if TYPE_CHECKING:
    from pi_memory.providers import ModelRegistry

__all__ = ["API_KEY_HELP", "BASE_URL_HELP", "Options", "endpoint_overrides", "host_settings", "load_memory_settings",
           "store_command"]

BASE_URL_HELP = ("Endpoint of the model's provider, e.g. http://127.0.0.1:8080/v1 (wins over settings' baseUrl "
                 "and OPENAI_BASE_URL / ANTHROPIC_BASE_URL).")
API_KEY_HELP = ("API key for the model's provider (same forms as apiKey in settings: a key, an environment "
                "variable's name, or !command).")


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
