"""Merging the lexical and dense candidate lists into one ranking.

Reciprocal-rank fusion (``1 / (k + rank)``) ignores the scores and so cannot tell a confident
first place from a coin toss. The default therefore looks at how far each retriever's score
stands out: scores are scaled within the candidate list (0 = the list's median, 1 = its best), and
the fused score is a weighted sum of both retrievers' scaled scores (optionally plus an RRF term).
The weights live in :class:`SearchConfig` so the benchmark can ablate each piece.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

__all__ = ["SearchConfig", "fuse", "rrf"]


@dataclass(frozen=True)
class SearchConfig:
    """Knobs of the hybrid search (defaults = the measured best on the LoCoMo dev conversations)."""

    fusion: str = "scaled"
    """``scaled`` (score-aware, the default), ``rrf`` (plain reciprocal-rank fusion), ``lexical``
    or ``dense`` (one retriever alone, for the benchmark's baselines)."""
    candidates: int = 100
    """How many candidates each retriever contributes before fusion."""
    rrf_k: int = 60
    lexical_weight: float = 1.0
    dense_weight: float = 0.5
    """The static embedder is the weaker retriever on conversations; it refines, BM25 leads."""
    rrf_weight: float = 0.0
    """Weight of an RRF term inside ``scaled`` fusion (0 = off; measured no better)."""
    stopwords: bool = True
    """Drop English function words from the lexical query."""
    dense_stopwords: bool = False
    """Also drop them from the text the query vector is made of."""
    neighbour_lexical: float = 0.5
    """Share of the previous/next turn's BM25 score added to a message's own (0 = off)."""
    neighbour_dense: float = 0.3
    """Share of the previous/next turn's cosine added to a message's own (0 = off)."""
    rerank_depth: int = 50
    """How many fused candidates the second stage (:mod:`.rerank`) re-orders."""
    author_weight: float = 0.4
    """Share of the best fused score a message gains when the question names its author."""
    date_weight: float = 0.3
    """Share of the best fused score a message gains when it is dated in a period the question names."""
    date_slack_days: int = 7
    """How far either side of a named day, month or year a message still counts as in it."""
    session_weight: float = 0.8
    """Share of its session's best (boosted) score each candidate gains: a session that answers
    the question lifts all its turns, and the turns around the best one come with it."""
    reply_weight: float = 0.0
    """Share of the previous turn's (boosted) score a candidate gains. Measured and off: it
    helped the tuning questions and cost the held-out ones (``bench/results/locomo_recall.json``)."""
    answer_weight: float = 0.2
    """Share of the previous turn's (boosted) score a candidate gains when that turn asks a
    question (holds a ``?``): the turn that matches a question's words is often the one asking
    it ("What gave you the idea?"), the answer is the reply. Unlike the reply lift, a statement
    lends its reply nothing."""
    rare_messages: int = 10
    """A query word held by at most this many messages of the index is a rare one (``rare_weight``)."""
    rare_weight: int = 2
    """How many times BM25 counts a rare query word (1 = like any other): a word few messages
    hold is what singles out the message a question is about, and BM25 alone lets two middling
    words outweigh it."""
    lexical_budget: int = 2_000
    """At most this many postings (documents per term, summed) go into BM25: the query's terms
    are taken rarest first until the next would exceed it (the rarest always counts). BM25 ranks
    every document matching any term of an OR, so one common word costs as much as the rest of
    the search; its weight (IDF) is small anyway. 0 = every term."""


def rrf(rankings: Sequence[Sequence[K]], k: int = 60, weights: Sequence[float] | None = None) -> dict[K, float]:
    """Reciprocal-rank fusion of ranked id lists."""
    fused: dict[K, float] = {}
    for i, ranking in enumerate(rankings):
        weight = 1.0 if weights is None else weights[i]
        for rank, doc in enumerate(ranking):
            fused[doc] = fused.get(doc, 0.0) + weight / (k + rank + 1)
    return fused


def _scaled(scores: Mapping[K, float]) -> dict[K, float]:
    """Best → 1, median → 0, below the median clipped to 0 (higher score = better)."""
    if not scores:
        return {}
    ordered = sorted(scores.values())
    top, median = ordered[-1], ordered[len(ordered) // 2]
    span = top - median
    if span <= 0:
        return {doc: 1.0 for doc in scores}
    return {doc: max(0.0, (s - median) / span) for doc, s in scores.items()}


def fuse(lexical: Mapping[K, float], dense: Mapping[K, float], config: SearchConfig) -> dict[K, float]:
    """Fused score per id; higher is better. Inputs map id → retriever score (higher = better)."""
    if config.fusion == "lexical":
        return dict(lexical)
    if config.fusion == "dense":
        return dict(dense)
    lexical_rank = sorted(lexical, key=lambda d: -lexical[d])
    dense_rank = sorted(dense, key=lambda d: -dense[d])
    if config.fusion == "rrf":
        return rrf([lexical_rank, dense_rank], config.rrf_k)
    if config.fusion != "scaled":
        raise ValueError(f"unknown fusion {config.fusion!r}")
    fused = rrf([lexical_rank, dense_rank], config.rrf_k, [config.rrf_weight, config.rrf_weight])
    for weight, scaled in ((config.lexical_weight, _scaled(lexical)), (config.dense_weight, _scaled(dense))):
        for doc, value in scaled.items():
            fused[doc] = fused.get(doc, 0.0) + weight * value
    return fused
