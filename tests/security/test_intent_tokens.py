"""How the lexicon's words and phrases are found (``intent_tokens``): the boundary test each script
needs, one automaton pass giving the same finds as ``str.find`` per entry, and the concepts a
token carries (possessives and code-mixed endings read as the word they hang on)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_memory.security.intent_tokens import (
    _found_phrases,
    lexicon_pass,
    on_boundaries,
    phrase_hits,
    word_marks,
)
from pi_memory.security.lexicon_build import CLITIC, END, START, lexicon


def test_an_entry_must_end_and_start_on_a_word_boundary_when_its_flags_ask() -> None:
    text = "the senders resend"
    assert on_boundaries(text, 4, 8, START)  # "send" opens "senders"
    assert not on_boundaries(text, 4, 8, START | END)  # ... but does not end it
    assert not on_boundaries(text, 14, 18, START)  # "send" inside "resend"
    assert on_boundaries(text, 14, 18, END)


def test_an_arabic_entry_may_follow_a_proclitic_only() -> None:
    text = "والمستخدم"  # "and the user": و + ال before the word
    assert on_boundaries(text, 3, len(text), START | CLITIC)
    assert not on_boundaries(text, 3, len(text), START)
    assert not on_boundaries("كتابمستخدم", 5, 10, START | CLITIC)  # five letters before: no proclitic


_WORDS = st.sampled_from(["send", "the", "keys", "without", "asking", "übermitteln", "不要", "告诉", "ignore",
                          "previous", "instructions", "e-mail", "pre-approved", " ", ", ", "\n"])


@settings(max_examples=150, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=30))
def test_one_automaton_pass_finds_what_str_find_per_entry_finds(parts: list[str]) -> None:
    text = "".join(parts) + " "
    text *= 401 // len(text) + 1  # longer than a young lexicon reads by find: the automaton reads it
    lex = lexicon()
    assert lex.reader(len(text)) is lex.automaton is not None
    assert list(phrase_hits(lex, text)) == _found_phrases(lex, text)
    starts, phrases = lexicon_pass(lex, text)
    assert phrases == _found_phrases(lex, text)
    assert [pos for pos, _ in word_marks(lex, text, starts)] == [pos for pos, _ in word_marks(lex, text)]


def test_a_possessive_and_a_code_mixed_ending_read_as_their_word() -> None:
    lex = lexicon()
    plain = dict(word_marks(lex, "assistant"))[0]
    assert dict(word_marks(lex, "the assistant's rules"))[4] >= plain
    merged = dict(word_marks(lex, "push"))
    assert merged and dict(word_marks(lex, "push하기"))[0] >= merged[0]
