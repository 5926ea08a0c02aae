"""The storage keys of the ``pi-memory`` section, parsed once into :class:`StoreSettings`.

Every reader of the section — the memory extension, ``pi-memory status`` and ``read``,
``pi-memory mcp``, a host calling :func:`~pi_memory.backends.open_store` — goes through
:func:`parse_store_settings`, so one value means the same store everywhere and a value that
cannot be used is refused the same way, naming the key (:class:`~pi_memory.base.settings.SettingsError`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_memory.base.paths import default_memory_dir
from pi_memory.base.settings import SettingsError, whole
from pi_memory.memory import MemoryStore
from pi_memory.memory.files import FileBackend
from pi_memory.memory.store import DEFAULT_MEMORY_CHAR_LIMIT, DEFAULT_USER_CHAR_LIMIT

from .dsn import DSN_ENV

__all__ = ["BACKENDS", "DEFAULT_NAMESPACE", "SECTION", "StoreSettings", "data_dir", "open_store_settings",
           "parse_store_settings"]

SECTION = "pi-memory"
BACKENDS = ("file", "postgres")
DEFAULT_NAMESPACE = "default"
_MAX_NAMESPACE_CHARS = 200


def _where(key: str) -> str:
    return f"{SECTION}.{key}"


@dataclass(frozen=True)
class StoreSettings:
    """Where memory lives and how large it may grow, checked."""

    data_dir: Path = field(default_factory=default_memory_dir)
    memory_char_limit: int = DEFAULT_MEMORY_CHAR_LIMIT
    user_char_limit: int = DEFAULT_USER_CHAR_LIMIT
    backend: str = "file"
    dsn: str | None = None
    namespace: str = DEFAULT_NAMESPACE
    pool_size: int | None = None
    statement_timeout_ms: int | None = None


def data_dir(value: Any) -> Path:
    """``pi-memory.dataDir`` as an absolute directory path (blank or missing: the default).

    A value that cannot name a directory (not a string, a NUL character) is refused with the key
    in the message.
    """
    if value is None:
        return default_memory_dir()
    if isinstance(value, os.PathLike):  # a program passing a Path in its config
        value = os.fspath(value)
    if not isinstance(value, str):
        raise SettingsError(f"{_where('dataDir')} must be a directory path (a string), got {value!r}")
    text = value.strip()
    if not text:
        return default_memory_dir()
    if "\0" in text:
        raise SettingsError(f"{_where('dataDir')} holds a NUL character (\\u0000), which no path can contain: "
                            f"write the directory's path, got {value!r}")
    return Path(text).expanduser().absolute()


def _limit(section: Mapping[str, Any], key: str, default: int) -> int:
    value = section.get(key)
    return default if value is None else whole(_where(key), value, minimum=1, example=default)


def _backend(section: Mapping[str, Any]) -> dict[str, Any]:
    """``backend``, ``dsn``, ``namespace``, ``poolSize``, ``statementTimeoutMs`` checked together."""
    kind = section.get("backend")
    kind = "file" if kind is None or (isinstance(kind, str) and not kind.strip()) else kind
    if not isinstance(kind, str) or kind.strip().lower() not in BACKENDS:
        raise SettingsError(f'{_where("backend")} must be "file" or "postgres", got {kind!r}')
    kind = kind.strip().lower()
    if kind == "file":
        return {"backend": "file"}
    dsn = section.get("dsn")
    if dsn is not None and not isinstance(dsn, str):
        raise SettingsError(f"{_where('dsn')} must be a connection string such as "
                            f"'postgresql://agent@db.internal/agents', got {type(dsn).__name__}")
    dsn = (dsn or "").strip() or os.environ.get(DSN_ENV, "").strip()
    if not dsn:
        raise SettingsError(f"{_where('backend')} is \"postgres\" but no database is set: add {_where('dsn')} "
                            f"(e.g. \"postgresql://agent@db.internal/agents\") or set ${DSN_ENV}")
    namespace = section.get("namespace")
    if namespace is None or (isinstance(namespace, str) and not namespace.strip()):
        namespace = DEFAULT_NAMESPACE
    if not isinstance(namespace, str) or len(namespace) > _MAX_NAMESPACE_CHARS:
        raise SettingsError(f"{_where('namespace')} must be a name of at most {_MAX_NAMESPACE_CHARS} characters "
                            f"(e.g. \"team-payments\"), got {namespace!r}")
    pool, timeout = section.get("poolSize"), section.get("statementTimeoutMs")
    return {
        "backend": kind, "dsn": dsn, "namespace": namespace.strip(),
        "pool_size": None if pool is None else whole(_where("poolSize"), pool, minimum=1, example=4),
        "statement_timeout_ms": None if timeout is None
        else whole(_where("statementTimeoutMs"), timeout, minimum=0, example=10_000),
    }


def parse_store_settings(section: Mapping[str, Any] | None) -> StoreSettings:
    """The storage keys of a ``pi-memory`` section (``dataDir``, the limits, ``backend``, ``dsn``,
    ``namespace``, ``poolSize``, ``statementTimeoutMs``) as checked settings; other keys are
    ignored. The DSN falls back to ``$PI_MEMORY_DSN``. Raises :class:`SettingsError`."""
    values = section or {}
    return StoreSettings(
        data_dir=data_dir(values.get("dataDir")),
        memory_char_limit=_limit(values, "memoryCharLimit", DEFAULT_MEMORY_CHAR_LIMIT),
        user_char_limit=_limit(values, "userCharLimit", DEFAULT_USER_CHAR_LIMIT),
        **_backend(values),
    )


def open_store_settings(settings: StoreSettings) -> MemoryStore:
    """The store ``settings`` describe: files in ``data_dir``, or PostgreSQL.

    Opening never touches the database (the first read does); psycopg is imported only here,
    when PostgreSQL is chosen.
    """
    if settings.backend == "file":
        return MemoryStore(backend=FileBackend(settings.data_dir), memory_char_limit=settings.memory_char_limit,
                           user_char_limit=settings.user_char_limit)
    from pi_memory.backends.postgres import PostgresBackend

    options: dict[str, Any] = {}
    if settings.pool_size is not None:
        options["pool_size"] = settings.pool_size
    if settings.statement_timeout_ms is not None:
        options["statement_timeout_ms"] = settings.statement_timeout_ms
    backend = PostgresBackend(settings.dsn or "", settings.namespace, **options)
    return MemoryStore(backend=backend, memory_char_limit=settings.memory_char_limit,
                       user_char_limit=settings.user_char_limit)
