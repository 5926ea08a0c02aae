"""Linear time: no catastrophic backtracking (pi-memory's unbounded filler is cubic).

Growth is asserted on a deterministic work measure (characters the rule engine examines), so the
test cannot flake on a busy machine; one generous wall-clock *ratio* backs it up. Absolute times
live in ``bench/scan_bench.py``.
"""

from __future__ import annotations

import time

from pi_memory.security import MAX_SCAN_CHARS, scan
from pi_memory.security.threats import _scan_work

NEAR_MISSES = {
    "ignore_all": lambda n: "ignore all " * n,
    "filler_between_triggers": lambda n: "ignore " + "word " * n + "instructions",
    "curl_without_secret": lambda n: "curl " + "x" * n,
    "html_comment": lambda n: "<!-- " + "a " * n,
    "you_are": lambda n: "you are " * n,
    "spaced_letters": lambda n: "a b " * n,
}


def _work(make: object, n: int) -> int:
    assert callable(make)
    return _scan_work(make(n))


def test_work_grows_linearly() -> None:
    for name, make in NEAR_MISSES.items():
        small = _work(make, 1_000)
        large = _work(make, 4_000)
        assert large <= 8 * max(small, 1), (name, small, large)


def test_work_is_capped_at_the_scan_prefix() -> None:
    capped = _scan_work("ignore all " * 20_000)
    at_cap = _scan_work(("ignore all " * 20_000)[:MAX_SCAN_CHARS])
    assert capped == at_cap


def _best_cpu(text: str) -> float:
    """The best of three scans of ``text``, in CPU seconds (another process's load does not count)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        scan(text)
        best = min(best, time.process_time() - t0)
    return best


def test_cpu_time_ratio_is_roughly_linear() -> None:
    words = ["alpha", "beta", "gamma", "delta"]
    small = " ".join(words[i % 4] for i in range(2_000))
    large = " ".join(words[i % 4] for i in range(8_000))
    assert _best_cpu(large) < 8 * _best_cpu(small) + 0.05


def test_eighty_thousand_word_near_miss_finishes() -> None:
    text = "ignore " + "please " * 80_000 + "instructions"
    assert scan(text) == []




def test_many_without_and_negation_pairs_stay_linear() -> None:
    """Every negation was once checked against every "without" span of the text (quadratic)."""
    for unit in ("sin preguntar nunca ", "without asking never "):
        small = _best_cpu(unit * (15_000 // len(unit)))
        large = _best_cpu(unit * (60_000 // len(unit)))
        assert large < 8 * small + 0.02, (unit, small, large)
