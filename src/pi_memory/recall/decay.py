"""Time-decay importance, the extension guide's formula with real access data.

``weight = min(exp(-rate · ageHours) + ln(accessCount + 1) / 10 + (0.2 if age < 24 h), 1.0)``

With the default rate of 0.0001 per hour a memory nobody recalls falls below 0.7 after
``ln(1/0.7) / 0.0001 ≈ 3,567`` hours, about 149 days (five months); each recall adds
``ln(n+1)/10``, so a memory recalled 5 times keeps ≥ 0.7 for ``ln(1/(0.7 - ln(6)/10)) / 0.0001``
≈ 6,520 hours (nine months). Age counts from the message's own timestamp.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

__all__ = ["DEFAULT_DECAY_RATE", "age_hours", "importance", "parse_timestamp"]

DEFAULT_DECAY_RATE = 0.0001
"""Per hour."""


def parse_timestamp(value: str) -> datetime:
    """ISO 8601 (``Z`` or offset; naive means UTC) → aware datetime."""
    parsed = datetime.fromisoformat(value.replace("Z", "+00:00") if value.endswith("Z") else value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def age_hours(timestamp: str, now: datetime | None = None) -> float:
    """Hours since ``timestamp`` (never negative: clocks of two machines may disagree)."""
    current = now or datetime.now(UTC)
    return max(0.0, (current - parse_timestamp(timestamp)).total_seconds() / 3600.0)


def importance(
    timestamp: str, access_count: int = 0, *, rate: float = DEFAULT_DECAY_RATE, now: datetime | None = None
) -> float:
    """The decay weight of one memory, between 0 and 1."""
    age = age_hours(timestamp, now)
    weight = math.exp(-rate * age) + math.log(max(access_count, 0) + 1) / 10
    if age < 24:
        weight += 0.2
    return min(weight, 1.0)
