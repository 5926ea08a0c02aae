"""Re-embed an index with another embedder: the way out of an embedder mismatch.

Records are read out first (into memory: text only, a few hundred bytes each), the index is
cleared, and everything is added again with the new embedder. Ids, texts and metadata survive;
access counts restart (the records are new to the new space).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_memory.recall.backfill import FLUSH_STEP
from pi_memory.recall.embedders import get_embedder
from pi_memory.recall.open import open_index
from pi_memory.recall.types import Record

__all__ = ["reindex"]


def reindex(
    url: str,
    embedder: str | None = None,
    batch: int = 512,
    *,
    progress: Callable[[int, int], None] | None = None,
    step: Callable[[str], None] | None = None,
) -> int:
    """Re-embed every record at ``url`` with ``embedder`` (default: the shipped static model).

    ``progress(done, total)`` follows the records after each batch. It ends with the index's
    ``flush`` (announced by ``step(message)``): PostgreSQL builds its HNSW index over the reload
    there, rather than in the first search after it (~30 s at 100k messages).
    """
    target = get_embedder(embedder)
    index: Any = open_index(url, embedder=target)
    try:
        records: list[Record] = [r for chunk in index.iter_records() for r in chunk]
        index.clear()
        for start in range(0, len(records), batch):
            index.add(records[start : start + batch])
            if progress:
                progress(min(start + batch, len(records)), len(records))
        if step:
            step(FLUSH_STEP)
        index.flush()
        return len(records)
    finally:
        index.close()
