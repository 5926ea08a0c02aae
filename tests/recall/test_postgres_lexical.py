"""The PostgreSQL lexical half (:mod:`pi_memory.recall.postgres_lexical`): BM25 from the word
statistics the server keeps (:mod:`pi_memory.recall.postgres_terms`), the same function as
SQLite's FTS5, and the lexical budget ranking only the messages that hold a rare word, by every
word."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from pi_memory.recall import SQLiteIndex
from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.postgres_index import PostgresIndex
from pi_memory.recall.postgres_lexical import TsLexical
from pi_memory.recall.sqlite_lexical import FtsLexical

from .conftest import HashEmbedder, record
from .test_sqlite_lexical import COMMON, LEXICAL, budget_rows, rare_word_rows, search_ids

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
    try:
        yield index
    finally:
        index.clear()
        index.close()


def test_postgres_counts_words_exactly_from_its_statistics(lexical: TsLexical) -> None:
    """Counted as the rows were written — no ANALYZE (``flush``) needed, no sample."""
    frequencies = lexical.document_frequencies(["zanzibar", "runs", "coffee", "the", "absent"])
    texts = [r["text"].split() for r in budget_rows()]
    assert frequencies == {"zanzibar": 9, "runs": 3, "coffee": sum("coffee" in t for t in texts), "the": 0,
                           "absent": 0}  # runs → run; a stopword has no lexeme
    assert lexical.split(["zanzibar"], 1_000) == (["zanzibar"], [], 0)  # 300 messages fit: no budget
    rare, common, window = lexical.split(["zanzibar", "coffee", "meeting", "run"], 20)
    assert (rare, sorted(common), window) == (["run", "zanzibar"], ["coffee", "meeting"], 0)  # rarest first


def distinct_word_rows() -> list[dict[str, object]]:
    """:func:`budget_rows`' kind of messages, no word twice in one (where both length measures agree)."""
    rng = random.Random(5)
    rows = []
    for i in range(300):
        words = rng.sample(COMMON, 3) + [f"filler{n}" for n in rng.sample(range(40), 4)]
        words += ["zanzibar"] * (i % 37 == 0) + ["running"] * (i % 101 == 0)
        rows.append(record(f"m{i}", " ".join(words), session=f"s{i // 20}"))
    return rows


def test_postgres_ranks_like_fts5_bm25(pg_url: str, pg_table: str, tmp_path: Path) -> None:
    """Where both parsers see the same words (no stopwords, the same stems, no word twice in a
    message), the scores are FTS5's ``bm25()`` to the float: same k1, b, IDF and length
    normalisation, and two query words with one stem ("runs running") count once on both.
    ``ts_rank_cd``'s were not."""
    import psycopg

    index = PostgresIndex(pg_url, embedder=HashEmbedder(), table=pg_table)
    try:
        with SQLiteIndex(tmp_path / "same.db", embedder=HashEmbedder()) as sqlite, \
                psycopg.connect(pg_url, autocommit=True) as db:
            index.add(distinct_word_rows())
            sqlite.add(distinct_word_rows())
            fts, ts = FtsLexical(sqlite3.connect(tmp_path / "same.db")), TsLexical(db, pg_table)
            queries = ("zanzibar coffee meeting run", "filler3 today", "update project filler12 zanzibar",
                       "runs zanzibar running coffee")
            for query in queries:
                theirs = fts.scores(query, LEXICAL, 300, "", [])
                ours = ts.scores(query, LEXICAL, "", [])  # seq and rowid: both 1… in insertion order
                assert ours.keys() == theirs.keys() and len(ours) > 10
                assert all(ours[k] == pytest.approx(theirs[k], rel=1e-9) for k in ours)
    finally:
        index.clear()
        index.close()


