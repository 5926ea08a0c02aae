"""Re-embed an index with another embedder: the way out of an embedder mismatch.

Records are read out first (into memory: text only, a few hundred bytes each), the index is
cleared, and everything is added again with the new embedder. Ids, texts and metadata survive;
access counts restart (the records are new to the new space).
"""

from __future__ import annotations

from typing import Any

from pi_memory.recall.embedders import get_embedder
from pi_memory.recall.open import open_index
from pi_memory.recall.types import Record

__all__ = ["reindex"]


def reindex(url: str, embedder: str | None = None, batch: int = 512) -> int:
    """Re-embed every record at ``url`` with ``embedder`` (default: the shipped static model)."""
    target = get_embedder(embedder)
    index: Any = open_index(url, embedder=target)
    try:
        records: list[Record] = [r for chunk in index.iter_records() for r in chunk]
        index.clear()
        for start in range(0, len(records), batch):
            index.add(records[start : start + batch])
        return len(records)
    finally:
        index.close()
