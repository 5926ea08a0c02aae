"""The ``pi-memory`` settings section, checked once so every later step can trust its values.

Settings arrive as JSON, often after ``${VAR}`` interpolation, so numbers may be strings
(``"4000"``) and booleans may be ``"false"``. Those are coerced; anything else is refused with a
message that names the key and shows a valid value, because a typo in settings.json should be
fixed by the user, not silently replaced by a default.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_memory._coerce import whole_number
from pi_memory.memory import MemoryStore, default_memory_dir
from pi_memory.memory.store import DEFAULT_MEMORY_CHAR_LIMIT, DEFAULT_USER_CHAR_LIMIT

__all__ = ["DEFAULT_DREAM_MODEL", "DreamingSettings", "MemorySettings", "ModelRef", "SettingsError", "parse_settings"]

SECTION = "pi-memory"


class SettingsError(ValueError):
    """A ``pi-memory`` setting has a value that cannot mean anything; the message says how to fix it."""


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
    dreaming_configured: bool = False
    store: MemoryStore | None = None

    @property
    def uses_default_dir(self) -> bool:
        """True when memory lives in the global default directory (dreaming then reads every
        project's sessions, as pi-memory does)."""
        return self.store is None and str(self.data_dir) == str(default_memory_dir())


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


def _data_dir(value: Any) -> Path:
    if value is None:
        return default_memory_dir()
    if not isinstance(value, str):
        raise SettingsError(f"{_where('dataDir')} must be a directory path (a string), got {value!r}")
    text = value.strip()
    if not text:
        return default_memory_dir()
    return Path(text).expanduser().absolute()


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
        data_dir=_data_dir(merged.get("dataDir")),
        memory_char_limit=DEFAULT_MEMORY_CHAR_LIMIT if merged.get("memoryCharLimit") is None
        else _whole("memoryCharLimit", merged["memoryCharLimit"], minimum=1, example=DEFAULT_MEMORY_CHAR_LIMIT),
        user_char_limit=DEFAULT_USER_CHAR_LIMIT if merged.get("userCharLimit") is None
        else _whole("userCharLimit", merged["userCharLimit"], minimum=1, example=DEFAULT_USER_CHAR_LIMIT),
        extraction_model=None if extraction is None else _model("extractionModel", extraction),
        extraction_interval=5 if merged.get("extractionInterval") is None
        else _whole("extractionInterval", merged["extractionInterval"], minimum=1, example=5),
        dreaming=_dreaming(merged.get("dreaming")),
        dreaming_configured=merged.get("dreaming") is not None,
        store=store,
    )
