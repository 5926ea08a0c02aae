"""The SQLite lexical half (:mod:`pi_memory.recall.sqlite_lexical`) and its budget: rare words are
scored over all their matches, common words only where a rare word is (same top list as scoring
every word), and a query of only common words scores the newest matches. A tiny budget on a small
index makes every path run."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

from pi_memory.recall import SQLiteIndex
from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.sqlite_lexical import FtsLexical

from .conftest import HashEmbedder, record

LEXICAL = SearchConfig(fusion="lexical", neighbour_lexical=0.0, neighbour_dense=0.0, author_weight=0.0,
                       date_weight=0.0, session_weight=0.0, answer_weight=0.0)
"""BM25 alone: no smoothing, no second stage (which would lift a session's other turns)."""
COMMON = ["coffee", "meeting", "today", "project", "update"]


def budget_rows() -> list[dict[str, object]]:
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
    index.add(budget_rows())
    return index


def _lexical(tmp_path: Path) -> FtsLexical:
    """The lexical half over the index file, on a connection of its own."""
    return FtsLexical(sqlite3.connect(tmp_path / "budget.db"))


def search_ids(index: Any, config: SearchConfig, query: str, k: int = 10) -> list[str]:
    index.config = config
    return [h.id for h in index.search(query, top_k=k)]


def test_rare_words_keep_the_exact_top_list(tmp_path: Path) -> None:
    with _index(tmp_path) as index:
        frequencies = _lexical(tmp_path).document_frequencies(["zanzibar", "runs", "coffee", "absent"])
        assert frequencies["zanzibar"] == 9 and frequencies["runs"] == 3  # porter: runs, running → run
        assert frequencies["coffee"] > 100 and frequencies["absent"] == 0
        everything = search_ids(index, replace(LEXICAL, lexical_budget=0), "zanzibar coffee meeting run")
        capped = search_ids(index, replace(LEXICAL, lexical_budget=20), "zanzibar coffee meeting run")
        assert capped == everything and len(everything) == 10
        rare, common, window = _lexical(tmp_path).split(["zanzibar", "coffee", "meeting", "run"], index.count(), 20)
        assert (rare, sorted(common), window) == (["run", "zanzibar"], ["coffee", "meeting"], 0)  # rarest first


def test_only_common_words_score_the_newest_matches(tmp_path: Path) -> None:
    with _index(tmp_path) as index:
        rare, common, window = _lexical(tmp_path).split(["coffee", "meeting"], index.count(), 20)
        assert (rare, sorted(common), window) == ([], ["coffee", "meeting"], 20)
        hits = search_ids(index, replace(LEXICAL, lexical_budget=20), "coffee meeting", k=5)
        texts = {h.id: h.text.split() for h in index.get([f"m{i}" for i in range(300)])}
        matching = [f"m{i}" for i in range(300) if {"coffee", "meeting"} & set(texts[f"m{i}"])]
        assert len(hits) == 5 and set(hits) <= set(matching[-20:])


def test_the_budget_does_not_apply_to_small_indexes(tmp_path: Path) -> None:
    with _index(tmp_path) as index:  # the default budget: 300 messages × 2 words fit
        split = _lexical(tmp_path).split(["coffee", "zanzibar"], index.count(), SearchConfig().lexical_budget)
        assert split == (["coffee", "zanzibar"], [], 0)


def test_two_words_with_one_stem_count_once(tmp_path: Path) -> None:
    """BM25 sums over the query's phrases: "runs" and "running" (both ``run``) used to count the
    stem twice, where PostgreSQL counts it once; now the later word is dropped, no match lost."""
    with _index(tmp_path) as index:
        lexical = _lexical(tmp_path)
        once = lexical.scores("zanzibar running", LEXICAL, index.count(), "", [])
        assert lexical.scores("zanzibar running runs", LEXICAL, index.count(), "", []) == once
        assert len(once) == 11  # 9 zanzibar + 3 running, one message holding both
        kept = lexical.distinct_stems(["runs", "zanzibar", "running", "run", "coffee"])
        assert kept == ["runs", "zanzibar", "coffee"]


def rare_word_rows() -> list[dict[str, object]]:
    """One message holding the question's rarest word; one holding two of its middling words
    (each in 12 of 300 messages: common enough not to count as rare); fillers."""
    rows = [record("rare", "Yesterday at the shelter I met Jean, she had been through a lot.", session="a"),
            record("middling", "Maria said the meeting went well.", session="b")]
    rows += [record(f"m{i}", f"Maria likes the garden, part {i} of a long story about plants and seeds.",
                    session=f"m{i}") for i in range(11)]
    rows += [record(f"n{i}", f"The meeting notes, part {i} of a long story about plants and seeds.",
                    session=f"n{i}") for i in range(11)]
    return rows + [record(f"f{i}", f"Filler message number {i} about the garden.", session=f"f{i}") for i in range(276)]


def test_the_rarest_word_outweighs_two_middling_ones(tmp_path: Path) -> None:
    """BM25 adds the words' weights, so two middling words beat the one word that singles the
    message out; counted twice, the rare word (in at most 10 messages) wins."""
    with SQLiteIndex(tmp_path / "rare.db", embedder=HashEmbedder()) as index:
        index.add(rare_word_rows())
        query = "When did Maria meet Jean at the meeting?"
        assert search_ids(index, replace(LEXICAL, rare_weight=1), query, k=2) == ["middling", "rare"]
        assert search_ids(index, LEXICAL, query, k=1) == ["rare"]
