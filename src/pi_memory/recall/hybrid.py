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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from pi_memory.recall.fusion import SearchConfig, fuse
from pi_memory.recall.rerank import Candidate, rerank, reranks
from pi_memory.recall.types import clip_similarity
from pi_memory.recall.vectors import query_direction

__all__ = ["Ranked", "VectorCache", "fuse_candidates", "rank", "second_stage"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float32]


@dataclass
class VectorCache:
    """Rows in ascending ``seq`` (insertion) order: seq numbers, session codes and unit vectors.

    The vectors are stored dimension-major (one ``dimension × capacity`` buffer, the rows as its
    columns): BLAS's matrix-vector product over that layout is about twice as fast as over the
    row-major matrix (8 vs 16 ms at 100k × 256 here), and the buffer grows by half its size so
    appends stay cheap.
    """

    dimension: int
    seqs: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    sessions: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    _columns: FloatArray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    authors: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """Each row's author (:func:`~pi_memory.recall.rerank.author_of`) as an index into
    :attr:`author_names`; -1 when the message names none."""
    days: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """Each row's day (:func:`~pi_memory.recall.rerank.day_of`; 0 unknown)."""
    asks: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))
    """Whether each row asks a question (:func:`~pi_memory.recall.rerank.asks`)."""
    damaged: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """Positions of rows whose stored vector was damaged (:func:`~pi_memory.recall.vectors.decode`):
    held as zeros, never a dense candidate; the lexical half still finds them."""
    author_names: list[str] = field(default_factory=list)
    _session_codes: dict[str, int] = field(default_factory=dict)
    _author_codes: dict[str, int] = field(default_factory=dict)
    _prev: IntArray | None = None
    _next: IntArray | None = None

    def __post_init__(self) -> None:
        if self._columns.shape[0] != self.dimension:
            self._columns = np.zeros((self.dimension, 0), dtype=np.float32)

    def __len__(self) -> int:
        return int(self.seqs.shape[0])

    @property
    def matrix(self) -> FloatArray:
        """The unit vectors as rows (``len × dimension``; a view, not a copy)."""
        view: FloatArray = self._columns[:, : len(self)].T
        return view

    def scores(self, query_vector: FloatArray) -> FloatArray:
        """Cosine of ``query_vector`` (a unit vector) with every row."""
        out: FloatArray = query_vector.astype(np.float32) @ self._columns[:, : len(self)]
        return out

    @property
    def last_seq(self) -> int:
        return int(self.seqs[-1]) if len(self) else 0

    def append(
        self,
        seqs: list[int],
        sessions: list[str],
        vectors: FloatArray,
        authors: Sequence[str | None] | None = None,
        days: Sequence[int] | None = None,
        asks: Sequence[bool] | None = None,
        damaged: npt.NDArray[np.bool_] | None = None,
    ) -> None:
        """Add rows whose seqs are all above :attr:`last_seq` (callers load ``seq > last_seq``);
        ``authors``, ``days`` and ``asks`` are what the second stage reads (none known when omitted),
        ``damaged`` marks rows whose vector is unusable (their ``vectors`` rows should be zeros)."""
        if not seqs:
            return
        size, extra = len(self), len(seqs)
        if size + extra > self._columns.shape[1]:
            grown = np.zeros((self.dimension, max(size + extra, size + size // 2, 1024)), dtype=np.float32)
            grown[:, :size] = self._columns[:, :size]
            self._columns = grown
        self._columns[:, size : size + extra] = vectors.astype(np.float32, copy=False).T
        codes = [self._session_codes.setdefault(s, len(self._session_codes)) for s in sessions]
        author_codes = [-1 if a is None else self._author_code(a) for a in authors or [None] * extra]
        self.seqs = np.concatenate([self.seqs, np.asarray(seqs, dtype=np.int64)])
        self.sessions = np.concatenate([self.sessions, np.asarray(codes, dtype=np.int64)])
        self.authors = np.concatenate([self.authors, np.asarray(author_codes, dtype=np.int64)])
        self.days = np.concatenate([self.days, np.asarray(days or [0] * extra, dtype=np.int64)])
        self.asks = np.concatenate([self.asks, np.asarray(asks or [False] * extra, dtype=bool)])
        if damaged is not None and damaged.any():
            self.damaged = np.concatenate([self.damaged, size + np.flatnonzero(damaged)])
        self._prev = self._next = None

    def _author_code(self, author: str) -> int:
        code = self._author_codes.get(author)
        if code is None:
            code = self._author_codes[author] = len(self.author_names)
            self.author_names.append(author)
        return code

    def author(self, position: int) -> str | None:
        code = int(self.authors[position])
        return None if code < 0 else self.author_names[code]

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


def _top(scores: FloatArray, allowed: npt.NDArray[np.bool_] | None, n: int) -> dict[int, float]:
    """The ``n`` best rows of a full score array (rows outside ``allowed``, or scored ``-inf``, never count)."""
    available = len(scores)
    if allowed is not None:
        scores = np.where(allowed, scores, -np.inf).astype(np.float32)
        available = int(allowed.sum())
    n = min(n, available)
    if n <= 0:
        return {}
    best = np.argpartition(scores, len(scores) - n)[len(scores) - n :]
    return {int(i): float(scores[i]) for i in best if scores[i] > -np.inf}


def _smooth_sparse(cache: VectorCache, lexical: Mapping[int, float], weight: float) -> tuple[IntArray, FloatArray]:
    """:meth:`VectorCache.smooth` for scores that are zero except at a few positions: only those
    positions and their neighbours are computed (a few hundred, not the whole index)."""
    keys = np.fromiter(lexical.keys(), dtype=np.int64, count=len(lexical))
    values = np.fromiter(lexical.values(), dtype=np.float32, count=len(lexical))
    if weight == 0 or not len(keys):
        return keys, values
    prev, nxt = cache.neighbours()
    support = np.unique(np.concatenate([keys, prev[keys], nxt[keys]]))
    support = support[support >= 0]
    order = np.argsort(keys)
    sorted_keys, sorted_values = keys[order], values[order]

    def score_at(positions: IntArray) -> FloatArray:
        found = np.minimum(np.searchsorted(sorted_keys, positions), len(sorted_keys) - 1)
        hit = (sorted_keys[found] == positions) & (positions >= 0)
        return np.where(hit, sorted_values[found], np.float32(0)).astype(np.float32)

    smoothed = (score_at(support) + weight * (score_at(prev[support]) + score_at(nxt[support]))).astype(np.float32)
    return support, smoothed


def rank(
    cache: VectorCache,
    query_vector: FloatArray,
    lexical: Mapping[int, float],
    top_k: int,
    config: SearchConfig,
    allowed: npt.NDArray[np.bool_] | None = None,
    dense_positions: IntArray | None = None,
) -> list[Ranked]:
    """Fuse dense scores over the whole cache with lexical scores (position → BM25, higher better).

    ``dense_positions`` restricts the dense half's candidates (an external ANN index proposed
    them); they are still scored exactly, with smoothing, from the cached vectors.
    """
    if not len(cache) or top_k <= 0:
        return []
    direction = query_direction(query_vector)  # None: the dense half has nothing to go on
    cosine = cache.scores(np.zeros(cache.dimension, dtype=np.float32) if direction is None else direction)
    positions, smoothed = _smooth_sparse(cache, lexical, config.neighbour_lexical)
    keep = smoothed > 0
    if allowed is not None:
        keep &= allowed[positions]
    positions, smoothed = positions[keep], smoothed[keep]
    count = min(config.candidates, len(smoothed))
    best_lexical = np.argpartition(-smoothed, count - 1)[:count] if count else np.zeros(0, dtype=np.int64)
    lexical_top = {int(positions[i]): float(smoothed[i]) for i in best_lexical}
    dense_top = {}
    if config.fusion != "lexical" and direction is not None:
        dense_allowed = allowed
        if dense_positions is not None:
            dense_allowed = np.zeros(len(cache), dtype=bool)
            dense_allowed[dense_positions[dense_positions >= 0]] = True
            if allowed is not None:
                dense_allowed &= allowed
        dense = cache.smooth(cosine, config.neighbour_dense)
        if len(cache.damaged):
            dense = dense.copy() if dense is cosine else dense
            dense[cache.damaged] = -np.inf
        dense_top = _top(dense, dense_allowed, config.candidates)
    fused = fuse(lexical_top, dense_top, config)
    best = sorted(fused, key=lambda p: (-fused[p], p))[:top_k]
    return [Ranked(p, fused[p], clip_similarity(float(cosine[p]))) for p in best]


def second_stage(
    query: str, cache: VectorCache, ranked: Sequence[Ranked], config: SearchConfig, top_k: int
) -> list[Ranked]:
    """:func:`~pi_memory.recall.rerank.rerank` over :func:`rank`'s result (``rerank_depth`` of
    them), read from the cache: no row is fetched to re-rank."""
    if not reranks(config):
        return list(ranked[:top_k])
    prev = cache.neighbours()[0] if config.reply_weight or config.answer_weight else None
    where = {r.position: i for i, r in enumerate(ranked)}
    candidates = [
        Candidate(
            r.score,
            cache.author(r.position),
            int(cache.days[r.position]),
            int(cache.sessions[r.position]),
            where.get(int(prev[r.position])) if prev is not None else None,
            bool(cache.asks[r.position]),
        )
        for r in ranked
    ]
    return [replace(ranked[i], score=score) for i, score in rerank(query, candidates, config, top_k)]


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
