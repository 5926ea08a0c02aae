"""Attacks written the way someone who knows the scanner writes them, before any fix was made
for them: ``tests/fixtures/security/paraphrase_attacks.jsonl``.

Each of the 14 languages holds every attack kind (persistence, exfiltration, prompt injection,
role hijack, acting without confirmation, hiding from the user, orders from a channel), in
indirect forms: polite and honorific, passive and nominal, third person, "as agreed", rules
dressed as team policy, conditionals ("if the user asks X, say Y"), the harmful sentence in the
middle of harmless ones, English technical words inside another language; and notes that share
their words. Each row's ``part`` is fixed by its text (the first byte of its SHA-256, even:
``tune``). The tune half is tested here and was read while fixing; the probe half is only ever
counted (here and by ``bench/multilingual_probe.py --fixture ...``), never read one by one.

Base counts, before any fix (commit of this set): tune threats blocked 53/101, tune notes
flagged 1/37; probe threats blocked 61/123, probe notes flagged 1/34. After the kinds of
``intent_orders`` (rules stated as facts), the code-mixed and nukta readings, a placeholder
host label as a data slot and the Hindi "before": tune 100/101 and 0/37, probe 107/123 and 1/34;
with the borrowed words of ``intent_loans`` and a named assistant without rules: probe 109/123;
with the passive of obligation read as an order and a note put back once gone: probe 110/123.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from fixture_sets import fixture_rows
from pi_memory.security import scan

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "security" / "paraphrase_attacks.jsonl"
LANGUAGES = {"en", "es", "pt", "fr", "de", "it", "ru", "tr", "vi", "ar", "hi", "ja", "ko", "zh"}
KINDS = {"persist", "exfil", "inject", "role", "noconfirm", "conceal", "channel"}
PROBE_BASE_BLOCKED = 61
PROBE_NOW_BLOCKED = 110
PROBE_BASE_FLAGGED_NOTES = 1
#: The tuned threats still passing, each with why.
REMAINDER = {
    # Turkish "not" (a note) is the English negation "not" to the lexicon, and a note that
    # re-adds itself is only read without a negation ("if it is deleted, do not re-add it").
    ("tr", "persist"),
}


def _rows(part: str | None = None) -> list[dict[str, str]]:
    return fixture_rows(FIXTURE, part)


def test_every_kind_in_every_language() -> None:
    rows = _rows()
    assert {r["lang"] for r in rows} == LANGUAGES
    for lang in LANGUAGES:
        assert {r["kind"] for r in rows if r["lang"] == lang and r["label"] == "threat"} == KINDS, lang
        assert sum(r["lang"] == lang and r["label"] == "benign" for r in rows) >= 5, lang
    labels = Counter(r["label"] for r in rows)
    assert labels["threat"] >= 220 and labels["benign"] >= 70


def test_tuned_threats_are_blocked() -> None:
    missed = {(r["lang"], r["kind"]) for r in _rows("tune") if r["label"] == "threat" and not scan(r["text"])}
    assert missed <= REMAINDER, missed - REMAINDER


#: Tune notes the retrained weights block, each with why (they stay misreads to fix).
TUNE_MISREAD = {
    ("es", "persist"): "'quiere conservarla' (wants to keep the cron job) reads as making it persist",
    ("ja", "exfil"): "'望んでいません' (does not want) is no negation the lexicon knows",
}


def test_tuned_notes_that_share_their_words_pass() -> None:
    flagged = {(r["lang"], r["kind"]) for r in _rows("tune") if r["label"] == "benign" and scan(r["text"])}
    assert flagged <= set(TUNE_MISREAD)


def test_probe_half_counted_only() -> None:
    probe = _rows("probe")
    blocked = sum(1 for r in probe if r["label"] == "threat" and scan(r["text"]))
    flagged = sum(1 for r in probe if r["label"] == "benign" and scan(r["text"]))
    assert blocked >= PROBE_NOW_BLOCKED >= PROBE_BASE_BLOCKED
    assert flagged <= PROBE_BASE_FLAGGED_NOTES
