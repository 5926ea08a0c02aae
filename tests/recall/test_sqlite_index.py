"""The SQLite index with a :class:`DenseMirror` (what the Chroma backend plugs in): the mirror gets
every vector before the local file, proposes the dense candidates, and follows deletes and clears.
The shared index suite (``test_index.py``) covers the rest over every backend."""

from __future__ import annotations

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
