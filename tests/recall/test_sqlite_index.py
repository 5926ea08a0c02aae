"""The SQLite index with a :class:`DenseMirror` (what the Chroma backend plugs in): the mirror gets
every vector before the local file, proposes the dense candidates, and follows deletes and clears.
The shared index suite (``test_index.py``) covers the rest over every backend. And how ``add``
writes: one FTS5 flush per call, not one per message."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from pi_memory.recall import (
    DenseMirror,
    Embedder,
    EmbedderMismatchError,
    Filters,
    Record,
    SearchConfig,
    SQLiteIndex,
    get_embedder,
)

from .conftest import record


class BruteMirror:
    """A mirror that keeps the vectors in a dict and scans them (the protocol's simplest peer)."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.vectors: dict[str, npt.NDArray[np.float32]] = {}
        self.refuse: EmbedderMismatchError | None = None
        self.cleared = 0

    def check(self) -> None:
        if self.refuse is not None:
            raise self.refuse

    def upsert(self, records: list[Record], vectors: npt.NDArray[np.float32]) -> None:
        assert vectors.dtype == np.float32
        self.vectors.update({r["id"]: v for r, v in zip(records, vectors, strict=True)})

    def delete(self, ids: list[str]) -> None:
        for i in ids:
            self.vectors.pop(i, None)

    def clear(self) -> None:
        self.vectors.clear()
        self.cleared += 1

    def nearest(self, vector: npt.NDArray[np.float32], filters: Filters | None, n: int) -> list[str]:
        return sorted(self.vectors, key=lambda i: -float(self.vectors[i] @ vector))[:n]


def _open(tmp_path: Path) -> tuple[SQLiteIndex, BruteMirror]:
    made: list[BruteMirror] = []

    def mirror(embedder: Embedder) -> DenseMirror:
        made.append(BruteMirror(embedder))
        return made[-1]

    index = SQLiteIndex(tmp_path / "recall.db", mirror=mirror)
    return index, made[0]


def test_the_mirror_gets_the_vectors_and_proposes_the_dense_candidates(tmp_path: Path) -> None:
    index, mirror = _open(tmp_path)
    with index:
        assert mirror.embedder is index.embedder
        index.add([record("v1", "My violin lesson is on Tuesday evening", session="s1"),
                   record("v2", "The staging database moved to Frankfurt", session="s2")])
        assert set(mirror.vectors) == {"v1", "v2"}
        expected = get_embedder(index.embedder.id).embed(["The staging database moved to Frankfurt"])[0]
        assert np.allclose(mirror.vectors["v2"], expected)
        index.config = replace(SearchConfig(), fusion="dense", neighbour_dense=0.0)
        assert index.search("violin lesson on Tuesday", top_k=1)[0].id == "v1"
        del mirror.vectors["v1"]  # gone from the mirror, still in the local file
        assert [h.id for h in index.search("violin lesson on Tuesday", top_k=2)] == ["v2"]
        index.config = SearchConfig()
        assert index.search("violin lesson", top_k=1)[0].id == "v1"  # the lexical half is local
        assert index.delete(["v2"]) == 1 and mirror.vectors == {}
        index.clear()
        assert mirror.cleared == 1 and index.count() == 0


def test_a_mirror_that_refuses_the_embedder_keeps_the_file_untouched(tmp_path: Path) -> None:
    index, mirror = _open(tmp_path)
    with index:
        mirror.refuse = EmbedderMismatchError("other-model", 8, index.embedder.id, index.embedder.dimension)
        with pytest.raises(EmbedderMismatchError, match="other-model"):
            index.add([record("v1", "a message")])
        assert index.count() == 0 and mirror.vectors == {} and index.info()["embedder"] is None


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's big-endian varint at ``at``: (value, the offset after it)."""
    value = 0
    for n in range(9):
        byte = data[at + n]
        if n == 8:
            return (value << 8) | byte, at + 9
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, at + n + 1
    raise AssertionError("unreachable")


def _fts_leaves_written(path: Path) -> int:
    """The FTS5 structure record's count of leaf pages its flushes ever wrote (the header: cookie,
    [V2 mark], levels, segments, that count), read through a connection of our own."""
    with sqlite3.connect(path) as db:
        block = db.execute("SELECT block FROM messages_fts_data WHERE id = 10").fetchone()[0]
    at = 8 if block[4:8] == b"\xff\x00\x00\x01" else 4
    for _ in range(2):  # levels, segments
        _, at = _varint(block, at)
    return _varint(block, at)[0]


def test_an_add_flushes_the_fts_index_once_however_many_messages_it_holds(tmp_path: Path) -> None:
    """FTS5 writes its pending terms out as a new segment at the end of each statement that fed it,
    so inserting row by row wrote 256 one-page segments for a batch of 256 (and merged them again:
    most of ``add``'s time). One INSERT per batch of up to 500 rows writes them once."""
    path = tmp_path / "recall.db"
    with SQLiteIndex(path) as index:
        assert index.add([record(f"m{i}", f"message {i} about word{i}") for i in range(256)]) == 256
        first = _fts_leaves_written(path)
        assert first <= 4  # row by row: 256
        assert index.add([record(f"n{i}", f"note {i} about word{i}") for i in range(600)]) == 600
        assert _fts_leaves_written(path) - first <= 12  # two statements; row by row: 600
        assert index.count() == 856
        assert "n599" in [h.id for h in index.search("word599", top_k=3)]
        assert index.get(["m0", "n599"])[1].text == "note 599 about word599"
        # changed and new records in one add: the new one inserted, the changed one in place
        assert index.add([record("m1", "message 1 now about violins"), record("x1", "a new one")]) == 2
        assert "m1" in [h.id for h in index.search("violins", top_k=3)] and index.count() == 857
        assert [s.id for s in index.access_stats()][:2] == ["m0", "m1"]  # m1 kept its place (seq)
