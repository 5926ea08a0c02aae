"""``text``: the lexical query every backend builds from a question."""

from __future__ import annotations

from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.text import (
    MAX_QUERY_TERMS,
    budget_split,
    content_terms,
    dense_query,
    fts_match,
    fts_query,
    heavy_words,
    terms,
    weighted_match,
)


def test_terms_fold_case_and_diacritics_like_unicode61() -> None:
    assert terms("Café in MÜNCHEN, 2025!") == ["cafe", "in", "munchen", "2025"]


def test_content_terms_drop_stopwords_unless_nothing_else_is_left() -> None:
    assert content_terms("Where is the staging database, the staging one?") == ["staging", "database", "one"]
    assert content_terms("where is it") == ["where", "is", "it"]
    assert content_terms("where is the db", drop_stopwords=False) == ["where", "is", "the", "db"]


def test_the_fts_query_ors_quoted_terms() -> None:
    assert fts_query("where is the staging database?") == '"staging" OR "database"'
    assert fts_match(['say"hi']) == '"say""hi"'
    assert fts_match([]) is None and fts_query("?!") is None
    long = fts_match([f"w{i}" for i in range(100)])
    assert long is not None and long.count(" OR ") == MAX_QUERY_TERMS - 1


def test_dense_query_is_the_question_unless_configured() -> None:
    assert dense_query("where is the db", SearchConfig()) == "where is the db"
    assert dense_query("where is the db", SearchConfig(dense_stopwords=True)) == "db"


def test_budget_split_takes_the_rarest_words_that_fit() -> None:
    frequency = {"frankfurt": 3, "staging": 40, "database": 900, "the": 5000}
    words = ["the", "staging", "database", "frankfurt", "absent"]
    assert budget_split(words, frequency, 100) == (["frankfurt", "staging"], ["database", "the"], 0)
    assert budget_split(words, frequency, 10_000) == (["frankfurt", "staging", "database", "the"], [], 0)
    # not even the rarest fits: all common, rank the newest `budget` matches
    assert budget_split(words, frequency, 2) == ([], ["frankfurt", "staging", "database", "the"], 2)


def test_a_rare_word_is_repeated_in_the_match_as_its_weight() -> None:
    config = SearchConfig()  # rare: in at most 10 messages, counted twice
    frequency = {"jean": 1, "meeting": 11, "maria": 300, "absent": 0}
    heavy = heavy_words(["jean", "meeting", "maria", "absent"], frequency, config)
    assert heavy == {"jean"}  # a word no message holds weighs nothing
    assert weighted_match(["maria", "jean"], heavy, 2) == '"maria" OR "jean" OR "jean"'
    assert weighted_match(["maria", "jean"], heavy, 1) == fts_match(["maria", "jean"])
    assert heavy_words(["jean"], frequency, SearchConfig(rare_weight=1)) == set()
