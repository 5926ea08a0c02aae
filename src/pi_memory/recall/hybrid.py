"""The search core shared by backends that keep vectors in process: exact dense scores with numpy,
neighbour smoothing, fusion.

Why exact search: a conversation history is at most a few hundred thousand messages; a float32
matrix product over 100k × 256 takes a few milliseconds, and an approximate index would trade
recall (a cliff at small k) for speed we do not need.

Why neighbour smoothing: in a conversation the answer to "when did X happen?" is often split
between a turn and its neighbour ("Did you go?" / "Yes, last Friday!"). Adding a share of the
previous and next turns' scores to each message's own lets either half lift the pair; it is done
at query time over the session order, so a turn that arrives later improves its predecessor
without re-indexing anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from pi_memory.recall.fusion import SearchConfig, fuse

__all__ = ["Ranked", "VectorCache", "fuse_candidates", "rank"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float32]


@dataclass
class VectorCache:
    """Rows in ascending ``seq`` (insertion) order: seq numbers, session codes and unit vectors."""

    dimension: int
    seqs: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    sessions: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    matrix: FloatArray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    _session_codes: dict[str, int] = field(default_factory=dict)
    _prev: IntArray | None = None
    _next: IntArray | None = None

    def __post_init__(self) -> None:
        if self.matrix.shape[1] != self.dimension:
            self.matrix = np.zeros((0, self.dimension), dtype=np.float32)

    def __len__(self) -> int:
        return int(self.seqs.shape[0])

    @property
    def last_seq(self) -> int:
        return int(self.seqs[-1]) if len(self) else 0

    def append(self, seqs: list[int], sessions: list[str], vectors: FloatArray) -> None:
        """Add rows whose seqs are all above :attr:`last_seq` (callers load ``seq > last_seq``)."""
        if not seqs:
            return
        codes = [self._session_codes.setdefault(s, len(self._session_codes)) for s in sessions]
        self.seqs = np.concatenate([self.seqs, np.asarray(seqs, dtype=np.int64)])
        self.sessions = np.concatenate([self.sessions, np.asarray(codes, dtype=np.int64)])
        self.matrix = np.concatenate([self.matrix, vectors.astype(np.float32, copy=False)])
        self._prev = self._next = None

    def positions(self, seqs: IntArray) -> IntArray:
        """Row positions of ``seqs``; -1 for seqs not (yet) in the cache."""
        found = np.searchsorted(self.seqs, seqs)
        found = np.minimum(found, max(len(self) - 1, 0))
        ok = (self.seqs[found] == seqs) if len(self) else np.zeros(len(seqs), dtype=bool)
        return np.where(ok, found, -1)

    def neighbours(self) -> tuple[IntArray, IntArray]:
        """Position of the previous / next row of the same session (-1 when none)."""
        if self._prev is None or self._next is None:
            n = len(self)
            order = np.lexsort((self.seqs, self.sessions))
            same = self.sessions[order[1:]] == self.sessions[order[:-1]]
            prev = np.full(n, -1, dtype=np.int64)
            nxt = np.full(n, -1, dtype=np.int64)
            prev[order[1:][same]] = order[:-1][same]
            nxt[order[:-1][same]] = order[1:][same]
            self._prev, self._next = prev, nxt
        return self._prev, self._next

    def smooth(self, scores: FloatArray, weight: float) -> FloatArray:
        """``score + weight · (score(prev) + score(next))`` over the session order."""
        if weight == 0 or not len(self):
            return scores
        prev, nxt = self.neighbours()
        padded = np.append(scores, np.float32(0))  # index -1 reads the 0 pad
        return (scores + weight * (padded[prev] + padded[nxt])).astype(np.float32)


@dataclass(frozen=True)
class Ranked:
    """A fused result: row position, fused score, raw cosine of the message itself."""

    position: int
    score: float
    similarity: float


def _top(scores: FloatArray, allowed: npt.NDArray[np.bool_] | None, n: int, positive: bool) -> dict[int, float]:
    masked = scores if allowed is None else np.where(allowed, scores, -np.inf)
    if positive:
        masked = np.where(masked > 0, masked, -np.inf)
    n = min(n, int(np.isfinite(masked).sum()))
    if n <= 0:
        return {}
    best = np.argpartition(-masked, n - 1)[:n]
    return {int(i): float(masked[i]) for i in best}


def rank(
    cache: VectorCache,
    query_vector: FloatArray,
    lexical: Mapping[int, float],
    top_k: int,
    config: SearchConfig,
    allowed: npt.NDArray[np.bool_] | None = None,
) -> list[Ranked]:
    """Fuse dense scores over the whole cache with lexical scores (position → BM25, higher better)."""
    if not len(cache) or top_k <= 0:
        return []
    cosine = (cache.matrix @ query_vector.astype(np.float32)).astype(np.float32)
    dense = cache.smooth(cosine, config.neighbour_dense)
    lexical_scores = np.zeros(len(cache), dtype=np.float32)
    if lexical:
        keys = np.fromiter(lexical.keys(), dtype=np.int64, count=len(lexical))
        lexical_scores[keys] = np.fromiter(lexical.values(), dtype=np.float32, count=len(lexical))
    lexical_smoothed = cache.smooth(lexical_scores, config.neighbour_lexical)
    lexical_top = _top(lexical_smoothed, allowed, config.candidates, positive=True)
    dense_top = {} if config.fusion == "lexical" else _top(dense, allowed, config.candidates, positive=False)
    fused = fuse(lexical_top, dense_top, config)
    best = sorted(fused, key=lambda p: (-fused[p], p))[:top_k]
    return [Ranked(p, fused[p], max(0.0, min(1.0, float(cosine[p])))) for p in best]


def _smooth_dict(
    scores: Mapping[int, float], neighbours: Mapping[int, tuple[int | None, int | None]], weight: float
) -> dict[int, float]:
    """:meth:`VectorCache.smooth` for backends that only know some rows' scores (missing = 0)."""
    if weight == 0:
        return dict(scores)
    smoothed = {}
    for doc, (prev, nxt) in neighbours.items():
        around = scores.get(prev, 0.0) if prev is not None else 0.0
        around += scores.get(nxt, 0.0) if nxt is not None else 0.0
        smoothed[doc] = scores.get(doc, 0.0) + weight * around
    for doc, value in scores.items():
        smoothed.setdefault(doc, value)
    return smoothed


def fuse_candidates(
    lexical: Mapping[int, float],
    dense: Mapping[int, float],
    cosines: Mapping[int, float],
    neighbours: Mapping[int, tuple[int | None, int | None]],
    top_k: int,
    config: SearchConfig,
) -> list[tuple[int, float]]:
    """The same ranking as :func:`rank` from candidate lists (server-side backends).

    ``cosines`` holds the exact cosine of every candidate and of its neighbours.
    """
    lexical_smoothed = _smooth_dict(lexical, neighbours, config.neighbour_lexical)
    lexical_top = dict(sorted(((d, s) for d, s in lexical_smoothed.items() if s > 0), key=lambda x: -x[1]))
    lexical_top = dict(list(lexical_top.items())[: config.candidates])
    dense_smoothed = _smooth_dict(cosines, neighbours, config.neighbour_dense)
    dense_top = {d: dense_smoothed[d] for d in dense if d in dense_smoothed}
    fused = fuse(lexical_top, dense_top, config)
    best = sorted(fused, key=lambda d: (-fused[d], d))[:top_k]
    return [(d, fused[d]) for d in best]
