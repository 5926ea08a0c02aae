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

from pi_memory.memory import MemoryStore, default_memory_dir
from pi_memory.memory.files import FileBackend
from pi_memory.memory.store import DEFAULT_MEMORY_CHAR_LIMIT, DEFAULT_USER_CHAR_LIMIT

from .dsn import DSN_ENV, connect_failure, describe_dsn, dsn_problem, redact, remember_dsn

__all__ = [
    "BACKENDS",
    "DSN_ENV",
    "SettingsError",
    "close_store",
    "connect_failure",
    "data_dir",
    "describe_dsn",
    "describe_store",
    "dsn_problem",
    "import_psycopg",
    "open_store",
    "redact",
    "remember_dsn",
    "store_problem",
]

BACKENDS = ("file", "postgres")


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


class SettingsError(ValueError):
    """The ``pi-memory`` settings cannot open a store; the message names the key to fix."""


def data_dir(value: Any) -> Path:
    """``pi-memory.dataDir`` as an absolute directory path (blank or missing: the default).

    Shared by every reader of the section, so a value that cannot name a directory (not a
    string, a NUL character) is refused the same way everywhere, with the key in the message.
    """
    if value is None:
        return default_memory_dir()
    if isinstance(value, os.PathLike):  # a program passing a Path in its config
        value = os.fspath(value)
    if not isinstance(value, str):
        raise SettingsError(f"pi-memory.dataDir must be a directory path (a string), got {value!r}")
    text = value.strip()
    if not text:
        return default_memory_dir()
    if "\0" in text:
        raise SettingsError(f"pi-memory.dataDir holds a NUL character (\\u0000), which no path can contain: "
                            f"write the directory's path, got {value!r}")
    return Path(text).expanduser().absolute()


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
    ``memoryCharLimit``, ``userCharLimit``, ``poolSize``, ``statementTimeoutMs``. Explicit
    arguments win over the section: ``dir`` forces the file backend, ``dsn`` forces PostgreSQL.
    """
    config = dict(section or {})
    limits = {
        "memory_char_limit": config.get("memoryCharLimit", DEFAULT_MEMORY_CHAR_LIMIT),
        "user_char_limit": config.get("userCharLimit", DEFAULT_USER_CHAR_LIMIT),
    }
    kind = "file" if dir is not None else "postgres" if dsn is not None else str(config.get("backend") or "file")
    if kind not in BACKENDS:
        raise SettingsError(f"pi-memory.backend must be one of {', '.join(BACKENDS)}, got {kind!r}")
    if kind == "file":
        directory = Path(dir).expanduser() if dir is not None else data_dir(config.get("dataDir"))
        return MemoryStore(backend=FileBackend(directory), **limits)

    from pi_memory.backends.postgres import PostgresBackend

    url = dsn or config.get("dsn") or os.environ.get(DSN_ENV, "")
    if not isinstance(url, str) or not url.strip():
        raise SettingsError(
            f"pi-memory.backend is 'postgres' but no DSN is set: add pi-memory.dsn (e.g. "
            f"'postgresql://user@host/db') or set ${DSN_ENV}"
        )
    options: dict[str, Any] = {}
    if "poolSize" in config:
        options["pool_size"] = int(config["poolSize"])
    if "statementTimeoutMs" in config:
        options["statement_timeout_ms"] = int(config["statementTimeoutMs"])
    backend = PostgresBackend(url, namespace or str(config.get("namespace") or "default"), **options)
    return MemoryStore(backend=backend, **limits)


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
