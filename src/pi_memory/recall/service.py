"""``RecallService``: what the recall and decay extensions sit on, so they stay thin.

* ``index_messages`` only appends to a queue; a background thread embeds and writes when 10
  records are waiting or the oldest has waited 5 s, and on ``flush``/``close``. An agent turn
  therefore never waits on embedding or on a busy database.
* ``search`` returns hits already passed through the threat scanner (``guard=True``) and records
  the access, so decay weights change with use.
* ``important_memories`` ranks by the decay weight of :mod:`pi_memory.recall.decay`.

A failed write (database locked past its timeout, an embedding server down) keeps the batch
queued and retries on the next trigger; ``last_error`` says what went wrong.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pi_memory.recall.decay import DEFAULT_DECAY_RATE, age_hours, importance
from pi_memory.recall.safety import guard_hits
from pi_memory.recall.types import Filters, Hit, RecallIndex, Record, normalize_record

__all__ = ["RANKS", "RECENCY_HALF_LIFE_HOURS", "ImportantMemory", "RecallService"]

RANKS = ("relevance", "recency", "importance")
RECENCY_HALF_LIFE_HOURS = 30 * 24.0
"""``rank="recency"``: a message a month old counts half as much as one from today."""
MAX_QUEUE = 10_000
"""Records kept while writes keep failing; beyond this the oldest are dropped (and counted)."""


@dataclass(frozen=True)
class ImportantMemory:
    """A record with its current decay weight (``get_important_memories``)."""

    id: str
    text: str
    weight: float
    access_count: int
    last_access: str | None
    timestamp: str
    role: str
    session_id: str
    blocked: tuple[str, ...] = ()
    """Threat patterns that replaced ``text`` with a placeholder (empty when clean)."""

    def to_json(self) -> dict[str, Any]:
        out = {
            "id": self.id,
            "text": self.text,
            "weight": round(self.weight, 4),
            "accessCount": self.access_count,
            "lastAccess": self.last_access,
            "timestamp": self.timestamp,
            "role": self.role,
            "sessionId": self.session_id,
        }
        if self.blocked:
            out["blocked"] = list(self.blocked)
        return out


class RecallService:
    """Batched, non-blocking indexing plus guarded search over one :class:`RecallIndex`."""

    def __init__(
        self,
        index: RecallIndex,
        *,
        batch_size: int = 10,
        flush_interval: float = 5.0,
        decay_rate: float = DEFAULT_DECAY_RATE,
        on_error: Callable[[BaseException], None] | None = None,
    ) -> None:
        self.index = index
        self.batch_size = batch_size
        self.flush_interval = flush_interval
        self.decay_rate = decay_rate
        self.last_error: BaseException | None = None
        self.dropped = 0
        self._on_error = on_error
        self._pending: list[Record] = []
        self._oldest: float | None = None
        self._written = 0  # records taken out of the queue and written
        self._queued = 0  # records ever queued
        self._cond = threading.Condition()
        self._closing = False
        self._worker = threading.Thread(target=self._run, name="recall-indexer", daemon=True)
        self._worker.start()

    # ------------------------------------------------------------------ indexing

    def index_messages(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Queue records for indexing; returns at once. Invalid records raise here, not later."""
        batch = [normalize_record(r) for r in records]
        if not batch:
            return
        with self._cond:
            if self._closing:
                raise RuntimeError("RecallService is closed")
            self._pending.extend(batch)
            self._queued += len(batch)
            if len(self._pending) > MAX_QUEUE:
                overflow = len(self._pending) - MAX_QUEUE
                del self._pending[:overflow]
                self.dropped += overflow
                self._written += overflow
            if self._oldest is None:
                self._oldest = time.monotonic()
            self._cond.notify_all()

    def _due(self) -> bool:
        if not self._pending:
            return False
        if self._closing or len(self._pending) >= self.batch_size or self._flush_wanted:
            return True
        return self._oldest is not None and time.monotonic() - self._oldest >= self.flush_interval

    _flush_wanted = False

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._due():
                    if self._closing and not self._pending:
                        return
                    timeout = None
                    if self._oldest is not None:
                        timeout = max(0.0, self.flush_interval - (time.monotonic() - self._oldest))
                    self._cond.wait(timeout)
                batch = list(self._pending)
            try:
                self.index.add(batch)
            except Exception as exc:  # keep the batch; retry on the next trigger
                self.last_error = exc
                if self._on_error is not None:
                    self._on_error(exc)
                with self._cond:
                    self._oldest = time.monotonic()
                    self._flush_wanted = False
                    self._cond.notify_all()
                    if self._closing:
                        return
                    self._cond.wait(min(self.flush_interval, 1.0))
                continue
            with self._cond:
                del self._pending[: len(batch)]
                self._written += len(batch)
                self._oldest = time.monotonic() if self._pending else None
                self._flush_wanted = False
                self._cond.notify_all()

    def flush(self, timeout: float | None = 30.0) -> bool:
        """Write everything queued so far; True when done within ``timeout``."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            target = self._queued
            self._flush_wanted = True
            self._cond.notify_all()
            while self._written < target:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._cond.wait(remaining)
        self.index.flush()
        return True

    @property
    def pending(self) -> int:
        with self._cond:
            return len(self._pending)

    # ------------------------------------------------------------------ searching and decay

    def search(
        self,
        query: str,
        top_k: int = 5,
        filters: Filters | None = None,
        *,
        rank: str = "relevance",
        guard: bool = True,
        track_access: bool = True,
    ) -> list[Hit]:
        """Hits for a model: guarded, access recorded.

        ``rank="relevance"`` is the index's own order. The blends re-order the best ``4 · top_k``
        by the relevance score (scaled so the best is 1) times a factor: ``recency`` halves every
        :data:`RECENCY_HALF_LIFE_HOURS`; ``importance`` is the decay weight (age and use).
        """
        if rank not in RANKS:
            raise ValueError(f"rank must be one of {RANKS}, got {rank!r}")
        if rank == "relevance":
            hits = self.index.search(query, top_k=top_k, filters=filters)
        else:
            candidates = self.index.search(query, top_k=top_k * 4, filters=filters)
            hits = self._blend(candidates, rank)[:top_k]
        if track_access and hits:
            self.record_access([h.id for h in hits])
        return guard_hits(hits) if guard else hits

    def _blend(self, candidates: list[Hit], rank: str) -> list[Hit]:
        best = max((h.score for h in candidates), default=1.0) or 1.0
        if rank == "recency":
            now = datetime.now(UTC)

            def factor(hit: Hit) -> float:
                return float(0.5 ** (age_hours(hit.timestamp, now) / RECENCY_HALF_LIFE_HOURS))
        else:
            stats = {s.id: s for s in self.index.access_stats([h.id for h in candidates])}

            def factor(hit: Hit) -> float:
                stat = stats.get(hit.id)
                return importance(hit.timestamp, stat.access_count if stat else 0, rate=self.decay_rate)

        return sorted(candidates, key=lambda hit: (hit.score / best) * factor(hit), reverse=True)

    def record_access(self, ids: list[str]) -> None:
        self.index.record_access(ids)

    def importance(self, timestamp: str, access_count: int, now: datetime | None = None) -> float:
        return importance(timestamp, access_count, rate=self.decay_rate, now=now)

    def important_memories(
        self,
        threshold: float = 0.7,
        limit: int = 10,
        *,
        now: datetime | None = None,
        guard: bool = True,
        rate: float | None = None,
    ) -> list[ImportantMemory]:
        """Records whose decay weight is at least ``threshold``, heaviest first (``rate`` per hour
        overrides the service's decay rate for this call)."""
        decay = self.decay_rate if rate is None else rate
        current = now or datetime.now(UTC)
        weighted = [
            (importance(s.timestamp, s.access_count, rate=decay, now=current), s) for s in self.index.access_stats()
        ]
        chosen = sorted((w for w in weighted if w[0] >= threshold), key=lambda w: -w[0])[:limit]
        hits = {h.id: h for h in self.index.get([s.id for _, s in chosen])}
        if guard:
            hits = {h.id: h for h in guard_hits(hits.values())}
        return [
            ImportantMemory(
                id=s.id,
                text=hits[s.id].text,
                weight=w,
                access_count=s.access_count,
                last_access=s.last_access,
                timestamp=s.timestamp,
                role=hits[s.id].role,
                session_id=hits[s.id].session_id,
                blocked=tuple(hits[s.id].metadata.get("blocked") or ()),
            )
            for w, s in chosen
            if s.id in hits
        ]

    # ------------------------------------------------------------------ lifecycle

    def close(self, timeout: float | None = 30.0) -> None:
        """Flush what is queued, stop the worker, close the index."""
        with self._cond:
            if self._closing:
                return
            self._closing = True
            self._cond.notify_all()
        self._worker.join(timeout)
        self.index.close()

    def __enter__(self) -> RecallService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
