"""mood_words: the closed-class word tables mood reads are lowercase single words, and disjoint
where a word in both would make one reading contradict the other."""

from __future__ import annotations

from pi_memory.security import mood_words


def test_the_tables_hold_lowercase_single_words() -> None:
    for name in ("BASE_VERB", "IRREGULAR", "FUNCTION", "NOUNS", "RECORD_NOUNS", "CONJUNCTIONS", "PAST"):
        table = getattr(mood_words, name)
        assert table and all(w == w.lower() and " " not in w for w in table), name


def test_a_record_noun_is_no_base_verb() -> None:
    # a label ending in a record noun is a heading ("post-merge hook:"), never an order
    assert mood_words.RECORD_NOUNS.isdisjoint(mood_words.BASE_VERB)
