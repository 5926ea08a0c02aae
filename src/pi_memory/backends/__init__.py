"""Storage backends for :class:`~pi_memory.memory.MemoryStore`, and opening a store from settings.

The file backend (:class:`~pi_memory.memory.files.FileBackend`) is the default and lives with the
store; :mod:`pi_memory.backends.postgres` puts the same two "files" in PostgreSQL so agents on
many machines share one memory. Which one a program uses is a setting, so a second machine joins a
fleet by changing one line of ``settings.json``::

    {"pi-memory": {"backend": "postgres", "dsn": "postgresql://agent@db.internal/agents"}}

:func:`open_store` turns that ``pi-memory`` settings section into a ready store; the MCP server
uses it, and so can any host. psycopg is imported only when the PostgreSQL backend is chosen.
A DSN in a message goes through :func:`redact` (:mod:`pi_memory.backends.dsn`): no password is
ever printed, logged or handed to a model.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pi_memory.base.settings import SettingsError
from pi_memory.memory import MemoryStore

from .dsn import DSN_ENV, connect_failure, describe_dsn, dsn_problem, redact, remember_dsn
from .settings import BACKENDS, StoreSettings, data_dir, open_store_settings, parse_store_settings

__all__ = [
    "BACKENDS",
    "DSN_ENV",
    "SettingsError",
    "StoreSettings",
    "close_store",
    "connect_failure",
    "data_dir",
    "describe_dsn",
    "describe_store",
    "dsn_problem",
    "import_psycopg",
    "open_store",
    "open_store_settings",
    "parse_store_settings",
    "redact",
    "remember_dsn",
    "store_problem",
]

def import_psycopg() -> tuple[Any, Any]:
    """The ``psycopg`` and ``psycopg_pool`` modules, imported when PostgreSQL is first used; an
    ImportError naming the extra to install when they are missing."""
    try:
        import psycopg
        import psycopg_pool
    except ImportError as exc:  # pragma: no cover - depends on the optional extra
        raise ImportError(
            "the PostgreSQL memory backend needs psycopg 3 and psycopg-pool: pip install 'pi-memory[postgres]'"
        ) from exc
    return psycopg, psycopg_pool


def open_store(
    section: Mapping[str, Any] | None = None,
    *,
    dir: Path | str | None = None,
    dsn: str | None = None,
    namespace: str | None = None,
) -> MemoryStore:
    """A :class:`MemoryStore` configured by a ``pi-memory`` settings section.

    Keys: ``backend`` (``"file"``, the default, or ``"postgres"``), ``dataDir`` (file backend),
    ``dsn`` and ``namespace`` (PostgreSQL; the DSN falls back to ``$PI_MEMORY_DSN``),
    ``memoryCharLimit``, ``userCharLimit``, ``poolSize``, ``statementTimeoutMs``, checked by
    :func:`parse_store_settings` (:class:`SettingsError` names a key to fix). Explicit arguments
    win over the section: ``dir`` forces the file backend, ``dsn`` forces PostgreSQL.
    """
    config = dict(section or {})
    if dir is not None:
        config.update(backend="file", dataDir=os.fspath(Path(dir).expanduser()))
    elif dsn is not None:
        config.update(backend="postgres", dsn=dsn)
    if namespace is not None:
        config["namespace"] = namespace
    return open_store_settings(parse_store_settings(config))


def describe_store(store: MemoryStore) -> str:
    """Where ``store`` keeps memory, for people: its directory, or the database and namespace.

    A PostgreSQL location names ``user@host:port/dbname`` and never the password.
    """
    describe = getattr(store.backend, "describe", None)
    if callable(describe):
        return str(describe())
    return str(store.dir) if store.dir is not None else repr(store.backend)


def store_problem(store: MemoryStore) -> str | None:
    """Why ``store`` cannot be used at all right now (what to fix), or ``None``.

    PostgreSQL: an unreachable server, a refused login, a newer schema. Files: a memory directory
    that names a file or cannot be created; the problems of one file (drift, unreadable) are
    reported per file, in each result, as they always have been.
    """
    check = getattr(store.backend, "check", None)
    return check() if callable(check) else None


def close_store(store: MemoryStore) -> None:
    """Release what ``store``'s backend holds open (PostgreSQL connections); files need nothing."""
    close = getattr(store.backend, "close", None)
    if callable(close):
        close()
