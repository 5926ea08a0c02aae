"""The guide's decay weight, and the five-month claim in docs/recall.md."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from pi_memory.recall import DEFAULT_DECAY_RATE, importance

NOW = datetime(2025, 6, 1, tzinfo=UTC)


def _ago(**delta: float) -> str:
    return (NOW - timedelta(**delta)).isoformat().replace("+00:00", "Z")


def test_formula() -> None:
    assert DEFAULT_DECAY_RATE == 0.0001
    # fresh (< 24 h): exp(~0) + 0.2, capped at 1
    assert importance(_ago(hours=1), now=NOW) == 1.0
    # one week, never accessed: exp(-0.0001 * 168)
    assert importance(_ago(hours=168), now=NOW) == pytest.approx(math.exp(-0.0168))
    # accesses add ln(n+1)/10
    assert importance(_ago(hours=10_000), 4, now=NOW) == pytest.approx(math.exp(-1.0) + math.log(5) / 10)
    assert importance(_ago(hours=10_000), 0, rate=0.001, now=NOW) == pytest.approx(math.exp(-10.0))
    # a timestamp in the future counts as age 0
    assert importance(_ago(hours=-5), now=NOW) == 1.0


def test_a_memory_stays_above_0_7_for_about_five_months() -> None:
    days = math.log(1 / 0.7) / DEFAULT_DECAY_RATE / 24
    assert 145 < days < 152  # ≈ 149 days ≈ 4.9 months
    assert importance(_ago(days=145), now=NOW) > 0.7
    assert importance(_ago(days=152), now=NOW) < 0.7
    assert importance(_ago(days=152), 1, now=NOW) > 0.7  # one recall buys more time


def test_offsets_and_naive_timestamps() -> None:
    assert importance("2025-05-31T03:00:00+02:00", now=NOW) == 1.0  # 23 h ago: the fresh bonus applies
    assert importance("2025-05-31T02:00:00+02:00", now=NOW) == pytest.approx(math.exp(-0.0024))  # exactly 24 h
    assert importance("2025-05-01T00:00:00", now=NOW) == pytest.approx(math.exp(-0.0001 * 744))
