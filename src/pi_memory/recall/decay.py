"""Time-decay importance, the extension guide's formula with real access data.

``weight = min(exp(-rate · ageHours) + ln(accessCount + 1) / 10 + (0.2 if age < 24 h), 1.0)``

With the default rate of 0.0001 per hour a memory nobody recalls falls below 0.7 after
``ln(1/0.7) / 0.0001 ≈ 3,567`` hours, about 149 days (five months); each recall adds
``ln(n+1)/10``, so a memory recalled 5 times keeps ≥ 0.7 for ``ln(1/(0.7 - ln(6)/10)) / 0.0001``
≈ 6,520 hours (nine months). Age counts from the message's own timestamp.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime

__all__ = ["DEFAULT_DECAY_RATE", "FRESH_BONUS", "FRESH_HOURS", "DecayParts", "age_hours", "importance",
           "importance_parts", "index_time", "parse_timestamp"]

FRESH_HOURS = 24.0
"""A message younger than this gets :data:`FRESH_BONUS` on top."""
FRESH_BONUS = 0.2

DEFAULT_DECAY_RATE = 0.0001
"""Per hour."""


def parse_timestamp(value: str) -> datetime:
    """ISO 8601 (``Z`` or offset; naive means UTC) → aware datetime."""
    parsed = datetime.fromisoformat(value.replace("Z", "+00:00") if value.endswith("Z") else value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def index_time(value: str) -> str:
    """Any ISO 8601 date or time as the indexes store times (UTC, milliseconds, ``Z``).

    The indexes compare timestamps as text, so ``2025-03-02`` or ``…+02:00`` must be turned into
    pi's own form before it is used as a ``since``/``until`` filter, or the comparison would be
    silently wrong. Raises ``ValueError`` for text that is not an ISO date or time.
    """
    moment = parse_timestamp(value.strip())
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def age_hours(timestamp: str, now: datetime | None = None) -> float:
    """Hours since ``timestamp`` (never negative: clocks of two machines may disagree)."""
    current = now or datetime.now(UTC)
    return max(0.0, (current - parse_timestamp(timestamp)).total_seconds() / 3600.0)


@dataclass(frozen=True)
class DecayParts:
    """The terms of one decay weight, so a display can show why a memory weighs what it does."""

    age_hours: float
    decay: float
    """``exp(-rate · ageHours)``."""
    recall: float
    """``ln(accessCount + 1) / 10``."""
    fresh: float
    """:data:`FRESH_BONUS` for a message younger than :data:`FRESH_HOURS`, else 0."""
    weight: float
    """The sum, capped at 1."""

    def to_json(self) -> dict[str, float]:
        return {"ageHours": round(self.age_hours, 3), "decay": round(self.decay, 4), "recall": round(self.recall, 4),
                "fresh": self.fresh, "weight": round(self.weight, 4)}


def importance_parts(
    timestamp: str, access_count: int = 0, *, rate: float = DEFAULT_DECAY_RATE, now: datetime | None = None
) -> DecayParts:
    """The decay weight of one memory and the terms it is made of."""
    age = age_hours(timestamp, now)
    decay = math.exp(-rate * age)
    recall = math.log(max(access_count, 0) + 1) / 10
    fresh = FRESH_BONUS if age < FRESH_HOURS else 0.0
    return DecayParts(age, decay, recall, fresh, min(decay + recall + fresh, 1.0))


def importance(
    timestamp: str, access_count: int = 0, *, rate: float = DEFAULT_DECAY_RATE, now: datetime | None = None
) -> float:
    """The decay weight of one memory, between 0 and 1."""
    return importance_parts(timestamp, access_count, rate=rate, now=now).weight