def test_a_rare_word_outweighs_a_common_one(pg_url: str, pg_table: str) -> None:
    """The common word twice (``ts_rank_cd`` counts that double) loses to the rare word once."""
    index = PostgresIndex(pg_url, embedder=HashEmbedder(), table=pg_table)
    try:
        index.add([record("common", "coffee coffee notes", session="a"), record("rare", "zanzibar notes", session="b")]
                  + [record(f"f{i}", f"coffee filler{i}", session=f"c{i}") for i in range(30)])
        assert search_ids(index, LEXICAL, "coffee in zanzibar", k=2) == ["rare", "common"]
    finally:
        index.clear()
        index.close()


def test_a_long_message_ranks_below_a_short_one_with_the_same_match(pg_url: str, pg_table: str) -> None:
    """``ts_rank_cd`` ignores length (a tie, broken for the older, long one); BM25 normalises it."""
    index = PostgresIndex(pg_url, embedder=HashEmbedder(), table=pg_table)
    try:
        long = "zanzibar " + " ".join(f"word{i}" for i in range(40))
        index.add([record("long", long, session="a"), record("short", "zanzibar trip", session="b")]
                  + [record(f"f{i}", f"filler{i} notes", session=f"c{i}") for i in range(10)])
        assert search_ids(index, LEXICAL, "zanzibar", k=2) == ["short", "long"]
    finally:
        index.clear()
        index.close()


def test_postgres_ranks_only_rare_word_matches_by_every_word(pg_index: PostgresIndex, lexical: TsLexical) -> None:
    """The budget leaves out messages holding only common words; the others keep the very scores
    every word gives them when nothing is left out (the statistics are the whole table's)."""
    query = "zanzibar coffee meeting run"
    unbounded = lexical.scores(query, replace(LEXICAL, lexical_budget=0), "", [])
    pg_index.config = replace(LEXICAL, lexical_budget=20)
    bounded = lexical.scores(query, pg_index.config, "", [])
    assert len(bounded) == 11 < len(unbounded)  # 9 zanzibar + 3 running (m0 has both), not ~all 300
    assert bounded == {seq: unbounded[seq] for seq in bounded}
    top = sorted(unbounded, key=lambda s: -unbounded[s])[:10]
    assert set(top) <= set(bounded)  # a rare word lifts a message above every common-only one
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


def test_postgres_counts_the_rarest_word_twice_too(pg_url: str, pg_table: str) -> None:
    """The same rare-word weight as SQLite's (:func:`~pi_memory.recall.text.heavy_words`)."""
    index = PostgresIndex(pg_url, embedder=HashEmbedder(), table=pg_table)
    try:
        index.add(rare_word_rows())
        query = "When did Maria meet Jean at the meeting?"
        assert search_ids(index, replace(LEXICAL, rare_weight=1), query, k=2) == ["middling", "rare"]
        assert search_ids(index, LEXICAL, query, k=1) == ["rare"]
    finally:
        index.clear()
        index.close()


def test_postgres_newest_matches_are_the_same_whether_the_floor_holds_them_or_not(pg_url: str, pg_table: str) -> None:
    """Common words' newest matches come from above a floor estimated from their counts; when
    the matches cluster in old messages the floor holds too few and the older ones fill in."""
    rows = [record(f"r{i}", f"filler{i} " + ("coffee " if i < 25 or 190 <= i < 195 else "")
                   + ("tea" if i >= 150 else "")) for i in range(200)]
    index = PostgresIndex(pg_url, embedder=HashEmbedder(), table=pg_table)
    try:
        index.add(rows)
        config = replace(LEXICAL, lexical_budget=10)
        with index._db.cursor() as cur:
            ids = dict(cur.execute(f"SELECT seq, id FROM {pg_table}").fetchall())
        lexical = TsLexical(index._db, pg_table)
        for word, newest in (("coffee", [*range(20, 25), *range(190, 195)]), ("tea", range(190, 200))):
            assert lexical.split([word], 10)[2] == 10  # every word common: the newest 10 matches
            planned = lexical.statement(word, config, "", [])
            assert planned is not None and "seq >" in planned[0]  # the floor is used
            assert sorted(ids[s] for s in lexical.scores(word, config, "", [])) == sorted(f"r{i}" for i in newest)
    finally:
        index.clear()
        index.close()
