"""What a command line means for the store: the shared options, and the settings they override.

No typer here: ``pi-memory status`` and ``read`` run this without loading the command-line
framework (see :mod:`pi_memory.cli.entry`); :mod:`pi_memory.cli.options` declares the options
for typer and re-exports these names.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING

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
    from pi_memory.host.trust import headless_settings

    return headless_settings(cwd)


def load_memory_settings(options: Options, cwd: Path | None = None) -> tuple[MemorySettings, list[str]]:
    """The effective ``pi-memory`` settings for this command, and warnings about settings files
    (:func:`~pi_memory.extensions.memory.settings.resolve_memory_settings` with the options).

    Raises the extension's ``SettingsError`` for a value that cannot be used (a PostgreSQL backend
    without a DSN, a bad limit, both ``--dir`` and ``--dsn``).
    """
    from pi_memory.extensions.memory.settings import resolve_memory_settings

    return resolve_memory_settings(Path.cwd() if cwd is None else cwd, dir=options.dir, dsn=options.dsn,
                                   namespace=options.namespace, memory_limit=options.memory_limit,
                                   user_limit=options.user_limit)
