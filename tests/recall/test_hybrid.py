"""``hybrid``: the in-process search core, exact cosines over cached vectors fused with BM25 scores."""

from __future__ import annotations

import numpy as np

from pi_memory.recall.embedders import normalize_rows
from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.hybrid import VectorCache, rank

VECTORS = normalize_rows(np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.7, 0.7, 0.0], [0.0, 0.0, 1.0]]))


def _cache() -> VectorCache:
    cache = VectorCache(dimension=3)
    cache.append([1, 2], ["s1", "s2"], VECTORS[:2], authors=["Ana", None], days=[10, 0])
    cache.append([5, 8], ["s1", "s2"], VECTORS[2:])
    return cache


def test_rows_append_in_seq_order_and_keep_their_sessions_authors_and_days() -> None:
    cache = _cache()
    assert len(cache) == 4 and cache.last_seq == 8
    assert np.allclose(cache.matrix, VECTORS)
    assert cache.author(0) == "Ana" and cache.author(1) is None and cache.author(2) is None
    assert list(cache.days) == [10, 0, 0, 0]
    assert list(cache.positions(np.array([5, 3, 1]))) == [2, -1, 0]
    assert VectorCache(dimension=3).last_seq == 0


def test_neighbours_and_smoothing_follow_each_session() -> None:
    cache = _cache()
    prev, nxt = cache.neighbours()
    assert list(prev) == [-1, -1, 0, 1] and list(nxt) == [2, 3, -1, -1]
    scores = np.array([1.0, 0.0, 0.0, 0.0], dtype=np.float32)
    assert list(cache.smooth(scores, 0.5)) == [1.0, 0.0, 0.5, 0.0]
    assert cache.smooth(scores, 0.0) is scores


def test_rank_fuses_exact_cosines_with_lexical_scores() -> None:
    cache = _cache()
    query = VECTORS[0]
    plain = SearchConfig(neighbour_lexical=0.0, neighbour_dense=0.0)
    dense_only = rank(cache, query, {}, top_k=3, config=SearchConfig(fusion="dense", neighbour_dense=0.0))
    assert [r.position for r in dense_only] == [0, 2, 1]
    assert [round(r.similarity, 3) for r in dense_only] == [1.0, 0.707, 0.0]
    # a strong BM25 score lifts a message the query vector is far from
    lifted = rank(cache, query, {3: 9.0, 1: 0.1, 2: 0.1}, top_k=2, config=plain)
    assert [r.position for r in lifted] == [3, 0]
    # a filter keeps the others out of both halves
    allowed = np.array([False, True, False, True])
    assert {r.position for r in rank(cache, query, {3: 9.0}, top_k=4, config=plain, allowed=allowed)} <= {1, 3}
    assert rank(VectorCache(dimension=3), query, {}, top_k=3, config=plain) == []
