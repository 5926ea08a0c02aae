"""One :class:`RecallService` per index location per process, shared by the recall and decay
extensions (and by the runtimes that ``/new``, ``/resume`` and ``/reload`` create one after the
other), so both see the same access counts and only one thread writes to the index.

``acquire`` opens the index on first use; ``release`` flushes and closes it when the last user
is gone. Both block (opening loads the embedding table, closing writes the last batch): call
them through ``asyncio.to_thread`` from an event loop.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

from pi_memory.backends import redact
from pi_memory.recall import Embedder, RecallService, open_index

from .settings import RecallSettings

__all__ = ["acquire", "release"]

log = logging.getLogger("pi_memory.recall")


@dataclass
class _Slot:
    service: RecallService
    users: int = 0


_slots: dict[str, _Slot] = {}
_lock = threading.Lock()


def _report(exc: BaseException) -> None:
    log.warning("recall indexing failed (the batch is kept and retried): %s", redact(str(exc)))


def acquire(settings: RecallSettings, embedder: Embedder | None = None) -> RecallService:
    """The shared service for ``settings.location``, opened with these settings if it is the first."""
    key = settings.location
    with _lock:
        slot = _slots.get(key)
        if slot is None:
            index = open_index(key, embedder=embedder if embedder is not None else settings.embedder)
            service = RecallService(index, batch_size=settings.batch_size, flush_interval=settings.flush_interval,
                                    decay_rate=settings.decay_rate, on_error=_report)
            slot = _slots[key] = _Slot(service)
        slot.users += 1
        return slot.service


def release(service: RecallService) -> None:
    """Give a service back; the last user flushes what is queued and closes the index."""
    with _lock:
        key = next((k for k, slot in _slots.items() if slot.service is service), None)
        if key is None:
            return
        slot = _slots[key]
        slot.users -= 1
        if slot.users > 0:
            return
        del _slots[key]
    service.close()
