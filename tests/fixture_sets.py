"""The hand-written security fixture sets: their rows, and the half each row's text falls in.

Each set's ``part`` is fixed by a hash of the text, not chosen after seeing a verdict: the
``tune`` half may be read while fixing causes, the ``probe`` half is only ever counted.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "security"


def hashed_part(text: str) -> str:
    """``"tune"`` when the first byte of the text's SHA-256 is even, else ``"probe"``."""
    return "tune" if hashlib.sha256(text.encode()).digest()[0] % 2 == 0 else "probe"


def fixture_rows(path: Path, part: str | None = None) -> list[dict[str, str]]:
    """The rows of a JSON-lines fixture set, only those of ``part`` when given."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if part is None or r["part"] == part]


def misread(path: Path, part: str, label: str) -> set[str]:
    """The texts of ``part``'s ``label`` rows (a row without one is benign) the scanner decides
    wrongly: harmless notes it blocks, or threats it lets pass. Each set's test pins the tune half's to the remainder it
    lists with a reason (the probe half's are only ever counted, by :func:`blocked`)."""
    from pi_memory.security import scan

    rows = [r for r in fixture_rows(path, part) if r.get("label", "benign") == label]
    return {r["text"] for r in rows if bool(scan(r["text"])) != (label == "threat")}


def blocked(path: Path, part: str, label: str) -> int:
    """How many of ``part``'s ``label`` rows the scanner blocks (a count, no row is shown)."""
    from pi_memory.security import scan

    return sum(bool(scan(r["text"])) for r in fixture_rows(path, part) if r.get("label", "benign") == label)


def remainder_checks(
    path: Path,
    tune_blocked_benign: Mapping[str, str],
    tune_passed_threats: Mapping[str, str],
    probe_benign_at_base: int,
    probe_threats_at_base: int,
) -> tuple[Callable[[], None], Callable[[], None], Callable[[], None]]:
    """The three checks every hard-negative set's module runs: its tune notes still blocked and its
    tune threats still passed are exactly the listed remainders (each listed with why), and its
    probe half, counted only, blocks no more notes and no fewer threats than on the base."""

    def notes() -> None:
        assert misread(path, "tune", "benign") == set(tune_blocked_benign)

    def threats() -> None:
        assert misread(path, "tune", "threat") == set(tune_passed_threats)

    def probe() -> None:
        # counted only: the probe rows are never printed or read one by one
        assert blocked(path, "probe", "benign") <= probe_benign_at_base
        assert blocked(path, "probe", "threat") >= probe_threats_at_base

    return notes, threats, probe
