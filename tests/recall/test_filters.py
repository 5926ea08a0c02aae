"""One reading of :class:`Filters` for every backend: the conditions, their SQL in both dialects
(run on a real SQLite and a real PostgreSQL), and Chroma's ``where``."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from pi_memory.recall import Filters
from pi_memory.recall.chroma_index import chroma_where
from pi_memory.recall.filters import Condition, conditions, filter_sql

ROWS = [
    ("a", "s1", "user", "2025-01-01T00:00:00Z"),
    ("b", "s2", "assistant", "2025-02-01T00:00:00Z"),
    ("c", "s3", "user", "2025-02-01T12:00:00Z"),
    ("d", "s1", "assistant", "2025-03-01T00:00:00Z"),
]

CASES: list[tuple[Filters, set[str]]] = [
    ({}, {"a", "b", "c", "d"}),
    ({"session_id": "s1"}, {"a", "d"}),
    ({"session_id": ["s2", "s3"], "role": "user"}, {"c"}),
    ({"role": ["assistant"], "since": "2025-02-01T00:00:00Z"}, {"b", "d"}),
    ({"since": "2025-02-01T00:00:00Z", "until": "2025-03-01T00:00:00Z"}, {"b", "c"}),
]


def test_conditions_read_every_key_in_one_order() -> None:
    assert conditions(None) == [] and conditions({}) == []
    assert conditions({"until": "u", "role": "user", "since": "s", "session_id": ["x", "y"]}) == [
        Condition("session_id", "in", ("x", "y")),
        Condition("role", "in", ("user",)),
        Condition("timestamp", ">=", "s"),
        Condition("timestamp", "<", "u"),
    ]


def test_sqlite_dialect_marks_each_value() -> None:
    assert filter_sql({"session_id": ["x", "y"], "since": "s"}, alias="m.") == (
        " AND m.session_id IN (?, ?) AND m.timestamp >= ?", ["x", "y", "s"])


def test_postgres_dialect_binds_one_array() -> None:
    assert filter_sql({"role": ["user", "assistant"], "until": "u"}, mark="%s", arrays=True) == (
        " AND role = ANY(%s) AND timestamp < %s", [["user", "assistant"], "u"])


@pytest.mark.parametrize(("filters", "expected"), CASES)
def test_the_sql_selects_the_same_rows_on_sqlite(filters: Filters, expected: set[str]) -> None:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE messages(id, session_id, role, timestamp)")
    db.executemany("INSERT INTO messages VALUES (?, ?, ?, ?)", ROWS)
    where, params = filter_sql(filters, alias="m.")
    assert {r[0] for r in db.execute(f"SELECT id FROM messages m WHERE 1{where}", params)} == expected


@pytest.mark.parametrize(("filters", "expected"), CASES)
def test_the_sql_selects_the_same_rows_on_postgres(pg_url: str, filters: Filters, expected: set[str]) -> None:
    psycopg = pytest.importorskip("psycopg")
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("CREATE TEMP TABLE messages(id text, session_id text, role text, timestamp text)")
        with db.cursor() as cur:
            cur.executemany("INSERT INTO messages VALUES (%s, %s, %s, %s)", ROWS)
        where, params = filter_sql(filters, mark="%s", arrays=True)
        assert {r[0] for r in db.execute(f"SELECT id FROM messages WHERE true{where}", params)} == expected


def test_chroma_where_compares_epoch_seconds() -> None:
    assert chroma_where(None) is None and chroma_where({}) is None
    assert chroma_where({"role": "user"}) == {"role": {"$in": ["user"]}}
    where: Any = chroma_where({"session_id": ["a", "b"], "since": "2025-01-01T00:00:00Z",
                               "until": "2025-01-02T00:00:00Z"})
    assert where == {"$and": [{"session_id": {"$in": ["a", "b"]}}, {"epoch": {"$gte": 1735689600.0}},
                              {"epoch": {"$lt": 1735776000.0}}]}
