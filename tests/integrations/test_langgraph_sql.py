"""``langgraph_sql``: PiStore's tables and statements, on SQLite and PostgreSQL, without LangGraph."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_memory.integrations.langgraph_sql import (
    SEP,
    TABLE_NAME,
    Database,
    join_namespace,
    split_namespace,
)

NOW = 1_750_000_000.0


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'sub' / 'store.db'}"
    else:
        url = request.getfixturevalue("postgres_dsn")
    database = Database(url, f"t_{uuid.uuid4().hex[:12]}")
    try:
        yield database
    finally:
        database.close()


def test_namespaces_round_trip_through_one_column() -> None:
    assert join_namespace(("users", "ada")) == f"users{SEP}ada"
    assert split_namespace(join_namespace(("users", "ada"))) == ("users", "ada")
    assert split_namespace("") == ()
    assert TABLE_NAME.fullmatch("pi_store") and not TABLE_NAME.fullmatch("Robert'); DROP")


def test_put_get_update_and_delete(db: Database) -> None:
    ns = join_namespace(("users", "ada"))
    with db.transaction():
        db.put(ns, "k", '{"v": 1}', NOW, None, [("$.v", "one", b"\x00\x01")])
    ((namespace, key, value, created, updated, _seq, ttl),) = db.get(ns, "k", NOW)
    assert (namespace, key, value, ttl) == (ns, "k", '{"v": 1}', None) and created == updated
    with db.transaction():
        db.put(ns, "k", '{"v": 2}', NOW + 60, None, [("$.v", "two", b"\x02")])
    (row,) = db.get(ns, "k", NOW + 60)
    assert row[2] == '{"v": 2}' and row[3] == created and row[4] != created  # created_at kept
    assert [(r[1], r[2], bytes(r[3])) for r in db.vectors_for([row])] == [("k", "two", b"\x02")]
    with db.transaction():
        db.delete(ns, "k")
    assert db.get(ns, "k", NOW + 60) == [] and db.vectors_for([row]) == []


def test_prefixes_select_whole_labels(db: Database) -> None:
    with db.transaction():
        for namespace in (("users",), ("users", "ada"), ("users2", "bob"), ("docs",)):
            db.put(join_namespace(namespace), "k", "{}", NOW, None, [])
    assert [split_namespace(r[0]) for r in db.alive(("users",), NOW)] == [("users",), ("users", "ada")]
    assert len(db.alive((), NOW)) == 4
    assert sorted(db.namespaces(NOW)) == [("docs",), ("users",), ("users", "ada"), ("users2", "bob")]


def test_ttl_hides_expired_items_a_read_refreshes_and_a_write_sweeps(db: Database) -> None:
    with db.transaction():
        db.put("a", "short", "{}", NOW, 1.0, [("$", "t", b"")])  # one minute
        db.put("a", "forever", "{}", NOW, None, [])
    rows = db.get("a", "short", NOW + 30)
    with db.transaction():
        db.refresh(rows, NOW + 30)  # now lives until NOW + 90
    assert db.get("a", "short", NOW + 80) != []
    assert db.get("a", "short", NOW + 91) == []  # expired: never returned, swept or not
    assert db.expired(NOW + 91) == [("a", "short")]
    with db.transaction():
        db.drop_expired(NOW + 91)
    assert db.expired(NOW + 91) == [] and [r[1] for r in db.alive((), NOW + 91)] == ["forever"]


def test_a_failed_batch_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    db = Database(str(path), "t")
    try:
        with pytest.raises(RuntimeError), db.transaction():
            db.put("a", "k", "{}", NOW, None, [])
            raise RuntimeError("the batch failed")
        assert db.alive((), NOW) == []
    finally:
        db.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
