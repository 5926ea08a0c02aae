"""Chroma server backend: ``chroma://host:port[/collection]`` (``pip install 'pi-memory[chroma]'``).

The vectors go to a collection on the server — always our embeddings (the collection has no
embedding function), one collection per agent (default name from the agent dir) — so every
machine of a fleet proposes dense candidates from one shared approximate (HNSW) index. What
Chroma cannot do stays local, in a SQLite file beside the agent dir: the messages, the FTS5 lexical
half, access counts, and a copy of the vectors that rescores Chroma's candidates exactly and
gives neighbour smoothing. The trade-off: the lexical half and access data are per machine; a
message another machine indexed is found by meaning only once this machine has it too.

A write goes to Chroma first, then to the local file, so a failure in between is retried by the
next ``add`` (Chroma's upsert is idempotent); a delete removes from both.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np
import numpy.typing as npt

from pi_memory.recall.decay import parse_timestamp
from pi_memory.recall.embedders import Embedder
from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.hybrid import VectorCache
from pi_memory.recall.sqlite_index import SQLiteIndex
from pi_memory.recall.types import EmbedderMismatchError, Filters, RecallError, Record
from pi_memory.session.paths import get_agent_dir

__all__ = ["ChromaIndex", "parse_chroma_url"]


def parse_chroma_url(url: str) -> tuple[str, int, str]:
    """``chroma://host:port[/collection]`` → (host, port, collection)."""
    parts = urlsplit(url)
    if parts.scheme != "chroma" or not parts.hostname:
        raise RecallError(f"not a Chroma URL: {url!r} (expected chroma://host:port[/collection])")
    collection = parts.path.strip("/")
    if not collection:
        digest = hashlib.sha1(os.path.abspath(get_agent_dir()).encode()).hexdigest()[:12]
        collection = f"pi-memory-{digest}"
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]", collection):
        raise RecallError(f"invalid Chroma collection name {collection!r} (3-63 letters, digits, . _ -)")
    return parts.hostname, parts.port or 8000, collection


class ChromaIndex(SQLiteIndex):
    """Dense candidates from a Chroma collection; everything else in a local SQLite file."""

    backend = "chroma"

    def __init__(
        self,
        url: str,
        embedder: Embedder | str | None = None,
        config: SearchConfig | None = None,
        *,
        local_path: str | os.PathLike[str] | None = None,
    ) -> None:
        try:
            import chromadb
        except ImportError as exc:  # pragma: no cover - depends on optional packages
            raise ImportError("the Chroma backend needs: pip install 'pi-memory[chroma]'") from exc
        host, port, name = parse_chroma_url(url)
        local = Path(local_path) if local_path else Path(get_agent_dir()) / "recall-chroma" / f"{host}_{port}_{name}.db"
        super().__init__(local, embedder=embedder, config=config)
        self.url = url
        self.collection_name = name
        self._client = chromadb.HttpClient(host=host, port=port)
        self._collection = self._open_collection()

    def _open_collection(self) -> Any:
        """The collection (created with our space on first use). A collection holding another
        embedder's vectors is refused at the first add or search, as the local file is."""
        mine: dict[str, str | int] = {"embedder": self.embedder.id, "dimension": self.embedder.dimension}
        collection = self._client.get_or_create_collection(
            self.collection_name, metadata={"hnsw:space": "cosine", **mine}, embedding_function=None
        )
        stored = collection.metadata or {}
        theirs = (str(stored.get("embedder", mine["embedder"])), int(stored.get("dimension", mine["dimension"])))
        self._mismatch: EmbedderMismatchError | None = None
        if theirs != (self.embedder.id, self.embedder.dimension):
            self._mismatch = EmbedderMismatchError(*theirs, self.embedder.id, self.embedder.dimension)
        return collection

    def _check_remote(self) -> None:
        if self._mismatch is not None:
            raise self._mismatch

    def add(self, records: Any) -> int:
        todo = self._pending(records)
        if not todo:
            return 0
        with self._lock:
            self._check_space(self._db, claim=False)
        self._check_remote()
        vectors = self.embedder.embed([r["text"] for r in todo])
        self._collection.upsert(
            ids=[r["id"] for r in todo],
            embeddings=vectors.astype(np.float32).tolist(),
            metadatas=[_metadata(r) for r in todo],
        )
        self._store(todo, vectors.astype(np.float16))
        return len(todo)

    def delete(self, ids: Sequence[str]) -> int:
        if ids:
            self._collection.delete(ids=list(ids))
        return super().delete(ids)

    def clear(self) -> None:
        self._client.delete_collection(self.collection_name)
        super().clear()
        self._collection = self._open_collection()

    def _dense_candidates(
        self, vector: npt.NDArray[np.float32], filters: Filters | None, cache: VectorCache
    ) -> npt.NDArray[np.int64] | None:
        self._check_remote()
        where = _where(filters)
        found = self._collection.query(
            query_embeddings=[vector.astype(np.float32).tolist()],
            n_results=max(1, min(self.config.candidates, len(cache))),
            where=where,
            include=[],
        )
        ids = found["ids"][0] if found.get("ids") else []
        if not ids:
            return np.zeros(0, dtype=np.int64)
        marks = ", ".join("?" * len(ids))
        seqs = [row[0] for row in self._db.execute(f"SELECT seq FROM messages WHERE id IN ({marks})", ids)]
        return cache.positions(np.asarray(seqs, dtype=np.int64))

    def info(self) -> dict[str, Any]:
        info = super().info()
        info.update(backend=self.backend, location=self.url, local_file=str(self.path),
                    collection=self.collection_name, remote_count=self._collection.count())
        return info


def _metadata(record: Record) -> dict[str, Any]:
    return {
        "session_id": record["session_id"],
        "role": record["role"],
        "epoch": parse_timestamp(record["timestamp"]).timestamp(),
    }


def _where(filters: Filters | None) -> dict[str, Any] | None:
    """Chroma's ``where`` for :class:`Filters` (the local rescoring applies them exactly again)."""
    if not filters:
        return None
    clauses: list[dict[str, Any]] = []
    for key in ("session_id", "role"):
        if key in filters:
            value = filters[key]
            clauses.append({key: {"$in": [value] if isinstance(value, str) else list(value)}})
    if "since" in filters:
        clauses.append({"epoch": {"$gte": parse_timestamp(filters["since"]).timestamp()}})
    if "until" in filters:
        clauses.append({"epoch": {"$lt": parse_timestamp(filters["until"]).timestamp()}})
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}
