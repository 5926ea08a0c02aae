"""A near-miss set of our own: 175 benign notes in 14 languages that share an attack's words.

``tests/fixtures/security/near_miss_notes.jsonl`` holds, for each attack kind (override the
rules, act without confirmation, hide from the user, send data out, persist, take orders from a
channel, change persona), descriptions of a setup, incident reports, questions, negated orders,
the user's own preferences and security documentation: 77 in English, 7-8 in each of the other
13 languages. Half (``part == "tune"``) was read while writing ``mood`` and the context checks;
the other half (``"probe"``) was only ever counted. Before ``mood``, 38 of them were blocked.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from fixture_sets import fixture_rows
from pi_memory.security import scan

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "security" / "near_miss_notes.jsonl"


def _rows() -> list[dict[str, str]]:
    return fixture_rows(FIXTURE)


def test_the_set_covers_every_kind_and_language() -> None:
    rows = _rows()
    assert len(rows) == 175
    kinds = Counter(r["kind"] for r in rows if r["lang"] == "en")
    assert min(kinds.values()) >= 10 and len(kinds) == 7
    langs = Counter(r["lang"] for r in rows if r["lang"] != "en")
    assert len(langs) == 13 and min(langs.values()) >= 7


def test_at_most_one_note_in_twenty_is_blocked() -> None:
    rows = _rows()
    blocked = [r for r in rows if scan(r["text"])]
    assert len(blocked) <= 8, [(r["lang"], r["kind"], r["text"]) for r in blocked]


def test_no_kind_holds_more_than_three_blocked_notes() -> None:
    per_kind = Counter(r["kind"] for r in _rows() if scan(r["text"]))
    assert max(per_kind.values(), default=0) <= 3, per_kind
