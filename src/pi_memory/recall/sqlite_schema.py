"""The SQLite recall file's schema, and opening one: ours, empty, or refused with the way out.

* Messages and their vectors (float16 BLOBs) live in ``messages``; ``messages_fts`` is an
  external-content FTS5 table (``porter unicode61``) kept in step by triggers, so a message and
  its search entries are written in the same transaction.
* ``meta`` holds the schema version, the embedder and dimension of the vectors (recorded by the
  first write) and a generation counter that a delete or a changed text bumps.

Every way a file can be unusable (a directory, another program's tables, a newer schema, damage,
a lock held by another program) becomes an :class:`~pi_memory.recall.types.IndexUnavailableError`
that names the file and the way out; nothing is written to a file that is not a recall index.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pi_memory.recall.types import IndexUnavailableError

__all__ = ["DAMAGED", "OPEN_BUSY_TIMEOUT", "SCHEMA_VERSION", "connect", "unusable"]

SCHEMA_VERSION = "1"

OPEN_BUSY_TIMEOUT = 2.0
"""Seconds the first read of an existing file may wait for a lock. A reader of a WAL database
never waits for writers (only for a moment of WAL recovery), so a read still blocked after this
long means another program holds the file exclusively (``locking_mode=EXCLUSIVE``, a rollback
journal writer that never commits): we say so now instead of after the 30 s writers may wait."""

DAMAGED = ("malformed", "not a database")
"""Words of the sqlite3 errors that mean a damaged file (as opposed to a locked or busy one)."""

_MESSAGE_COLUMNS = frozenset(
    ("seq", "id", "text", "role", "timestamp", "session_id", "metadata", "embedding", "access_count", "last_access"))

_MOVE_ASIDE = ("move it aside (for example `mv {path} {path}.broken`) and run `pi-memory recall index` to "
               "rebuild it from the session files, or point pi-memory-recall.url at another file")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS messages(
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    text TEXT NOT NULL,
    role TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    session_id TEXT NOT NULL,
    metadata TEXT NOT NULL DEFAULT '{}',
    embedding BLOB NOT NULL,
    access_count INTEGER NOT NULL DEFAULT 0,
    last_access TEXT
);
CREATE INDEX IF NOT EXISTS messages_session ON messages(session_id, seq);
CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(
    text, content='messages', content_rowid='seq', tokenize='porter unicode61'
);
CREATE TRIGGER IF NOT EXISTS messages_ai AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, text) VALUES (new.seq, new.text);
END;
CREATE TRIGGER IF NOT EXISTS messages_ad AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.seq, old.text);
END;
CREATE TRIGGER IF NOT EXISTS messages_au AFTER UPDATE OF text ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.seq, old.text);
    INSERT INTO messages_fts(rowid, text) VALUES (new.seq, new.text);
END;
"""


def connect(path: Path, timeout: float) -> sqlite3.Connection:
    """A connection to the recall file at ``path`` (created with the schema when new): WAL,
    ``synchronous=FULL``, writers waiting up to ``timeout`` seconds for the lock."""
    if path.is_dir():
        raise IndexUnavailableError(str(path), f"the recall index {path} is a directory, not a database file: "
                                               f"{_MOVE_ASIDE.format(path=path)}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=min(timeout, OPEN_BUSY_TIMEOUT), isolation_level=None,
                             check_same_thread=False)
    except (OSError, sqlite3.Error) as exc:
        raise IndexUnavailableError(str(path), f"the recall index {path} cannot be opened ({exc}): check the "
                                               "path, or point pi-memory-recall.url at another file") from None
    try:
        db.execute(f"PRAGMA busy_timeout = {int(min(timeout, OPEN_BUSY_TIMEOUT) * 1000)}")
        _check_foreign(db, path)
        db.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        # executescript commits any open transaction first, so the script carries its own.
        db.executescript(
            "BEGIN IMMEDIATE;"
            + _SCHEMA
            + f"INSERT OR IGNORE INTO meta VALUES ('schema_version', '{SCHEMA_VERSION}');"
            + "INSERT OR IGNORE INTO meta VALUES ('generation', '0'); COMMIT;"
        )
        db.execute("SELECT key, value FROM meta WHERE key IN ('embedder', 'dimension')").fetchall()
    except IndexUnavailableError:
        db.close()
        raise
    except sqlite3.Error as exc:
        db.close()
        raise unusable(path, exc) from None
    return db


def unusable(path: Path, exc: sqlite3.Error) -> IndexUnavailableError:
    """The error for a file sqlite3 refused: locked by another program, or damaged."""
    text = str(exc)
    if "locked" in text or "busy" in text:
        return IndexUnavailableError(str(path), (
            f"the recall index {path} is locked by another program (still {text!r} after "
            f"{OPEN_BUSY_TIMEOUT:g} s): close the program that holds it, or point pi-memory-recall.url at "
            "another file"))
    return IndexUnavailableError(str(path), f"the recall index {path} is not a usable recall database "
                                            f"({text}): {_MOVE_ASIDE.format(path=path)}")


def _check_foreign(db: sqlite3.Connection, path: Path) -> None:
    """Refuse a database that holds tables recall did not write (or a newer schema)."""
    tables = {str(row[0]) for row in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'")}
    if not tables:
        return
    problem: str | None = None
    if "meta" not in tables or "messages" not in tables:
        problem = f"it holds other tables ({', '.join(sorted(tables)[:5])})"
    else:
        meta = [str(row[1]) for row in db.execute("PRAGMA table_info(meta)")]
        columns = {str(row[1]) for row in db.execute("PRAGMA table_info(messages)")}
        version = None
        if meta == ["key", "value"]:
            row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            version = None if row is None else str(row[0])
        if version is None or not columns >= _MESSAGE_COLUMNS:
            problem = "its tables are not the ones recall writes"
        elif version != SCHEMA_VERSION:
            problem = (f"it has recall schema version {version}; this version of pi-memory reads "
                       f"{SCHEMA_VERSION} (a newer pi-memory wrote it: upgrade pi-memory to use it)")
    if problem is not None:
        raise IndexUnavailableError(str(path), (
            f"the recall index {path} is a database recall did not write: {problem}. Nothing was changed; "
            "point pi-memory-recall.url at another file, or move this one aside"))
