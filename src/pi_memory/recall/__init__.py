"""Recall: every past message searchable, hybrid lexical + dense, with time-decay importance.

>>> import tempfile, os
>>> from pi_memory.recall import open_index
>>> index = open_index(os.path.join(tempfile.mkdtemp(), "recall.db"))
>>> index.add([{"id": "m1", "text": "We moved the staging database to Frankfurt", "role": "user",
...             "timestamp": "2025-01-02T10:00:00Z", "session_id": "s1"}])
1
>>> index.search("where is the staging database?", top_k=1)[0].id
'm1'
>>> index.close()

Backends: :class:`SQLiteIndex` (embedded default), PostgreSQL + pgvector (``postgresql://…``)
and a Chroma server (``chroma://host:port``); see ``docs/recall.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_memory._lazy import lazy_package

if TYPE_CHECKING:  # imported on first use (pi_memory._lazy)
    from pi_memory.recall.decay import DEFAULT_DECAY_RATE, importance
    from pi_memory.recall.embedders import Embedder, StaticEmbedder, get_embedder
    from pi_memory.recall.fusion import SearchConfig
    from pi_memory.recall.open import default_index_path, open_index
    from pi_memory.recall.safety import guard_hit, guard_hits
    from pi_memory.recall.service import ImportantMemory, RecallService
    from pi_memory.recall.sqlite_index import DenseMirror, SQLiteIndex
    from pi_memory.recall.types import (
        AccessStat,
        EmbedderMismatchError,
        Filters,
        Hit,
        IndexUnavailableError,
        RecallError,
        RecallIndex,
        Record,
    )

__all__ = [
    "DEFAULT_DECAY_RATE",
    "AccessStat",
    "DenseMirror",
    "Embedder",
    "EmbedderMismatchError",
    "Filters",
    "Hit",
    "ImportantMemory",
    "IndexUnavailableError",
    "RecallError",
    "RecallIndex",
    "RecallService",
    "Record",
    "SQLiteIndex",
    "SearchConfig",
    "StaticEmbedder",
    "default_index_path",
    "get_embedder",
    "guard_hit",
    "guard_hits",
    "importance",
    "open_index",
]

lazy_package(__name__)
