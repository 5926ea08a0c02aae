"""The embedded default: one SQLite file holding messages, an FTS5 index and the embeddings.

* Messages and their vectors (float16 BLOBs) live in ``messages``; ``messages_fts`` is an
  external-content FTS5 table (``porter unicode61``) kept in step by triggers, so a message and
  its search entries are written in the same transaction.
* WAL mode with a busy timeout lets several processes (two agents, a backfill) write the same
  file; each ``add`` is one ``BEGIN IMMEDIATE`` transaction committed with ``synchronous=FULL``,
  so a record is durable once ``add`` returns, even if the process is killed a moment later.
* Searches keep the vectors in memory (:class:`~pi_memory.recall.hybrid.VectorCache`) and load
  only rows added since the last search; a delete or a changed text bumps a generation counter
  that makes every process reload.
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import numpy as np
import numpy.typing as npt

from pi_memory.recall.embedders import Embedder, get_embedder
from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.hybrid import VectorCache, rank
from pi_memory.recall.rows import COLUMNS, hit_from_row, now, record_from_row
from pi_memory.recall.text import MAX_QUERY_TERMS, budget_split, content_terms, dense_query, fts_match
from pi_memory.recall.types import (
    AccessStat,
    EmbedderMismatchError,
    Filters,
    Hit,
    IndexUnavailableError,
    Record,
    normalize_record,
)

__all__ = ["SQLiteIndex"]

SCHEMA_VERSION = "1"

OPEN_BUSY_TIMEOUT = 2.0
"""Seconds the first read of an existing file may wait for a lock. A reader of a WAL database
never waits for writers (only for a moment of WAL recovery), so a read still blocked after this
long means another program holds the file exclusively (``locking_mode=EXCLUSIVE``, a rollback
journal writer that never commits): we say so now instead of after the 30 s writers may wait."""

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


_P = ParamSpec("_P")
_T = TypeVar("_T")
_DAMAGED = ("malformed", "not a database")


def _damage_named(method: Callable[_P, _T]) -> Callable[_P, _T]:
    """A damaged page met after opening (a bit flip in the data) is reported like a damaged file
    at open: naming the index and the way out, not as a bare ``database disk image is malformed``."""

    @functools.wraps(method)
    def guarded(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return method(*args, **kwargs)
        except sqlite3.DatabaseError as exc:
            if not any(word in str(exc) for word in _DAMAGED):
                raise
            index = args[0]
            assert isinstance(index, SQLiteIndex)
            raise index._unusable(exc) from None

    return guarded


def _as_list(value: str | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def filter_sql(filters: Filters | None, alias: str = "") -> tuple[str, list[Any]]:
    """``AND …`` clauses and parameters for :class:`Filters` (empty when no filter)."""
    if not filters:
        return "", []
    clauses, params = [], []
    for key in ("session_id", "role"):
        if key in filters:
            values = _as_list(filters[key])
            clauses.append(f"{alias}{key} IN ({', '.join('?' * len(values))})")
            params.extend(values)
    if "since" in filters:
        clauses.append(f"{alias}timestamp >= ?")
        params.append(filters["since"])
    if "until" in filters:
        clauses.append(f"{alias}timestamp < ?")
        params.append(filters["until"])
    return "".join(f" AND {c}" for c in clauses), params


class SQLiteIndex:
    """Hybrid (FTS5 + exact dense) recall index in one SQLite file."""

    backend = "sqlite"

    def __init__(
        self,
        path: str | os.PathLike[str],
        embedder: Embedder | str | None = None,
        config: SearchConfig | None = None,
        *,
        timeout: float = 30.0,
    ) -> None:
        self.path = Path(path)
        self.url = str(self.path)
        self.config = config or SearchConfig()
        self._lock = threading.RLock()
        self._open(timeout)
        self._stored_space = self._space()
        if embedder is None and self._stored_space is not None:
            embedder = self._stored_space[0]
        self.embedder = get_embedder(embedder) if embedder is None or isinstance(embedder, str) else embedder
        self._cache: VectorCache | None = None
        self._scratch = False  # the temp tables of _document_frequencies exist
        self._generation = ""
        self._data_version = -1

    def _open(self, timeout: float) -> None:
        """Connect, check that the file is ours (or empty), then create what is missing.

        Every way the file can be unusable becomes an :class:`IndexUnavailableError` that names
        the file and the way out; nothing is written to a file that is not a recall index.
        """
        path = self.path
        if path.is_dir():
            raise IndexUnavailableError(str(path), f"the recall index {path} is a directory, not a database file: "
                                                   f"{_MOVE_ASIDE.format(path=path)}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, timeout=min(timeout, OPEN_BUSY_TIMEOUT), isolation_level=None,
                                       check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise IndexUnavailableError(str(path), f"the recall index {path} cannot be opened ({exc}): check the "
                                                   "path, or point pi-memory-recall.url at another file") from None
        try:
            self._db.execute(f"PRAGMA busy_timeout = {int(min(timeout, OPEN_BUSY_TIMEOUT) * 1000)}")
            self._check_foreign()
            self._db.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            # executescript commits any open transaction first, so the script carries its own.
            self._db.executescript(
                "BEGIN IMMEDIATE;"
                + _SCHEMA
                + f"INSERT OR IGNORE INTO meta VALUES ('schema_version', '{SCHEMA_VERSION}');"
                + "INSERT OR IGNORE INTO meta VALUES ('generation', '0'); COMMIT;"
            )
            self._space()
        except IndexUnavailableError:
            self._db.close()
            raise
        except sqlite3.Error as exc:
            self._db.close()
            raise self._unusable(exc) from None

    def _unusable(self, exc: sqlite3.Error) -> IndexUnavailableError:
        path, text = self.path, str(exc)
        if "locked" in text or "busy" in text:
            return IndexUnavailableError(str(path), (
                f"the recall index {path} is locked by another program (still {text!r} after "
                f"{OPEN_BUSY_TIMEOUT:g} s): close the program that holds it, or point pi-memory-recall.url at "
                "another file"))
        return IndexUnavailableError(str(path), f"the recall index {path} is not a usable recall database "
                                                f"({text}): {_MOVE_ASIDE.format(path=path)}")

    def _check_foreign(self) -> None:
        """Refuse a database that holds tables recall did not write (or a newer schema)."""
        tables = {str(row[0]) for row in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'")}
        if not tables:
            return
        problem: str | None = None
        if "meta" not in tables or "messages" not in tables:
            problem = f"it holds other tables ({', '.join(sorted(tables)[:5])})"
        else:
            meta = [str(row[1]) for row in self._db.execute("PRAGMA table_info(meta)")]
            columns = {str(row[1]) for row in self._db.execute("PRAGMA table_info(messages)")}
            version = None
            if meta == ["key", "value"]:
                row = self._db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
                version = None if row is None else str(row[0])
            if version is None or not columns >= _MESSAGE_COLUMNS:
                problem = "its tables are not the ones recall writes"
            elif version != SCHEMA_VERSION:
                problem = (f"it has recall schema version {version}; this version of pi-memory reads "
                           f"{SCHEMA_VERSION} (a newer pi-memory wrote it: upgrade pi-memory to use it)")
        if problem is not None:
            raise IndexUnavailableError(str(self.path), (
                f"the recall index {self.path} is a database recall did not write: {problem}. Nothing was changed; "
                "point pi-memory-recall.url at another file, or move this one aside"))

    # ------------------------------------------------------------------ transactions and metadata

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction: takes the write lock up front, so no deadlock on upgrade.

        ``PRAGMA data_version`` only moves for other connections' commits, so our own writes
        mark the vector cache stale here.
        """
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            finally:
                self._data_version = -1
            self._db.execute("COMMIT")

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _space(self) -> tuple[str, int] | None:
        name, dimension = self._meta("embedder"), self._meta("dimension")
        return None if name is None or dimension is None else (name, int(dimension))

    def _check_space(self, db: sqlite3.Connection, claim: bool) -> None:
        """Refuse to mix vector spaces; the first write records the embedder."""
        space = self._space()
        mine = (self.embedder.id, self.embedder.dimension)
        if space is None:
            if claim:
                db.execute("INSERT OR REPLACE INTO meta VALUES ('embedder', ?)", (mine[0],))
                db.execute("INSERT OR REPLACE INTO meta VALUES ('dimension', ?)", (str(mine[1]),))
            return
        if space != mine:
            raise EmbedderMismatchError(space[0], space[1], *mine)

    def _bump_generation(self, db: sqlite3.Connection) -> None:
        db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")

    # ------------------------------------------------------------------ writing

    @_damage_named
    def add(self, records: Iterable[Mapping[str, Any]]) -> int:
        todo = self._pending(records)
        if not todo:
            return 0
        # Embedding (the slow part) holds no lock, so searches on other threads go on meanwhile.
        vectors = self.embedder.embed([r["text"] for r in todo]).astype(np.float16)
        self._store(todo, vectors)
        return len(todo)

    def _pending(self, records: Iterable[Mapping[str, Any]]) -> list[Record]:
        """The records that are new or changed (by text, role or session), last one per id."""
        unique = list({r["id"]: r for r in (normalize_record(r) for r in records)}.values())
        if not unique:
            return []
        with self._lock:
            existing = self._existing_texts([r["id"] for r in unique])
        return [r for r in unique if existing.get(r["id"]) != (r["text"], r["role"], r["session_id"])]

    def _store(self, todo: list[Record], vectors: npt.NDArray[np.float16]) -> None:
        with self._lock, self._write() as db:
            self._check_space(db, claim=True)
            # Another thread or process may have written some of these ids since the look above.
            existing = self._existing_texts([r["id"] for r in todo])
            changed = False
            for record, vector in zip(todo, vectors, strict=True):
                changed |= self._upsert(db, record, vector.tobytes(), record["id"] in existing)
            if changed:
                self._bump_generation(db)

    def _existing_texts(self, ids: list[str]) -> dict[str, tuple[str, str, str]]:
        found: dict[str, tuple[str, str, str]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = self._db.execute(
                f"SELECT id, text, role, session_id FROM messages WHERE id IN ({', '.join('?' * len(chunk))})", chunk
            )
            found.update({row[0]: (row[1], row[2], row[3]) for row in rows})
        return found

    @staticmethod
    def _upsert(db: sqlite3.Connection, record: Record, blob: bytes, exists: bool) -> bool:
        """Insert, or update in place (keeping seq and access data). Returns True for an update."""
        metadata = json.dumps(record.get("metadata") or {}, ensure_ascii=False, sort_keys=True)
        values = (record["text"], record["role"], record["timestamp"], record["session_id"], metadata, blob)
        if exists:
            db.execute(
                "UPDATE messages SET text=?, role=?, timestamp=?, session_id=?, metadata=?, embedding=? WHERE id=?",
                (*values, record["id"]),
            )
            return True
        db.execute(
            "INSERT INTO messages(id, text, role, timestamp, session_id, metadata, embedding) VALUES (?,?,?,?,?,?,?)",
            (record["id"], *values),
        )
        return False

    def flush(self) -> None:
        """Nothing is buffered here: ``add`` has committed by the time it returns."""

    @_damage_named
    def delete(self, ids: Sequence[str]) -> int:
        removed = 0
        with self._write() as db:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                cursor = db.execute(f"DELETE FROM messages WHERE id IN ({', '.join('?' * len(chunk))})", chunk)
                removed += cursor.rowcount
            if removed:
                self._bump_generation(db)
        return removed

    @_damage_named
    def clear(self) -> None:
        """Drop every message and the recorded embedder (``reindex`` starts from here)."""
        with self._write() as db:
            db.execute("DELETE FROM messages")
            db.execute("DELETE FROM meta WHERE key IN ('embedder', 'dimension')")
            self._bump_generation(db)

    @_damage_named
    def record_access(self, ids: Sequence[str], when: str | None = None) -> None:
        stamp = when or now()
        with self._write() as db:
            db.executemany(
                "UPDATE messages SET access_count = access_count + 1, last_access = ? WHERE id = ?",
                [(stamp, i) for i in ids],
            )

    # ------------------------------------------------------------------ reading

    @_damage_named
    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM messages").fetchone()[0])

    def _refresh(self) -> VectorCache:
        """Bring the in-memory vectors up to date with the file (cheap when nothing changed)."""
        version = int(self._db.execute("PRAGMA data_version").fetchone()[0])
        generation = self._meta("generation") or "0"
        if self._cache is None or generation != self._generation or self._cache.dimension != self.embedder.dimension:
            self._cache = VectorCache(self.embedder.dimension)
        elif version == self._data_version and self._cache is not None:
            return self._cache
        cache = self._cache
        rows = self._db.execute(
            "SELECT seq, session_id, embedding FROM messages WHERE seq > ? ORDER BY seq", (cache.last_seq,)
        ).fetchall()
        if rows:
            vectors = np.frombuffer(b"".join(r[2] for r in rows), dtype=np.float16).reshape(len(rows), -1)
            cache.append([r[0] for r in rows], [r[1] for r in rows], vectors.astype(np.float32))
        self._generation, self._data_version = generation, version
        return cache

    @_damage_named
    def search(self, query: str, top_k: int = 5, filters: Filters | None = None) -> list[Hit]:
        with self._lock:
            self._db.execute("BEGIN")
            try:
                return self._search(query, top_k, filters)
            finally:
                self._db.execute("COMMIT")

    def _search(self, query: str, top_k: int, filters: Filters | None) -> list[Hit]:
        if self._space() is None:
            return []
        self._check_space(self._db, claim=False)
        cache = self._refresh()
        where, params = filter_sql(filters, "m.")
        allowed = None
        if where:
            matching = np.fromiter(
                (r[0] for r in self._db.execute(f"SELECT seq FROM messages m WHERE 1{where}", params)), dtype=np.int64
            )
            allowed = np.zeros(len(cache), dtype=bool)
            positions = cache.positions(matching)
            allowed[positions[positions >= 0]] = True
        lexical = self._lexical(query, where, params, cache)
        vector = self.embedder.embed([dense_query(query, self.config)])[0]
        ranked = rank(
            cache, vector, lexical, top_k, self.config, allowed, self._dense_candidates(vector, filters, cache)
        )
        if not ranked:
            return []
        seqs = [int(cache.seqs[r.position]) for r in ranked]
        rows = {row[0]: row for row in self._rows_by_seq(seqs)}
        return [hit_from_row(rows[s], r.similarity, r.score) for s, r in zip(seqs, ranked, strict=True) if s in rows]

    def _dense_candidates(
        self, vector: npt.NDArray[np.float32], filters: Filters | None, cache: VectorCache
    ) -> npt.NDArray[np.int64] | None:
        """Positions the dense half may choose from (None: every message, searched exactly here)."""
        return None

    def _lexical(self, query: str, where: str, params: list[Any], cache: VectorCache) -> dict[int, float]:
        """BM25 of the best ``3 · candidates`` messages (position → score).

        With every query word this is one FTS5 query. On a large index, common words make that
        expensive (FTS5 scores every message matching any word of the OR), so the words are split
        by :meth:`_split` into rare and common ones and two cheap queries give the same top list
        for every message that holds a rare word: BM25 over the rare words, and BM25 over all
        words for the messages that hold a rare *and* a common word (an AND that FTS5 evaluates by
        skipping through the common words' postings). A message's full score is the second when
        it has one, else the first (it holds no common word); both lists are already cut to the
        top ``3 · candidates``, which keeps the exact top list because adding words only raises
        a BM25 score. Messages holding only common words are left out — their scores are the
        lowest anyway. If every word is common, the newest ``budget`` matches are scored.
        """
        if self.config.fusion == "dense":
            return {}
        words = content_terms(query, self.config.stopwords)[:MAX_QUERY_TERMS]
        rare, common, window = self._split(words, len(cache))
        limit = self.config.candidates * 3
        join = " JOIN messages m ON m.seq = f.rowid" if where else ""
        base = (
            f"SELECT f.rowid AS rowid, -bm25(messages_fts) AS score FROM messages_fts f{join}"
            f" WHERE messages_fts MATCH ?{where}"
        )
        scores: dict[int, float] = {}
        if window:
            newest = f"{base} ORDER BY f.rowid DESC LIMIT {int(window)}"
            sql = f"SELECT rowid, score FROM ({newest}) ORDER BY score DESC LIMIT ?"
            scores = dict(self._db.execute(sql, [fts_match(common), *params, limit]).fetchall())
        elif rare:
            ranked = f"{base} ORDER BY bm25(messages_fts) LIMIT ?"
            scores = dict(self._db.execute(ranked, [fts_match(rare), *params, limit]).fetchall())
            if common:
                both = f"({fts_match(rare)}) AND ({fts_match(common)})"
                scores.update(self._db.execute(ranked, [both, *params, limit]).fetchall())
                scores = dict(sorted(scores.items(), key=lambda item: -item[1])[:limit])
        if not scores:
            return {}
        seqs = np.fromiter(scores.keys(), dtype=np.int64, count=len(scores))
        positions = cache.positions(seqs)
        return {int(p): float(v) for p, v in zip(positions, scores.values(), strict=True) if p >= 0}

    def _split(self, words: list[str], size: int) -> tuple[list[str], list[str], int]:
        """(rare words, common words, window) for ``config.lexical_budget``.

        Words are rare, rarest first, while their document counts add up to at most the budget;
        the rest are common. When not even the rarest fits, all are common and the window is the
        budget. Nothing is looked up when every word matching every message would fit (small
        indexes: LoCoMo's conversations never reach it).
        """
        budget = self.config.lexical_budget
        if budget <= 0 or size * len(words) <= budget:
            return words, [], 0
        return budget_split(words, self._document_frequencies(words), budget)

    def _document_frequencies(self, words: list[str]) -> dict[str, int]:
        """Messages containing each word, as FTS5 tokenizes it (porter stems; a word that splits
        into several tokens is a phrase, counted by its rarest token).

        The words go through a scratch FTS5 table with the same tokenizer (private to this
        connection, in its temp schema), and ``fts5vocab`` reads the counts off the index.
        """
        db = self._db
        if not self._scratch:
            db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_query USING fts5(text, tokenize='porter unicode61')"
            )
            db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_query_tokens USING "
                "fts5vocab(temp, recall_query, instance)"
            )
            db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_vocab USING fts5vocab(main, messages_fts, row)")
            self._scratch = True
        db.execute("DELETE FROM temp.recall_query")
        db.executemany("INSERT INTO temp.recall_query(rowid, text) VALUES (?, ?)", list(enumerate(words)))
        tokens = db.execute("SELECT DISTINCT term, doc FROM temp.recall_query_tokens").fetchall()
        stems = sorted({t for t, _ in tokens})
        marks = ", ".join("?" * len(stems))
        counts = dict(db.execute(f"SELECT term, doc FROM temp.recall_vocab WHERE term IN ({marks})", stems).fetchall())
        frequency: dict[str, int] = {}
        for term, row in tokens:
            word = words[int(row)]
            frequency[word] = min(frequency.get(word, 1 << 62), int(counts.get(term, 0)))
        return frequency

    def _rows_by_seq(self, seqs: list[int]) -> list[tuple[Any, ...]]:
        marks = ", ".join("?" * len(seqs))
        return self._db.execute(f"SELECT {COLUMNS} FROM messages WHERE seq IN ({marks})", seqs).fetchall()

    @_damage_named
    def get(self, ids: Sequence[str]) -> list[Hit]:
        with self._lock:
            found: dict[str, Hit] = {}
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                marks = ", ".join("?" * len(chunk))
                for row in self._db.execute(f"SELECT {COLUMNS} FROM messages WHERE id IN ({marks})", chunk):
                    found[row[1]] = hit_from_row(row, 0.0, 0.0)
            return [found[i] for i in ids if i in found]

    @_damage_named
    def access_stats(self, ids: Sequence[str] | None = None) -> list[AccessStat]:
        with self._lock:
            sql = "SELECT id, timestamp, access_count, last_access FROM messages"
            if ids is None:
                rows = self._db.execute(sql + " ORDER BY seq").fetchall()
            else:
                rows = []
                for start in range(0, len(ids), 500):
                    chunk = list(ids[start : start + 500])
                    rows += self._db.execute(sql + f" WHERE id IN ({', '.join('?' * len(chunk))})", chunk).fetchall()
            return [AccessStat(r[0], r[1], int(r[2]), r[3]) for r in rows]

    def iter_records(self, batch: int = 1000) -> Iterator[list[Record]]:
        """Every stored record in insertion order (what ``reindex`` re-embeds)."""
        last = 0
        while True:
            with self._lock:
                rows = self._db.execute(
                    f"SELECT {COLUMNS} FROM messages WHERE seq > ? ORDER BY seq LIMIT ?", (last, batch)
                ).fetchall()
            if not rows:
                return
            last = rows[-1][0]
            yield [record_from_row(r) for r in rows]

    @_damage_named
    def info(self) -> dict[str, Any]:
        with self._lock:
            space = self._space()
            size = sum(p.stat().st_size for p in (self.path, Path(f"{self.path}-wal")) if p.exists())
            return {
                "backend": self.backend,
                "location": str(self.path),
                "count": self.count(),
                "size_bytes": size,
                "embedder": space[0] if space else None,
                "dimension": space[1] if space else None,
                "embedder_in_use": self.embedder.id,
            }

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> SQLiteIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()



def vectors_of(index: SQLiteIndex) -> npt.NDArray[np.float32]:
    """The cached matrix (tests and benchmarks)."""
    with index._lock:
        return index._refresh().matrix
