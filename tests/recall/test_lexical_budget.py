"""The lexical budget, on SQLite and PostgreSQL: rare words are scored over all their matches,
common words only where a rare word is (same top list as scoring every word), and a query of only
common words scores the newest matches. A tiny budget on a small index makes every path run.
PostgreSQL reads the word counts off its planner statistics (``ANALYZE``, run by ``flush``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from pi_memory.recall import SQLiteIndex
from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.postgres_index import PostgresIndex

from .conftest import HashEmbedder, record

LEXICAL = SearchConfig(fusion="lexical", neighbour_lexical=0.0, neighbour_dense=0.0)
COMMON = ["coffee", "meeting", "today", "project", "update"]


def _rows() -> list[dict[str, object]]:
    rng = random.Random(3)
    rows = []
    for i in range(300):
        words = rng.sample(COMMON, 3) + [f"filler{rng.randrange(40)}" for _ in range(4)]
        if i % 37 == 0:
            words.append("zanzibar")  # rare: 9 messages
        if i % 101 == 0:
            words.append("running")  # rarer, stemmed to "run": 3 messages
        rows.append(record(f"m{i}", " ".join(words), session=f"s{i // 20}"))
    return rows


def _index(tmp_path: Path) -> SQLiteIndex:
    index = SQLiteIndex(tmp_path / "budget.db", embedder=HashEmbedder())
    index.add(_rows())
    return index


def _ids(index: SQLiteIndex | PostgresIndex, config: SearchConfig, query: str, k: int = 10) -> list[str]:
    index.config = config
    return [h.id for h in index.search(query, top_k=k)]


def test_rare_words_keep_the_exact_top_list(tmp_path: Path) -> None:
    with _index(tmp_path) as index:
        frequencies = index._document_frequencies(["zanzibar", "runs", "coffee", "absent"])
        assert frequencies["zanzibar"] == 9 and frequencies["runs"] == 3  # porter: runs, running → run
        assert frequencies["coffee"] > 100 and frequencies["absent"] == 0
        everything = _ids(index, replace(LEXICAL, lexical_budget=0), "zanzibar coffee meeting run")
        capped = _ids(index, replace(LEXICAL, lexical_budget=20), "zanzibar coffee meeting run")
        assert capped == everything and len(everything) == 10
        rare, common, window = index._split(["zanzibar", "coffee", "meeting", "run"], index.count())
        assert (rare, sorted(common), window) == (["run", "zanzibar"], ["coffee", "meeting"], 0)  # rarest first


def test_only_common_words_score_the_newest_matches(tmp_path: Path) -> None:
    with _index(tmp_path) as index:
        index.config = replace(LEXICAL, lexical_budget=20)
        rare, common, window = index._split(["coffee", "meeting"], index.count())
        assert (rare, sorted(common), window) == ([], ["coffee", "meeting"], 20)
        hits = _ids(index, replace(LEXICAL, lexical_budget=20), "coffee meeting", k=5)
        texts = {h.id: h.text.split() for h in index.get([f"m{i}" for i in range(300)])}
        matching = [f"m{i}" for i in range(300) if {"coffee", "meeting"} & set(texts[f"m{i}"])]
        assert len(hits) == 5 and set(hits) <= set(matching[-20:])


def test_the_budget_does_not_apply_to_small_indexes(tmp_path: Path) -> None:
    with _index(tmp_path) as index:  # the default budget: 300 messages × 2 words fit
        assert index._split(["coffee", "zanzibar"], index.count()) == (["coffee", "zanzibar"], [], 0)


# ---------------------------------------------------------------------------------- PostgreSQL

_tables = iter(range(1_000_000))


@pytest.fixture
def pg_index(pg_url: str) -> Iterator[PostgresIndex]:
    index = PostgresIndex(pg_url, embedder=HashEmbedder(), table=f"budget{next(_tables)}")
    index.add(_rows())
    index.flush()  # builds the HNSW index and analyzes the table: the word counts come from there
    try:
        yield index
    finally:
        index.clear()
        index.close()


def test_postgres_counts_words_from_its_statistics(pg_index: PostgresIndex) -> None:
    frequencies = pg_index._document_frequencies(["zanzibar", "runs", "coffee", "the"], budget=20)
    assert frequencies is not None
    assert frequencies["zanzibar"] == pytest.approx(9) and frequencies["runs"] == pytest.approx(3)  # runs → run
    assert frequencies["coffee"] > 100 and frequencies["the"] == 0  # a stopword has no lexeme
    assert pg_index._document_frequencies(["zanzibar"], budget=1_000) is None  # 300 messages fit: no budget
    pg_index.config = replace(LEXICAL, lexical_budget=20)
    rare, common, window = pg_index._split(["zanzibar", "coffee", "meeting", "run"])
    assert (rare, sorted(common), window) == (["run", "zanzibar"], ["coffee", "meeting"], 0)  # rarest first


def test_postgres_ranks_only_rare_word_matches_by_every_word(pg_index: PostgresIndex) -> None:
    """Unlike BM25, ``ts_rank_cd`` has no IDF (two common words side by side can outrank the rare
    word alone), so the budget changes the list: the messages holding a rare word, with the very
    scores every word gives them when nothing is left out."""
    query = "zanzibar coffee meeting run"
    pg_index.config = replace(LEXICAL, lexical_budget=0)
    unbounded = pg_index._lexical(query, "", [])
    pg_index.config = replace(LEXICAL, lexical_budget=20)
    bounded = pg_index._lexical(query, "", [])
    assert len(bounded) == 11 < len(unbounded)  # 9 zanzibar + 3 running (m0 has both), not ~all 300
    assert bounded == {seq: unbounded[seq] for seq in bounded}
    capped = _ids(pg_index, pg_index.config, query)
    texts = {h.id: set(h.text.split()) for h in pg_index.get(capped)}
    assert len(capped) == 10 and all({"zanzibar", "running"} & words for words in texts.values())


def test_postgres_budget_keeps_the_relevant_message_first_in_a_crowd(pg_index: PostgresIndex) -> None:
    """The default fusion, a budget far below the matches: the one message holding the rare word
    and the common ones still comes first, although ~all 300 messages match a common word."""
    pg_index.add([record("needle", "zanzibar coffee meeting project update filler7", session="s99")])
    pg_index.config = replace(SearchConfig(), lexical_budget=20)
    hits = pg_index.search("coffee meeting in zanzibar, what was the project update?", top_k=5)
    assert hits[0].id == "needle" and 0.0 < hits[0].similarity <= 1.0
    assert len(pg_index._lexical("coffee meeting zanzibar project update", "", [])) <= 20


def test_postgres_only_common_words_rank_the_newest_matches(pg_index: PostgresIndex) -> None:
    pg_index.config = replace(LEXICAL, lexical_budget=20)
    assert pg_index._split(["coffee", "meeting"])[2] == 20
    hits = _ids(pg_index, pg_index.config, "coffee meeting", k=5)
    texts = {h.id: h.text.split() for h in pg_index.get([f"m{i}" for i in range(300)])}
    matching = [f"m{i}" for i in range(300) if {"coffee", "meeting"} & set(texts[f"m{i}"])]
    assert len(hits) == 5 and set(hits) <= set(matching[-20:])
