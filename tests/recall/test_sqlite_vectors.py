"""The SQLite index's vectors in memory, over a real file written by a second connection: rows
added elsewhere are loaded on the next load and only they are read, a generation bump (a delete)
starts the cache again, a write on the loader's own connection needs ``stale()`` to be seen, and
damaged vectors are logged once per new damage with the way out."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from pi_memory.recall import SQLiteIndex, get_embedder
from pi_memory.recall.sqlite_schema import connect
from pi_memory.recall.sqlite_vectors import StoredVectors

from .conftest import record

EMBEDDER = get_embedder()


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "recall.db"


@pytest.fixture
def db(path: Path) -> Iterator[sqlite3.Connection]:
    connection = connect(path, 5.0)
    yield connection
    connection.close()


def _add(path: Path, *records: dict[str, str]) -> None:
    with SQLiteIndex(path, embedder=EMBEDDER) as writer:  # another connection, as another process's
        writer.add(list(records))


def test_rows_added_by_another_connection_load_next_time_and_alone(path: Path, db: sqlite3.Connection) -> None:
    _add(path, record("a", "the staging database moved to Frankfurt"), record("b", "tomatoes in the garden"))
    vectors = StoredVectors(db, str(path))
    first = vectors.load(EMBEDDER)
    assert len(first) == 2 and first.last_seq == 2
    expected = EMBEDDER.embed(["the staging database moved to Frankfurt"])[0]
    assert np.allclose(first.matrix[0], expected, atol=1e-2)  # float16 on disk

    assert vectors.load(EMBEDDER) is first and len(first) == 2  # nothing new: the same rows
    _add(path, record("c", "the violin lesson is on Tuesday"))
    again = vectors.load(EMBEDDER)
    assert again is first and len(again) == 3 and list(again.seqs) == [1, 2, 3]  # appended, not reloaded


def test_a_delete_elsewhere_bumps_the_generation_and_starts_again(path: Path, db: sqlite3.Connection) -> None:
    _add(path, record("a", "one note"), record("b", "another note"), record("c", "a third note"))
    vectors = StoredVectors(db, str(path))
    first = vectors.load(EMBEDDER)
    with SQLiteIndex(path, embedder=EMBEDDER) as writer:
        assert writer.delete(["b"]) == 1
    fresh = vectors.load(EMBEDDER)
    assert fresh is not first and list(fresh.seqs) == [1, 3]


def test_a_write_on_the_same_connection_is_seen_after_stale(path: Path, db: sqlite3.Connection) -> None:
    """``PRAGMA data_version`` does not move for the connection's own commits: that is what
    ``stale()`` is for (the index calls it after each of its writes)."""
    _add(path, record("a", "one note"))
    vectors = StoredVectors(db, str(path))
    assert len(vectors.load(EMBEDDER)) == 1
    blob = EMBEDDER.embed(["a second note"])[0].astype(np.float16).tobytes()
    db.execute("INSERT INTO messages(id, text, role, timestamp, session_id, embedding) VALUES (?, ?, ?, ?, ?, ?)",
               ("b", "a second note", "user", "2025-01-01T00:00:00.000Z", "s1", blob))
    assert len(vectors.load(EMBEDDER)) == 1
    vectors.stale()
    assert len(vectors.load(EMBEDDER)) == 2


def test_damage_is_counted_and_logged_once_per_new_damage(
        path: Path, db: sqlite3.Connection, caplog: pytest.LogCaptureFixture) -> None:
    _add(path, *(record(f"m{n}", f"note {n} about the weather") for n in range(5)))
    with sqlite3.connect(path) as other:
        other.execute("UPDATE messages SET embedding = substr(embedding, 1, 100) WHERE id = 'm1'")
    other.close()
    vectors = StoredVectors(db, str(path))
    assert vectors.damage(EMBEDDER.id) is None  # nothing loaded yet
    with caplog.at_level(logging.WARNING, logger="pi_memory.recall"):
        cache = vectors.load(EMBEDDER)
        vectors.load(EMBEDDER)
        assert list(cache.damaged) == [1] and not cache.matrix[1].any()
        assert len(caplog.records) == 1
        message = vectors.damage(EMBEDDER.id)
        assert message == caplog.records[0].getMessage()
        assert message is not None and message.startswith(f"1 of the 5 stored vectors in the recall index {path}")
        assert f"pi-memory recall reindex --index {path} --embedder {EMBEDDER.id}" in message

        _add(path, record("m9", "a later note"))
        with sqlite3.connect(path) as other:
            other.execute("UPDATE messages SET embedding = x'00ff' WHERE id = 'm9'")
        other.close()
        vectors.load(EMBEDDER)
        assert len(caplog.records) == 2 and caplog.records[1].getMessage().startswith("2 of the 6 stored vectors")
