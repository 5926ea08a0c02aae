""":class:`~pi_memory.integrations.langgraph.PiStore`'s storage: an items table and a vectors table
on SQLite (WAL, ``BEGIN IMMEDIATE`` per batch) or PostgreSQL, with the TTL columns and the SQL
that reads, writes, refreshes and expires items. The LangGraph side (operations, scanner,
embedding and ranking) stays in the store; this module imports no LangGraph.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = ["ALIVE", "COLUMNS", "SEP", "TABLE_NAME", "Database", "Row", "Transaction", "join_namespace",
           "split_namespace"]

TABLE_NAME = re.compile(r"[a-z_][a-z0-9_]{0,40}")
"""What ``PiStore(table=...)`` accepts: the tables are ``<table>_items`` and ``<table>_vectors``."""
ALIVE = "(expires_at IS NULL OR expires_at > ?)"  # an expired item is never returned, swept or not
SEP = "\x1f"  # joins namespace labels in one column; prefix search is a string prefix on it
#: The columns of an item row, in the order :data:`Row` holds them.
COLUMNS = "namespace, key, value, created_at, updated_at, seq, ttl_minutes"
Row = tuple[Any, ...]


def join_namespace(namespace: Sequence[str]) -> str:
    """A namespace as its one-column form."""
    return SEP.join(namespace)


def split_namespace(joined: str) -> tuple[str, ...]:
    """The namespace a column value stands for."""
    return tuple(joined.split(SEP)) if joined else ()


class Database:
    """The few statements the store needs, on SQLite or PostgreSQL (``?`` placeholders)."""

    def __init__(self, url: str, table: str) -> None:
        self.items, self.vectors = f"{table}_items", f"{table}_vectors"
        self.postgres = url.startswith(("postgresql://", "postgres://"))
        self._lock = threading.RLock()
        if self.postgres:
            import psycopg

            self._pg = psycopg.connect(url, autocommit=True)
            blob, serial = "BYTEA", "BIGSERIAL"
        else:
            path = Path(url[len("sqlite://"):] if url.startswith("sqlite:///") else url).expanduser()
            path.parent.mkdir(parents=True, exist_ok=True)
            self._sqlite = sqlite3.connect(str(path), timeout=30, check_same_thread=False, isolation_level=None)
            self._sqlite.execute("PRAGMA busy_timeout=30000")
            _use_wal(self._sqlite)
            blob, serial = "BLOB", "INTEGER"
        with self.transaction():
            self.execute(f"""CREATE TABLE IF NOT EXISTS {self.items} (
                seq {serial} PRIMARY KEY{'' if self.postgres else ' AUTOINCREMENT'},
                namespace TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
                created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
                expires_at DOUBLE PRECISION, ttl_minutes DOUBLE PRECISION,
                UNIQUE (namespace, key))""")
            self.execute(f"""CREATE TABLE IF NOT EXISTS {self.vectors} (
                namespace TEXT NOT NULL, key TEXT NOT NULL, path TEXT NOT NULL, text TEXT NOT NULL,
                vector {blob}, PRIMARY KEY (namespace, key, path))""")

    def transaction(self) -> Transaction:
        """``with db.transaction():`` — one batch, one transaction."""
        return Transaction(self)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if self.postgres:
            with self._pg.cursor() as cur:
                cur.execute(sql.replace("?", "%s"), list(params))
                return list(cur.fetchall()) if cur.description is not None else []
        cursor = self._sqlite.execute(sql, list(params))
        return list(cursor.fetchall())

    def close(self) -> None:
        """Close the connection (after any transaction in flight)."""
        with self._lock:
            if self.postgres:
                self._pg.close()
            else:
                self._sqlite.close()

    # --- the item statements (inside a transaction) ---------------------------------------------

    def drop_expired(self, now: float) -> None:
        """Delete expired items and their vectors (a batch that writes does this first)."""
        self.execute(f"DELETE FROM {self.vectors} WHERE EXISTS (SELECT 1 FROM {self.items} i WHERE "
                     f"i.namespace = {self.vectors}.namespace AND i.key = {self.vectors}.key "
                     "AND i.expires_at IS NOT NULL AND i.expires_at <= ?)", [now])
        self.execute(f"DELETE FROM {self.items} WHERE expires_at IS NOT NULL AND expires_at <= ?", [now])

    def expired(self, now: float) -> list[tuple[Any, ...]]:
        """``(namespace, key)`` of every expired item."""
        return self.execute(f"SELECT namespace, key FROM {self.items} WHERE expires_at IS NOT NULL "
                            "AND expires_at <= ?", [now])

    def get(self, namespace: str, key: str, now: float) -> list[Row]:
        """The live item's row, if any (a list of at most one)."""
        return self.execute(f"SELECT {COLUMNS} FROM {self.items} WHERE namespace = ? AND key = ? "
                            f"AND {ALIVE}", [namespace, key, now])

    def alive(self, prefix: Sequence[str], now: float) -> list[Row]:
        """The live items under a namespace prefix (all of them for ``()``), oldest first."""
        joined = join_namespace(prefix)
        where, params = ALIVE, list[Any]([now])
        if prefix:
            where += " AND (namespace = ? OR substr(namespace, 1, ?) = ?)"
            params += [joined, len(joined) + 1, joined + SEP]
        return self.execute(f"SELECT {COLUMNS} FROM {self.items} WHERE {where} ORDER BY seq", params)

    def refresh(self, rows: Sequence[Row], now: float) -> None:
        """Move the expiry of ``rows`` that have a TTL to ``now`` + their TTL (a read refreshes)."""
        for row in rows:
            if row[6] is not None:  # ttl_minutes
                self.execute(f"UPDATE {self.items} SET expires_at = ? WHERE namespace = ? AND key = ?",
                             [now + float(row[6]) * 60, row[0], row[1]])

    def put(self, namespace: str, key: str, value: str, now: float, ttl: float | None,
            vectors: Sequence[tuple[str, str, bytes]]) -> None:
        """Insert or update an item (``created_at`` kept) and replace its vectors."""
        expires = now + float(ttl) * 60 if ttl is not None else None
        stamp = datetime.fromtimestamp(now, UTC).isoformat()
        existing = self.execute(f"SELECT created_at FROM {self.items} WHERE namespace = ? AND key = ?",
                                [namespace, key])
        if existing:
            self.execute(f"UPDATE {self.items} SET value = ?, updated_at = ?, expires_at = ?, ttl_minutes = ? "
                         "WHERE namespace = ? AND key = ?", [value, stamp, expires, ttl, namespace, key])
        else:
            self.execute(f"INSERT INTO {self.items} (namespace, key, value, created_at, updated_at, expires_at, "
                         "ttl_minutes) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [namespace, key, value, stamp, stamp, expires, ttl])
        self.execute(f"DELETE FROM {self.vectors} WHERE namespace = ? AND key = ?", [namespace, key])
        for path, text, vector in vectors:
            self.execute(f"INSERT INTO {self.vectors} (namespace, key, path, text, vector) VALUES (?, ?, ?, ?, ?)",
                         [namespace, key, path, text, vector])

    def delete(self, namespace: str, key: str) -> None:
        """Delete an item and its vectors."""
        self.execute(f"DELETE FROM {self.items} WHERE namespace = ? AND key = ?", [namespace, key])
        self.execute(f"DELETE FROM {self.vectors} WHERE namespace = ? AND key = ?", [namespace, key])

    def vectors_for(self, rows: Sequence[Row]) -> list[tuple[Any, ...]]:
        """``(namespace, key, text, vector)`` of every indexed text in the namespaces of ``rows``."""
        namespaces = sorted({r[0] for r in rows})
        found: list[tuple[Any, ...]] = []
        for start in range(0, len(namespaces), 500):
            chunk = namespaces[start: start + 500]
            marks = ", ".join("?" for _ in chunk)
            found += self.execute(f"SELECT namespace, key, text, vector FROM {self.vectors} "
                                  f"WHERE namespace IN ({marks})", chunk)
        return found

    def namespaces(self, now: float) -> list[tuple[str, ...]]:
        """Every namespace holding a live item."""
        return [split_namespace(r[0]) for r in self.execute(f"SELECT DISTINCT namespace FROM {self.items} "
                                                            f"WHERE {ALIVE}", [now])]


class Transaction:
    """One batch is one transaction (``BEGIN IMMEDIATE`` on SQLite: writers queue, none is lost)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._pg_tx: Any = None

    def __enter__(self) -> Database:
        self.db._lock.acquire()
        try:
            if self.db.postgres:
                self._pg_tx = self.db._pg.transaction()
                self._pg_tx.__enter__()
            else:
                self.db._sqlite.execute("BEGIN IMMEDIATE")
        except BaseException:
            self.db._lock.release()
            raise
        return self.db

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        try:
            if self.db.postgres:
                self._pg_tx.__exit__(kind, exc, tb)
            elif kind is None:
                self.db._sqlite.execute("COMMIT")
            else:
                self.db._sqlite.execute("ROLLBACK")
        finally:
            self.db._lock.release()


def _use_wal(db: sqlite3.Connection, wait: float = 30.0) -> None:
    """Switch ``db`` to WAL, retrying while another process holds the file.

    Changing the journal mode needs the file to itself, and SQLite answers "database is locked"
    at once instead of calling the busy handler, so two processes opening a new store together
    would fail here; once one of them has switched, the mode is persistent and this is a no-op.
    """
    deadline = time.monotonic() + wait
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)
