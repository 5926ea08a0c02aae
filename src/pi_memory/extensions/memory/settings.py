"""The ``pi-memory`` settings section, checked once so every later step can trust its values.

Settings arrive as JSON, often after ``$VAR`` interpolation, so numbers may be strings
(``"4000"``) and booleans may be ``"false"``. Those are coerced; anything else is refused with a
message that names the key and shows a valid value, because a typo in settings.json should be
fixed by the user, not silently replaced by a default.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_memory._coerce import whole_number
from pi_memory.backends import BACKENDS, DSN_ENV, SettingsError, data_dir, open_store
from pi_memory.memory import MemoryStore, default_memory_dir
from pi_memory.memory.store import DEFAULT_MEMORY_CHAR_LIMIT, DEFAULT_USER_CHAR_LIMIT

__all__ = ["BACKENDS", "DEFAULT_DREAM_MODEL", "DreamingSettings", "MemorySettings", "ModelRef", "SettingsError",
           "open_settings_store", "parse_settings"]

SECTION = "pi-memory"
DEFAULT_NAMESPACE = "default"
_MAX_NAMESPACE_CHARS = 200


@dataclass(frozen=True)
class ModelRef:
    """``{"provider": ..., "model": ...}`` in settings (``"provider/model"`` is accepted too)."""

    provider: str
    model: str

    def __str__(self) -> str:
        return f"{self.provider}/{self.model}"


DEFAULT_DREAM_MODEL = ModelRef("openai", "gpt-4.1-mini")


@dataclass(frozen=True)
class DreamingSettings:
    """``pi-memory.dreaming``: when background consolidation may run, and with which model."""

    enabled: bool = True
    min_hours_since_last_run: float = 24.0
    min_turns_since_last_run: int = 5
    model: ModelRef = DEFAULT_DREAM_MODEL


@dataclass(frozen=True)
class MemorySettings:
    """The effective ``pi-memory`` settings (file layers merged, injected config on top)."""

    data_dir: Path = field(default_factory=default_memory_dir)
    memory_char_limit: int = DEFAULT_MEMORY_CHAR_LIMIT
    user_char_limit: int = DEFAULT_USER_CHAR_LIMIT
    extraction_model: ModelRef | None = None
    extraction_interval: int = 5
    dreaming: DreamingSettings = field(default_factory=DreamingSettings)
    store: MemoryStore | None = None
    backend: str = "file"
    dsn: str | None = None
    namespace: str = DEFAULT_NAMESPACE
    pool_size: int | None = None
    statement_timeout_ms: int | None = None

    @property
    def uses_default_dir(self) -> bool:
        """True when memory is the default one — the global default directory, or the ``default``
        namespace of a shared database — so dreaming reads every project's sessions, as pi-memory
        does. A custom directory or namespace only gets the current session directory, so one
        project's conversations never feed another's memory."""
        if self.store is not None:
            return False
        if self.backend == "postgres":
            return self.namespace == DEFAULT_NAMESPACE
        return str(self.data_dir) == str(default_memory_dir())

    @property
    def shared(self) -> bool:
        """True when memory lives in a database other machines may share (not in ``data_dir``)."""
        return self.store is None and self.backend != "file"

    def dream_state_file(self, memory_id: str) -> Path:
        """This machine's dreaming state for a shared memory: ``<dataDir>/dreaming-state.pg-<hash>.json``.

        Dreaming reads this machine's session files, so how far it got is per machine; the hash
        of the shared memory's identity keeps namespaces (and databases) apart.
        """
        digest = hashlib.sha256(memory_id.encode("utf-8")).hexdigest()[:12]
        return self.data_dir / f"dreaming-state.pg-{digest}.json"


def _where(key: str) -> str:
    return f"{SECTION}.{key}"


def _whole(key: str, value: Any, *, minimum: int, example: int) -> int:
    if isinstance(value, bool):
        raise SettingsError(f"{_where(key)} must be a whole number (e.g. {example}), not {str(value).lower()}")
    number = whole_number(value)
    if number is None:
        raise SettingsError(f"{_where(key)} must be a whole number (e.g. {example}), got {value!r}")
    if number < minimum:
        raise SettingsError(f"{_where(key)} must be at least {minimum}, got {number}")
    return number


def _hours(key: str, value: Any) -> float:
    if isinstance(value, bool):
        raise SettingsError(f"{_where(key)} must be a number of hours (e.g. 24), not {str(value).lower()}")
    number: float | None = None
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            number = None
    if number is None or math.isnan(number) or math.isinf(number) or number < 0:
        raise SettingsError(f"{_where(key)} must be a number of hours, 0 or more (e.g. 24), got {value!r}")
    return number


_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


def _flag(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise SettingsError(f"{_where(key)} must be true or false, got {value!r}")


def _model(key: str, value: Any) -> ModelRef:
    if isinstance(value, str) and "/" in value.strip().strip("/"):
        provider, _, model = value.strip().partition("/")
        return ModelRef(provider.strip(), model.strip())
    if isinstance(value, Mapping):
        name, model_id = value.get("provider"), value.get("model")
        if isinstance(name, str) and name.strip() and isinstance(model_id, str) and model_id.strip():
            return ModelRef(name.strip(), model_id.strip())
    raise SettingsError(
        f'{_where(key)} must be {{"provider": "...", "model": "..."}} '
        f'(e.g. {{"provider": "openai", "model": "gpt-4.1-mini"}}), got {value!r}')


def _dreaming(value: Any) -> DreamingSettings:
    if value is None:
        return DreamingSettings()
    if not isinstance(value, Mapping):
        raise SettingsError(f'{_where("dreaming")} must be an object such as {{"enabled": true}}, got {value!r}')
    defaults = DreamingSettings()
    turns = value.get("minTurnsSinceLastRun")
    if turns is None:
        turns = value.get("minSessionsSinceLastRun")  # deprecated alias: it always counted turns
    key = "minTurnsSinceLastRun" if value.get("minTurnsSinceLastRun") is not None else "minSessionsSinceLastRun"
    return DreamingSettings(
        enabled=defaults.enabled if value.get("enabled") is None else _flag("dreaming.enabled", value["enabled"]),
        min_hours_since_last_run=defaults.min_hours_since_last_run if value.get("minHoursSinceLastRun") is None
        else _hours("dreaming.minHoursSinceLastRun", value["minHoursSinceLastRun"]),
        min_turns_since_last_run=defaults.min_turns_since_last_run if turns is None
        else _whole(f"dreaming.{key}", turns, minimum=0, example=5),
        model=defaults.model if value.get("model") is None else _model("dreaming.model", value["model"]),
    )


def _backend(merged: Mapping[str, Any]) -> dict[str, Any]:
    """``backend``, ``dsn``, ``namespace``, ``poolSize``, ``statementTimeoutMs`` checked together."""
    kind = merged.get("backend")
    kind = "file" if kind is None or (isinstance(kind, str) and not kind.strip()) else kind
    if not isinstance(kind, str) or kind.strip().lower() not in BACKENDS:
        raise SettingsError(f'{_where("backend")} must be "file" or "postgres", got {kind!r}')
    kind = kind.strip().lower()
    if kind == "file":
        return {"backend": "file"}
    dsn = merged.get("dsn")
    if dsn is not None and not isinstance(dsn, str):
        raise SettingsError(f"{_where('dsn')} must be a connection string such as "
                            f"'postgresql://agent@db.internal/agents', got {type(dsn).__name__}")
    dsn = (dsn or "").strip() or os.environ.get(DSN_ENV, "").strip()
    if not dsn:
        raise SettingsError(f"{_where('backend')} is \"postgres\" but no database is set: add {_where('dsn')} "
                            f"(e.g. \"postgresql://agent@db.internal/agents\") or set ${DSN_ENV}")
    namespace = merged.get("namespace")
    if namespace is None or (isinstance(namespace, str) and not namespace.strip()):
        namespace = DEFAULT_NAMESPACE
    if not isinstance(namespace, str) or len(namespace) > _MAX_NAMESPACE_CHARS:
        raise SettingsError(f"{_where('namespace')} must be a name of at most {_MAX_NAMESPACE_CHARS} characters "
                            f"(e.g. \"team-payments\"), got {namespace!r}")
    return {
        "backend": kind, "dsn": dsn, "namespace": namespace.strip(),
        "pool_size": None if merged.get("poolSize") is None
        else _whole("poolSize", merged["poolSize"], minimum=1, example=4),
        "statement_timeout_ms": None if merged.get("statementTimeoutMs") is None
        else _whole("statementTimeoutMs", merged["statementTimeoutMs"], minimum=0, example=10_000),
    }


def parse_settings(file_section: Mapping[str, Any] | None, injected: Mapping[str, Any] | None = None) -> MemorySettings:
    """``{**file_section, **injected}`` (the injected config wins, per key) as checked settings.

    Raises :class:`SettingsError` for a value that cannot be used.
    """
    merged: dict[str, Any] = {**(file_section or {}), **(injected or {})}
    store = merged.get("store")
    if store is not None and not isinstance(store, MemoryStore):
        raise SettingsError(f"the injected 'store' must be a pi_memory.memory.MemoryStore, got {type(store).__name__}")
    extraction = merged.get("extractionModel")
    return MemorySettings(
        data_dir=data_dir(merged.get("dataDir")),
        memory_char_limit=DEFAULT_MEMORY_CHAR_LIMIT if merged.get("memoryCharLimit") is None
        else _whole("memoryCharLimit", merged["memoryCharLimit"], minimum=1, example=DEFAULT_MEMORY_CHAR_LIMIT),
        user_char_limit=DEFAULT_USER_CHAR_LIMIT if merged.get("userCharLimit") is None
        else _whole("userCharLimit", merged["userCharLimit"], minimum=1, example=DEFAULT_USER_CHAR_LIMIT),
        extraction_model=None if extraction is None else _model("extractionModel", extraction),
        extraction_interval=5 if merged.get("extractionInterval") is None
        else _whole("extractionInterval", merged["extractionInterval"], minimum=1, example=5),
        dreaming=_dreaming(merged.get("dreaming")),
        store=store,
        **({} if store is not None else _backend(merged)),
    )


def open_settings_store(settings: MemorySettings) -> MemoryStore:
    """The store ``settings`` describe: the injected one, files in ``data_dir``, or PostgreSQL.

    Opening never touches the database (the first read does); a PostgreSQL store should be
    closed with :func:`pi_memory.backends.close_store` when its owner is done with it.
    """
    if settings.store is not None:
        return settings.store
    if settings.backend == "file":
        return MemoryStore(settings.data_dir, settings.memory_char_limit, settings.user_char_limit)
    section: dict[str, Any] = {"backend": settings.backend, "dsn": settings.dsn, "namespace": settings.namespace,
                               "memoryCharLimit": settings.memory_char_limit,
                               "userCharLimit": settings.user_char_limit}
    if settings.pool_size is not None:
        section["poolSize"] = settings.pool_size
    if settings.statement_timeout_ms is not None:
        section["statementTimeoutMs"] = settings.statement_timeout_ms
    return open_store(section)
