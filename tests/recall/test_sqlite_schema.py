"""``sqlite_schema``: a new file gets the schema; a directory, a damaged file or another program's
database is refused with the way out, and is not written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from pi_memory.recall.sqlite_schema import SCHEMA_VERSION, connect, unusable
from pi_memory.recall.types import IndexUnavailableError


def test_a_new_file_gets_the_schema_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "recall.db"
    db = connect(path, timeout=1.0)
    try:
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        assert meta["schema_version"] == SCHEMA_VERSION and meta["generation"] == "0"
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"meta", "messages", "messages_fts"} <= tables
    finally:
        db.close()
    connect(path, timeout=1.0).close()  # ours: opens again


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(IndexUnavailableError, match="is a directory, not a database file"):
        connect(tmp_path, timeout=1.0)


def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "app.db"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE users (name TEXT)")
    before = path.read_bytes()
    with pytest.raises(IndexUnavailableError, match=r"did not write: it holds other tables \(users\)"):
        connect(path, timeout=1.0)
    assert path.read_bytes() == before


def test_a_newer_schema_asks_for_an_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "recall.db"
    connect(path, timeout=1.0).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(IndexUnavailableError, match=r"schema version 99.*upgrade pi-memory"):
        connect(path, timeout=1.0)


def test_a_damaged_file_is_named_with_the_move_aside_step(tmp_path: Path) -> None:
    path = tmp_path / "recall.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(IndexUnavailableError, match=r"not a usable recall database.*mv .*recall\.db\.broken"):
        connect(path, timeout=1.0)
    assert path.read_bytes() == b"this is not a database" * 100


def test_a_locked_file_is_named_as_locked() -> None:
    error = unusable(Path("/x/recall.db"), sqlite3.OperationalError("database is locked"))
    assert "is locked by another program" in str(error)
