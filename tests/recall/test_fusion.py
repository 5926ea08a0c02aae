"""``fusion``: lexical and dense candidates merged into one ranking."""

from __future__ import annotations

import pytest

from pi_memory.recall.fusion import SearchConfig, fuse, rrf


def test_rrf_sums_weighted_reciprocal_ranks() -> None:
    fused = rrf([["a", "b"], ["b", "c"]], k=60)
    assert fused == pytest.approx({"a": 1 / 61, "b": 1 / 62 + 1 / 61, "c": 1 / 62})
    assert rrf([["a"], ["a"]], k=0, weights=[1.0, 0.0]) == {"a": 1.0}


def test_single_retriever_fusions_pass_their_scores_through() -> None:
    lexical, dense = {"a": 5.0, "b": 1.0}, {"b": 0.9}
    assert fuse(lexical, dense, SearchConfig(fusion="lexical")) == lexical
    assert fuse(lexical, dense, SearchConfig(fusion="dense")) == dense
    assert fuse(lexical, dense, SearchConfig(fusion="rrf")) == rrf([["a", "b"], ["b"]], 60)


def test_scaled_fusion_weighs_how_far_a_score_stands_out() -> None:
    # "a" leads BM25 by far, "b" is a coin-toss dense first place: the lexical lead wins
    lexical = {"a": 10.0, "b": 1.0, "c": 1.0}
    dense = {"b": 0.31, "a": 0.30, "c": 0.30}
    fused = fuse(lexical, dense, SearchConfig())
    assert max(fused, key=fused.__getitem__) == "a"
    assert fused["a"] == pytest.approx(1.0) and fused["c"] == pytest.approx(0.0)
    # with RRF ranks only, the dense first place ties the lexical one
    ranks = fuse(lexical, dense, SearchConfig(fusion="rrf"))
    assert ranks["a"] == pytest.approx(ranks["b"])


def test_an_unknown_fusion_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown fusion 'max'"):
        fuse({"a": 1.0}, {}, SearchConfig(fusion="max"))
