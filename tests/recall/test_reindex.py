"""``reindex``: re-embedding an index is the way out of an embedder mismatch; nothing stored is lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_memory.recall import EmbedderMismatchError, SQLiteIndex, get_embedder
from pi_memory.recall.reindex import reindex

from .conftest import HashEmbedder, record


def test_reindex_re_embeds_every_record_and_keeps_ids_texts_and_metadata(tmp_path: Path) -> None:
    path = tmp_path / "recall.db"
    old = SQLiteIndex(path, embedder=HashEmbedder())
    old.add([record("a1", "We moved the staging database to Frankfurt"),
             {**record("a2", "My daughter starts violin lessons"), "metadata": {"author": "Ana"}},
             record("a3", "Deploy failed on the orders table", session="s2")])
    old.record_access(["a1"])
    old.close()
    with SQLiteIndex(path, embedder=get_embedder("static")) as static, pytest.raises(EmbedderMismatchError):
        static.search("staging database")

    progress: list[tuple[int, int]] = []
    steps: list[str] = []
    assert reindex(str(path), "static", batch=2, progress=lambda d, t: progress.append((d, t)),
                   step=steps.append) == 3
    assert progress == [(2, 3), (3, 3)] and len(steps) == 1

    with SQLiteIndex(path) as index:
        assert index.info()["embedder"] == "minilm-static-256"
        assert index.search("where is the staging database?", top_k=1)[0].id == "a1"
        got = {h.id: h for h in index.get(["a1", "a2", "a3"])}
        assert got["a2"].text == "My daughter starts violin lessons" and got["a2"].metadata == {"author": "Ana"}
        assert got["a3"].session_id == "s2"
        # access counts restart: the records are new to the new space
        assert {s.id: s.access_count for s in index.access_stats()} == {"a1": 0, "a2": 0, "a3": 0}
