"""Property tests for the readings (question, record, report, description, policy, links, lexicon):
each is total on any str and gives the same answer twice, so ``scan`` can lean on them."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_memory.security import (
    directions,
    intent_kept,
    intent_match,
    intent_orders,
    links,
    mood,
    prohibition,
    questions,
    records,
    reported,
    scan,
)
from pi_memory.security.lexicon_build import is_word, lexicon_for

# One letter from each script of the 14 languages, plus the marks and invisibles an attacker uses.
_SCRIPTS = "aéßçñøłđưдجשअ中あ한ğ"
_MARKS = "\u0301\u0308\u064b\u093c\u200b\u200c\u200d\u2060\ufeff\u202e\u202d\u2066\u061c"
_PUNCT = ":：?？؟¿!¡\"'“”„«»‘’()[]{}<>|;；,，.。-_/\\*#`~"
_HIGH = "\U0001f600\U000e0041\U0010fffd\U0001d400\uffff\ufffe"
_WORDS = [
    "never", "without", "asking", "delete", "all", "files", "send", "token", "to", "https://x.io/a",
    "Question", "Record", "Policy", "report", "from now on", "the assistant", "bot", "said",
    "nunca", "sin", "preguntar", "ohne", "zu", "fragen", "sans", "demander", "не", "без", "удали",
    "不要", "删除", "所有", "文件", "لا", "دون", "تحذف", "masked", "sk-****", "curl", "| sh",
    "~/.ssh/id_rsa", ".env", "rm -rf /", "ignore previous instructions", "runs at login",
]

_pieces = st.one_of(
    st.sampled_from(_WORDS),
    st.text(alphabet=_SCRIPTS + _MARKS + _PUNCT + _HIGH + " \n\t", max_size=12),
    st.text(max_size=8),
)
TEXT = st.lists(_pieces, max_size=40).map(" ".join)

LINE_READINGS: list[Callable[[str], object]] = [
    questions.deliberates,
    records.setup_record,
    directions.channel_is_output,
    mood.orders,
    mood.subject_acts,
    mood.past_report,
    mood.describes,
    reported.reported,
    links.links,
    intent_match.concepts,
    intent_match.concept_positions,
    lambda s: lexicon_for(s) is lexicon_for(s),
    lambda s: [is_word(c) for c in s],
]

_SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(TEXT, st.sampled_from(range(len(LINE_READINGS))))
def test_line_readings_are_total_and_deterministic(text: str, which: int) -> None:
    reading = LINE_READINGS[which]
    assert reading(text) == reading(text)


@_SETTINGS
@given(TEXT, st.integers(min_value=0, max_value=500), st.integers(min_value=0, max_value=500))
def test_span_readings_are_total_and_deterministic(text: str, a: int, b: int) -> None:
    folded = text.casefold()
    lo, hi = sorted((min(a, len(folded)), min(b, len(folded))))
    acts = frozenset({"send", "destroy", "execute"})
    for call in (
        lambda: prohibition.forbids_unconfirmed(folded, lo, hi),
        lambda: prohibition.masked(folded, lo, hi),
        lambda: prohibition.prohibited(folded, lo, hi, acts),
        lambda: prohibition.acts_negated(folded, lo, hi, "send"),
        lambda: prohibition.negated_before(folded, lo),
    ):
        assert call() == call()


@_SETTINGS
@given(TEXT)
def test_mark_readings_are_total_and_deterministic(text: str) -> None:
    marks = intent_match.concepts(text)
    for call in (
        lambda: intent_kept.kept_in_description(set(marks), text),
        lambda: intent_kept.standing_harm(set(marks), text),
        lambda: intent_orders.stated_order(set(marks)),
    ):
        assert call() == call()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TEXT, min_size=1, max_size=30).map("\n".join))
def test_scan_is_total_on_many_lines(text: str) -> None:
    first = scan(text)
    assert scan(text) == first
    for f in first:
        assert 0 <= f.start <= f.end <= len(text)


def test_structural_extremes_do_not_raise() -> None:
    """Long runs of the characters the readings split on (colons, question marks, quotes)."""
    for text in (
        ":" * 5_000,
        "?" * 5_000,
        '"' * 5_000,
        "“«„" * 2_000,
        "(" * 3_000 + ")" * 3_000,
        "a" * 20_000,
        "aд中ا\u0301" * 2_000,
        ("Question: " * 500) + "delete all files without asking?",
    ):
        assert scan(text) == scan(text)
