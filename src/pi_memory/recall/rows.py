"""The row both SQL indexes keep a message in, and what is made from one.

SQLite (``sqlite_index``, and ``chroma_index`` through it) and PostgreSQL (``postgres_index``)
select the same columns, :data:`COLUMNS`, so a search hit, a ``get`` and a ``reindex`` batch are
assembled here once. The one difference between the engines is ``metadata``: SQLite stores JSON
text, PostgreSQL a ``jsonb`` that arrives as a dict.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from pi_memory.recall.types import Hit, Record

__all__ = ["COLUMNS", "hit_from_row", "metadata_of", "now", "record_from_row", "record_pages"]

#: ``SELECT {COLUMNS}`` gives the tuple the functions below read.
COLUMNS = "seq, id, text, role, timestamp, session_id, metadata"


def now() -> str:
    """An access time as the indexes record it: UTC, milliseconds, ``Z`` (pi's timestamp format)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def metadata_of(value: Any) -> dict[str, Any]:
    """The ``metadata`` column as a dict, whichever engine stored it (JSON text or ``jsonb``)."""
    if value == "{}":  # most messages: skip the parse (a search reads dozens of rows)
        return {}
    if isinstance(value, str):
        loaded: dict[str, Any] = json.loads(value)
        return loaded
    return dict(value) if isinstance(value, Mapping) else {}


def hit_from_row(row: tuple[Any, ...], similarity: float, score: float) -> Hit:
    """A :class:`Hit` from a :data:`COLUMNS` row and the search's scores (``0.0`` for a plain ``get``)."""
    _, id_, text, role, timestamp, session_id, metadata = row
    return Hit(id=id_, text=text, similarity=similarity, score=score, role=role, timestamp=timestamp,
               session_id=session_id, metadata=metadata_of(metadata))


def record_from_row(row: tuple[Any, ...]) -> Record:
    """The :class:`Record` a :data:`COLUMNS` row was made from (what ``reindex`` embeds again)."""
    _, id_, text, role, timestamp, session_id, metadata = row
    return Record(id=id_, text=text, role=role, timestamp=timestamp, session_id=session_id,
                  metadata=metadata_of(metadata))


def record_pages(page: Callable[[int], Sequence[tuple[Any, ...]]]) -> Iterator[list[Record]]:
    """Every stored record in insertion order, a batch at a time (what ``reindex`` re-embeds):
    ``page(last)`` returns the next :data:`COLUMNS` rows after ``seq`` ``last`` (none: the end)."""
    last = 0
    while rows := page(last):
        last = rows[-1][0]
        yield [record_from_row(r) for r in rows]
