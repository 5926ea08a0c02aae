"""A hard-negative set of our own: 255 benign notes that share words with attacks.

``tests/fixtures/security/hard_negatives.jsonl`` holds security write-ups, incident notes,
DLP and detection rules, the user's privacy preferences, ops procedures (curl, cron, hooks, ssh,
shell rc files), notes quoting an attack as test data, red-team schedules, reported orders ("the
attacker told the agent to ..."), policies and tokenizer notes: 112 in English, 11 in each of
the other 13 languages, some of several lines. Half (``part == "tune"``) was read while fixing
the causes of false positives; the other half (``"probe"``) is only ever counted. On the base,
10 of the 134 tune notes and 35 of the 121 probe notes were blocked.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from fixture_sets import fixture_rows
from pi_memory.security import scan

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "security" / "hard_negatives.jsonl"


def _rows(part: str | None = None) -> list[dict[str, str]]:
    return fixture_rows(FIXTURE, part)


def test_the_set_covers_every_language_and_style() -> None:
    rows = _rows()
    assert len(rows) >= 250
    langs = Counter(r["lang"] for r in rows)
    assert len(langs) == 14 and min(langs.values()) >= 10
    assert Counter(r["part"] for r in rows)["tune"] * 2 >= len(rows) - 2
    assert sum("\n" in r["text"] for r in rows) >= 10  # multi-line notes


#: Tune notes still blocked on purpose: a quoted command, URL or secret is read however it is
#: introduced, and a list of quoted orders under a heading is not told from a list of orders.
#: (Template tokens named side by side, "<|begin_of_text|> and <|eot_id|>", now pass.)
_KEPT = ("curl -d @", "Injection test cases")


def test_at_most_one_tune_note_in_twenty_is_blocked() -> None:
    blocked = [r for r in _rows("tune") if scan(r["text"])]
    assert len(blocked) <= 4, [(r["lang"], r["style"], r["text"]) for r in blocked]


@pytest.mark.parametrize(
    "row",
    [r for r in _rows("tune") if not any(k in r["text"] for k in _KEPT)],
    ids=lambda r: r["lang"] + "-" + r["style"],
)
def test_each_tune_note_passes(row: dict[str, str]) -> None:
    # (a hook that runs on every commit and posts its results to a channel now reads as posting
    # to it, not as a command channel: ``directions.channel_is_output``)
    assert scan(row["text"]) == [], row["text"]
