"""What a command line means for the store: the shared options, and the settings they override.

No typer here: ``pi-memory status`` and ``read`` run this without loading the command-line
framework (see :mod:`pi_memory.cli.entry`); :mod:`pi_memory.cli.options` declares the options
for typer and re-exports these names.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pi_memory.extensions.memory.settings import MemorySettings
    from pi_memory.host.settings import Settings

__all__ = ["Options", "host_settings", "load_memory_settings"]


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


def host_settings(cwd: Path) -> tuple[Settings, list[str]]:
    """The settings the host would use in ``cwd`` (a trusted project's layer included), and
    warnings about them — so every command reads the same memory as ``pi-memory chat`` there."""
    from pi_memory.host.settings import load_settings
    from pi_memory.host.trust import headless_project_trust

    untrusted = load_settings(cwd, project_trusted=False)
    trusted, warnings = headless_project_trust(cwd, untrusted.get("defaultProjectTrust", "ask"))
    settings = load_settings(cwd, project_trusted=True) if trusted else untrusted
    return settings, [*settings.warnings, *warnings]


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
    notes = settings.section_warnings(SECTION)  # what was ignored may be why a value is missing
    errors = settings.section_errors(SECTION)
    if errors and options.dir is None and options.dsn is None:  # --dir/--dsn say where memory is
        raise SettingsError("\n".join(errors))
    notes += errors
    try:
        parsed = parse_settings(settings.section(SECTION), overrides)
    except SettingsError as exc:
        raise SettingsError("\n".join([str(exc), *(f"Warning: {note}" for note in notes)])) from None
    if options.namespace is not None and parsed.backend != "postgres":
        raise SettingsError("--namespace only applies to the PostgreSQL backend: add --dsn, or set "
                            "pi-memory.backend to \"postgres\"")
    return parsed, [*warnings, *notes]
