"""The vocabulary shared by every recall backend: records in, hits out, one index protocol.

A backend is interchangeable only if callers never see which one they hold, so the extensions,
the CLI and the benchmarks program against :class:`RecallIndex` and these plain types.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict, runtime_checkable

__all__ = [
    "AccessStat",
    "EmbedderMismatchError",
    "Filters",
    "Hit",
    "IndexUnavailableError",
    "RecallError",
    "RecallIndex",
    "Record",
    "clip_similarity",
    "index_info",
    "normalize_record",
]


class Record(TypedDict, total=False):
    """One message to index. ``id``, ``text``, ``role``, ``timestamp`` and ``session_id`` are required."""

    id: str
    text: str
    role: str
    timestamp: str
    session_id: str
    metadata: dict[str, Any]


class Filters(TypedDict, total=False):
    """Restrict a search. Every given key must match; lists mean "any of"."""

    session_id: str | list[str]
    role: str | list[str]
    since: str
    """ISO timestamp, inclusive (compared as text, so use one timezone: pi writes UTC ``Z``)."""
    until: str
    """ISO timestamp, exclusive."""


@dataclass(frozen=True)
class Hit:
    """A search result.

    ``similarity`` is the cosine between query and message embeddings clipped to 0–1 (what the
    ``search_memory`` text shows; :func:`clip_similarity` is applied here, so no backend can hand
    out NaN); ``score`` is the fused rank score that ordered the results, comparable only within
    one search.
    """

    id: str
    text: str
    similarity: float
    score: float
    role: str
    timestamp: str
    session_id: str
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "similarity", clip_similarity(self.similarity))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "similarity": round(self.similarity, 4),
            "score": round(self.score, 6),
            "role": self.role,
            "timestamp": self.timestamp,
            "session_id": self.session_id,
            "metadata": self.metadata,
        }


def clip_similarity(value: float) -> float:
    """A cosine as hits report it: clipped to 0–1; NaN (a zero vector has no direction, and
    pgvector's cosine with one is NaN) is 0, never the 1.0 that ``min``/``max`` clipping makes of it."""
    return min(1.0, float(value)) if value > 0 else 0.0


class RecallError(Exception):
    """Base class for recall errors a user can fix (the message says how)."""


class IndexUnavailableError(RecallError):
    """The index cannot be opened at all: not a database, damaged, another program's tables, a
    directory in its place, locked, or a server that does not answer. ``index`` names it (never a
    password); the message says what to do."""

    def __init__(self, index: str, message: str) -> None:
        self.index = index
        super().__init__(message)


class EmbedderMismatchError(RecallError):
    """The index was built with another embedding space; mixing them would return nonsense."""

    def __init__(self, index_embedder: str, index_dimension: int, embedder: str, dimension: int) -> None:
        self.index_embedder = index_embedder
        self.index_dimension = index_dimension
        super().__init__(
            f"this recall index holds embeddings from {index_embedder!r} ({index_dimension} dimensions) "
            f"but the embedder in use is {embedder!r} ({dimension} dimensions). Vectors from different "
            "models cannot be compared. Run `pi-memory recall reindex` to re-embed every message with the "
            "current embedder, or configure the index's embedder again."
        )


_REQUIRED = ("id", "text", "role", "timestamp", "session_id")


def normalize_record(record: Mapping[str, Any]) -> Record:
    """Check a record's fields early: a bad record must fail in ``add``, not in a later flush."""
    for key in _REQUIRED:
        value = record.get(key)
        if not isinstance(value, str):
            raise ValueError(f"recall record field {key!r} must be a string, got {type(value).__name__}")
    if not record["id"]:
        raise ValueError("recall record id must not be empty")
    metadata = record.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise ValueError("recall record metadata must be a dict")
    return Record(
        id=_utf8(record["id"]),
        text=_utf8(record["text"]),
        role=_utf8(record["role"]),
        timestamp=_utf8(record["timestamp"]),
        session_id=_utf8(record["session_id"]),
        metadata=dict(metadata),
    )


def _utf8(value: str) -> str:
    """Lone surrogates (JavaScript strings may hold them; pi writes them to JSON as ``\\ud800``)
    cannot be stored as UTF-8 or tokenized: each becomes one U+FFFD and the rest of the text is
    kept, as JavaScript's ``toWellFormed()`` and its UTF-8 encoders do, so a Node process indexing
    the same message stores the same text. A high and low surrogate in a row are the character
    they encode in UTF-16."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return value


@runtime_checkable
class RecallIndex(Protocol):
    """What every backend offers. ``add`` is idempotent by id and durable when it returns."""

    url: str
    backend: str

    def add(self, records: Iterable[Mapping[str, Any]]) -> int:
        """Index records; returns how many were new or changed."""
        ...

    def flush(self) -> None:
        """Make everything added visible to searches (backends that buffer write it out)."""
        ...

    def search(self, query: str, top_k: int = 5, filters: Filters | None = None) -> list[Hit]: ...

    def count(self) -> int: ...

    def delete(self, ids: Sequence[str]) -> int: ...

    def get(self, ids: Sequence[str]) -> list[Hit]:
        """Stored records by id (similarity and score 0), in the order asked, missing ids skipped."""
        ...

    def record_access(self, ids: Sequence[str], when: str | None = None) -> None:
        """Bump access count and last-access time (ISO) of the given records."""
        ...

    def access_stats(self, ids: Sequence[str] | None = None) -> list[AccessStat]:
        """Access data for the decay weight (all records when ``ids`` is None)."""
        ...

    def info(self) -> dict[str, Any]:
        """Backend, location, count, size, embedder — what ``recall status`` shows."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class AccessStat:
    """What the decay weight needs about one record."""

    id: str
    timestamp: str
    access_count: int
    last_access: str | None


def index_info(
    index: RecallIndex, location: str, count: int, size_bytes: int, space: tuple[str, int] | None, embedder: str
) -> dict[str, Any]:
    """What every backend's ``info()`` returns (``recall status`` shows it): ``space`` is the
    recorded ``(embedder, dimension)`` (None before the first write), ``embedder`` the one in use."""
    return {
        "backend": index.backend,
        "location": location,
        "count": count,
        "size_bytes": size_bytes,
        "embedder": space[0] if space else None,
        "dimension": space[1] if space else None,
        "embedder_in_use": embedder,
    }
