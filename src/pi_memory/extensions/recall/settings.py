"""The ``pi-memory-recall`` settings section, shared by the recall and decay extensions.

```json
{"pi-memory-recall": {"enabled": true, "url": "~/.pi/agent/recall.db", "embedder": "static",
                      "batchSize": 10, "flushInterval": 5, "decayRate": 0.0001, "rank": "relevance"}}
```

Values may arrive as strings after ``$VAR`` interpolation (``"false"``, ``"10"``); those are
coerced. Anything that cannot mean a value is refused with a message naming the key, the same
rule as the ``pi-memory`` section: a typo should be fixed, not silently replaced by a default.
An extension's own config (the second argument, or ``{"source": ..., "config": {...}}`` in the
``extensions`` list) wins over the files, key by key.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pi_memory.recall.decay import DEFAULT_DECAY_RATE
from pi_memory.recall.open import default_url

__all__ = ["RANK_MODES", "SECTION", "RecallSettings", "RecallSettingsError", "parse_recall_settings"]

SECTION = "pi-memory-recall"
RANK_MODES = ("relevance", "recency", "importance")

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


class RecallSettingsError(ValueError):
    """A ``pi-memory-recall`` setting cannot be used; the message says how to fix it."""


@dataclass(frozen=True)
class RecallSettings:
    """The effective recall settings (file layers merged, extension config on top)."""

    enabled: bool = True
    url: str = ""
    """Where the index lives: a path (SQLite) or a ``postgresql://`` URL. Empty means the default,
    ``$PI_MEMORY_RECALL_URL`` else ``<agentDir>/recall.db`` — see :attr:`location`."""
    embedder: str | None = None
    batch_size: int = 10
    flush_interval: float = 5.0
    decay_rate: float = DEFAULT_DECAY_RATE
    rank: str = "relevance"

    @property
    def location(self) -> str:
        return self.url or default_url()


def _where(key: str) -> str:
    return f"{SECTION}.{key}"


def _flag(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise RecallSettingsError(f"{_where(key)} must be true or false, got {value!r}")


def _number(key: str, value: Any, *, minimum: float, example: str, exclusive: bool = False) -> float:
    number: float | None = None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            number = None
    below = number is not None and (number <= minimum if exclusive else number < minimum)
    if number is None or math.isnan(number) or math.isinf(number) or below:
        bound = f"above {minimum:g}" if exclusive else f"at least {minimum:g}"
        raise RecallSettingsError(f"{_where(key)} must be a number {bound} (e.g. {example}), got {value!r}")
    return number


def _whole(key: str, value: Any, *, minimum: int, example: int) -> int:
    number = _number(key, value, minimum=minimum, example=str(example))
    if not number.is_integer():
        raise RecallSettingsError(f"{_where(key)} must be a whole number (e.g. {example}), got {value!r}")
    return int(number)


def _text(key: str, value: Any, example: str) -> str:
    if not isinstance(value, str):
        raise RecallSettingsError(f"{_where(key)} must be a string (e.g. {example!r}), got {value!r}")
    return value.strip()


def parse_recall_settings(
    file_section: Mapping[str, Any] | None, injected: Mapping[str, Any] | None = None
) -> RecallSettings:
    """``{**file_section, **injected}`` as checked settings (unknown keys are ignored, so objects
    injected for tests — ``service``, ``embedder`` objects — pass through untouched)."""
    merged: dict[str, Any] = {**(file_section or {}), **(injected or {})}
    defaults = RecallSettings()

    def given(key: str) -> Any:
        return merged.get(key)

    url = "" if given("url") is None else _text("url", given("url"), "~/.pi/agent/recall.db")
    if url and "://" not in url:
        url = str(Path(url).expanduser())
    embedder = given("embedder")
    rank = defaults.rank if given("rank") is None else _text("rank", given("rank"), "relevance")
    if rank not in RANK_MODES:
        raise RecallSettingsError(f"{_where('rank')} must be one of {', '.join(RANK_MODES)}, got {rank!r}")
    rate = given("decayRate") if given("decayRate") is not None else given("rate")
    return RecallSettings(
        enabled=defaults.enabled if given("enabled") is None else _flag("enabled", given("enabled")),
        url=url,
        embedder=(embedder.strip() or None) if isinstance(embedder, str) else None,
        batch_size=defaults.batch_size if given("batchSize") is None
        else _whole("batchSize", given("batchSize"), minimum=1, example=10),
        flush_interval=defaults.flush_interval if given("flushInterval") is None
        else _number("flushInterval", given("flushInterval"), minimum=0, example="5", exclusive=True),
        decay_rate=defaults.decay_rate if rate is None
        else _number("decayRate", rate, minimum=0, example="0.0001"),
        rank=rank,
    )
