"""The PostgreSQL lexical half (:mod:`pi_memory.recall.postgres_lexical`): word counts from the
planner statistics (``ANALYZE``, run by ``flush``), and the lexical budget ranking only the
messages that hold a rare word, by every word."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.postgres_index import PostgresIndex
from pi_memory.recall.postgres_lexical import TsLexical

from .conftest import HashEmbedder, record
from .test_sqlite_lexical import LEXICAL, budget_rows, search_ids

_tables = iter(range(1_000_000))


@pytest.fixture
def pg_table() -> str:
    return f"budget{next(_tables)}"


@pytest.fixture
def lexical(pg_index: PostgresIndex, pg_url: str, pg_table: str) -> Iterator[TsLexical]:
    """The lexical half over the index's table, on a connection of its own."""
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as db:
        yield TsLexical(db, pg_table)


@pytest.fixture
def pg_index(pg_url: str, pg_table: str) -> Iterator[PostgresIndex]:
    index = PostgresIndex(pg_url, embedder=HashEmbedder(), table=pg_table)
    index.add(budget_rows())
    index.flush()  # builds the HNSW index and analyzes the table: the word counts come from there
    try:
        yield index
    finally:
        index.clear()
        index.close()


def test_postgres_counts_words_from_its_statistics(lexical: TsLexical) -> None:
    frequencies = lexical.document_frequencies(["zanzibar", "runs", "coffee", "the"], budget=20)
    assert frequencies is not None
    assert frequencies["zanzibar"] == pytest.approx(9) and frequencies["runs"] == pytest.approx(3)  # runs → run
    assert frequencies["coffee"] > 100 and frequencies["the"] == 0  # a stopword has no lexeme
    assert lexical.document_frequencies(["zanzibar"], budget=1_000) is None  # 300 messages fit: no budget
    rare, common, window = lexical.split(["zanzibar", "coffee", "meeting", "run"], 20)
    assert (rare, sorted(common), window) == (["run", "zanzibar"], ["coffee", "meeting"], 0)  # rarest first


def test_postgres_ranks_only_rare_word_matches_by_every_word(pg_index: PostgresIndex, lexical: TsLexical) -> None:
    """Unlike BM25, ``ts_rank_cd`` has no IDF (two common words side by side can outrank the rare
    word alone), so the budget changes the list: the messages holding a rare word, with the very
    scores every word gives them when nothing is left out."""
    query = "zanzibar coffee meeting run"
    unbounded = lexical.scores(query, replace(LEXICAL, lexical_budget=0), "", [])
    pg_index.config = replace(LEXICAL, lexical_budget=20)
    bounded = lexical.scores(query, pg_index.config, "", [])
    assert len(bounded) == 11 < len(unbounded)  # 9 zanzibar + 3 running (m0 has both), not ~all 300
    assert bounded == {seq: unbounded[seq] for seq in bounded}
    capped = search_ids(pg_index, pg_index.config, query)
    texts = {h.id: set(h.text.split()) for h in pg_index.get(capped)}
    assert len(capped) == 10 and all({"zanzibar", "running"} & words for words in texts.values())


def test_postgres_budget_keeps_the_relevant_message_first_in_a_crowd(
    pg_index: PostgresIndex, lexical: TsLexical
) -> None:
    """The default fusion, a budget far below the matches: the one message holding the rare word
    and the common ones still comes first, although ~all 300 messages match a common word."""
    pg_index.add([record("needle", "zanzibar coffee meeting project update filler7", session="s99")])
    pg_index.config = replace(SearchConfig(), lexical_budget=20)
    hits = pg_index.search("coffee meeting in zanzibar, what was the project update?", top_k=5)
    assert hits[0].id == "needle" and 0.0 < hits[0].similarity <= 1.0
    assert len(lexical.scores("coffee meeting zanzibar project update", pg_index.config, "", [])) <= 20


def test_postgres_only_common_words_rank_the_newest_matches(pg_index: PostgresIndex, lexical: TsLexical) -> None:
    pg_index.config = replace(LEXICAL, lexical_budget=20)
    assert lexical.split(["coffee", "meeting"], 20)[2] == 20
    hits = search_ids(pg_index, pg_index.config, "coffee meeting", k=5)
    texts = {h.id: h.text.split() for h in pg_index.get([f"m{i}" for i in range(300)])}
    matching = [f"m{i}" for i in range(300) if {"coffee", "meeting"} & set(texts[f"m{i}"])]
    assert len(hits) == 5 and set(hits) <= set(matching[-20:])
