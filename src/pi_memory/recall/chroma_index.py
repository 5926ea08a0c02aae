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
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np
import numpy.typing as npt

from pi_memory.recall.decay import parse_timestamp
from pi_memory.recall.embedders import Embedder
from pi_memory.recall.filters import conditions
from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.sqlite_index import SQLiteIndex
from pi_memory.recall.types import AccessStat, EmbedderMismatchError, Filters, Hit, RecallError, Record
from pi_memory.session.paths import get_agent_dir

__all__ = ["ChromaCollection", "ChromaIndex", "chroma_where", "parse_chroma_url"]


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


class ChromaCollection:
    """The :class:`~pi_memory.recall.sqlite_index.DenseMirror` of a Chroma collection: our
    vectors (the collection has no embedding function) with the fields filters need."""

    def __init__(self, client: Any, name: str, embedder: Embedder) -> None:
        self._client = client
        self.name = name
        self._embedder = embedder
        self._collection = self._open()

    def _open(self) -> Any:
        """The collection (created with our space on first use). A collection holding another
        embedder's vectors is refused at the first add or search, as the local file is."""
        mine: dict[str, str | int] = {"embedder": self._embedder.id, "dimension": self._embedder.dimension}
        collection = self._client.get_or_create_collection(
            self.name, metadata={"hnsw:space": "cosine", **mine}, embedding_function=None
        )
        stored = collection.metadata or {}
        theirs = (str(stored.get("embedder", mine["embedder"])), int(stored.get("dimension", mine["dimension"])))
        self._mismatch: EmbedderMismatchError | None = None
        if theirs != (self._embedder.id, self._embedder.dimension):
            self._mismatch = EmbedderMismatchError(*theirs, self._embedder.id, self._embedder.dimension)
        return collection

    def check(self) -> None:
        if self._mismatch is not None:
            raise self._mismatch

    def upsert(self, records: list[Record], vectors: npt.NDArray[np.float32]) -> None:
        self._collection.upsert(
            ids=[r["id"] for r in records], embeddings=vectors.tolist(), metadatas=[_metadata(r) for r in records]
        )

    def delete(self, ids: list[str]) -> None:
        self._collection.delete(ids=ids)

    def clear(self) -> None:
        self._client.delete_collection(self.name)
        self._collection = self._open()

    def nearest(self, vector: npt.NDArray[np.float32], filters: Filters | None, n: int) -> list[str]:
        self.check()
        found = self._collection.query(
            query_embeddings=[vector.astype(np.float32).tolist()], n_results=n, where=chroma_where(filters), include=[]
        )
        return list(found["ids"][0]) if found.get("ids") else []

    def count(self) -> int:
        return int(self._collection.count())


class ChromaIndex:
    """Dense candidates from a Chroma collection; everything else in a local :class:`SQLiteIndex`."""

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
        self.url = url
        self.collection_name = name
        self.local = SQLiteIndex(local, embedder=embedder, config=config, mirror=lambda chosen: ChromaCollection(
            chromadb.HttpClient(host=host, port=port), name, chosen))
        assert isinstance(self.local.mirror, ChromaCollection)
        self.collection = self.local.mirror
        self.path = self.local.path

    @property
    def embedder(self) -> Embedder:
        return self.local.embedder

    @property
    def config(self) -> SearchConfig:
        return self.local.config

    @config.setter
    def config(self, value: SearchConfig) -> None:
        self.local.config = value

    def add(self, records: Iterable[Mapping[str, Any]]) -> int:
        return self.local.add(records)

    def flush(self) -> None:
        self.local.flush()

    def search(self, query: str, top_k: int = 5, filters: Filters | None = None) -> list[Hit]:
        return self.local.search(query, top_k, filters)

    def count(self) -> int:
        return self.local.count()

    def delete(self, ids: Sequence[str]) -> int:
        return self.local.delete(ids)

    def clear(self) -> None:
        self.local.clear()

    def get(self, ids: Sequence[str]) -> list[Hit]:
        return self.local.get(ids)

    def record_access(self, ids: Sequence[str], when: str | None = None) -> None:
        self.local.record_access(ids, when)

    def access_stats(self, ids: Sequence[str] | None = None) -> list[AccessStat]:
        return self.local.access_stats(ids)

    def iter_records(self, batch: int = 1000) -> Iterator[list[Record]]:
        return self.local.iter_records(batch)

    def info(self) -> dict[str, Any]:
        info = self.local.info()
        info.update(backend=self.backend, location=self.url, local_file=str(self.path),
                    collection=self.collection_name, remote_count=self.collection.count())
        return info

    def close(self) -> None:
        self.local.close()

    def __enter__(self) -> ChromaIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _metadata(record: Record) -> dict[str, Any]:
    return {
        "session_id": record["session_id"],
        "role": record["role"],
        "epoch": parse_timestamp(record["timestamp"]).timestamp(),
    }


def chroma_where(filters: Filters | None) -> dict[str, Any] | None:
    """Chroma's ``where`` for :class:`Filters` (the local rescoring applies them exactly again);
    timestamps are compared as the epoch seconds :func:`_metadata` stores."""
    clauses: list[dict[str, Any]] = []
    for condition in conditions(filters):
        if condition.op == "in":
            clauses.append({condition.column: {"$in": list(condition.value)}})
        else:
            assert isinstance(condition.value, str)
            epoch = parse_timestamp(condition.value).timestamp()
            clauses.append({"epoch": {"$gte" if condition.op == ">=" else "$lt": epoch}})
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}
