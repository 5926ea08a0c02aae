"""The embedded default: one SQLite file holding messages, an FTS5 index and the embeddings.

* The file's schema, and refusing a file that is not ours, are :mod:`.sqlite_schema`'s; the
  lexical half (BM25 within the lexical budget) is :mod:`.sqlite_lexical`'s.
* WAL mode with a busy timeout lets several processes (two agents, a backfill) write the same
  file; each ``add`` is one ``BEGIN IMMEDIATE`` transaction committed with ``synchronous=FULL``,
  so a record is durable once ``add`` returns, even if the process is killed a moment later.
* Searches keep the vectors in memory and load only rows added since the last search, checking
  each as it loads (:mod:`.sqlite_vectors`); a delete or a changed text bumps a generation counter
  that makes every process reload.
* A :class:`DenseMirror` (the Chroma backend) gets a copy of every vector and proposes the dense
  candidates, which are then rescored exactly here.
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
from typing import Any, ParamSpec, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from pi_memory.recall.embedders import Embedder, get_embedder
from pi_memory.recall.filters import filter_sql
from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.hybrid import VectorCache, rank, second_stage
from pi_memory.recall.rerank import reranks
from pi_memory.recall.rows import COLUMNS, hit_from_row, now, record_pages
from pi_memory.recall.sqlite_lexical import FtsLexical
from pi_memory.recall.sqlite_schema import DAMAGED, connect, unusable
from pi_memory.recall.sqlite_vectors import StoredVectors
from pi_memory.recall.text import dense_query
from pi_memory.recall.types import (
    AccessStat,
    EmbedderMismatchError,
    Filters,
    Hit,
    Record,
    index_info,
    normalize_record,
)
from pi_memory.recall.vectors import embedded

__all__ = ["DenseMirror", "SQLiteIndex"]

_INSERT = "INSERT INTO messages(id, text, role, timestamp, session_id, metadata, embedding) VALUES "
_UPDATE = "UPDATE messages SET text=?, role=?, timestamp=?, session_id=?, metadata=?, embedding=? WHERE id=?"
_INSERT_ROWS = 500
"""Rows per INSERT statement (fewer where SQLite allows fewer than 3,500 parameters).

One statement for a whole batch, not one per row: FTS5 writes its pending terms out as a new
segment at the end of every statement that fed it through the trigger, so row-by-row inserts
wrote one segment per message and spent most of ``add`` merging them again (63% of the
instructions of storing 20k messages)."""


def _metadata_json(record: Record) -> str:
    metadata = record.get("metadata")
    return json.dumps(metadata, ensure_ascii=False, sort_keys=True) if metadata else "{}"


_P = ParamSpec("_P")
_T = TypeVar("_T")


def _damage_named(method: Callable[_P, _T]) -> Callable[_P, _T]:
    """A damaged page met after opening (a bit flip in the data) is reported like a damaged file
    at open: naming the index and the way out, not as a bare ``database disk image is malformed``."""

    @functools.wraps(method)
    def guarded(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return method(*args, **kwargs)
        except sqlite3.DatabaseError as exc:
            if not any(word in str(exc) for word in DAMAGED):
                raise
            index = args[0]
            assert isinstance(index, SQLiteIndex)
            raise unusable(index.path, exc) from None

    return guarded


class DenseMirror(Protocol):
    """Another home for the vectors that proposes the dense candidates (a Chroma collection).

    The index writes to the mirror before its own file, so a failure in between is retried by
    the next ``add`` (``upsert`` must be idempotent by id); a delete or clear goes to both.
    """

    def check(self) -> None:
        """Raise (:class:`EmbedderMismatchError`) if the mirror holds another embedder's vectors."""
        ...

    def upsert(self, records: list[Record], vectors: npt.NDArray[np.float32]) -> None: ...

    def delete(self, ids: list[str]) -> None: ...

    def clear(self) -> None:
        """Drop every vector and start again with the index's embedder."""
        ...

    def nearest(self, vector: npt.NDArray[np.float32], filters: Filters | None, n: int) -> list[str]:
        """The ids of about ``n`` messages nearest ``vector`` (the filters may be applied loosely:
        the index applies them exactly again)."""
        ...


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
        mirror: Callable[[Embedder], DenseMirror] | None = None,
    ) -> None:
        """``mirror`` makes the mirror for the embedder in use (known once the file is read)."""
        self.path = Path(path)
        self.url = str(self.path)
        self.config = config or SearchConfig()
        self._lock = threading.RLock()
        self._db = connect(self.path, timeout)
        self._fts = FtsLexical(self._db)
        self._stored_space = self._space()
        if embedder is None and self._stored_space is not None:
            embedder = self._stored_space[0]
        self.embedder = get_embedder(embedder) if embedder is None or isinstance(embedder, str) else embedder
        self.mirror = mirror(self.embedder) if mirror is not None else None
        self._vectors = StoredVectors(self._db, str(self.path))

    # ------------------------------------------------------------------ transactions and metadata

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction: takes the write lock up front, so no deadlock on upgrade.

        Our own writes mark the vectors in memory stale here (:meth:`StoredVectors.stale`).
        """
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            finally:
                self._vectors.stale()
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
        if self.mirror is not None:  # refuse a mixed space before the mirror takes any vector
            with self._lock:
                self._check_space(self._db, claim=False)
            self.mirror.check()
        # Embedding (the slow part) holds no lock, so searches on other threads go on meanwhile.
        vectors = embedded(self.embedder, [r["text"] for r in todo])
        if self.mirror is not None:
            self.mirror.upsert(todo, vectors.astype(np.float32))
        self._store(todo, vectors.astype(np.float16))
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
            rows = [(r["id"], r["text"], r["role"], r["timestamp"], r["session_id"], _metadata_json(r), v.tobytes())
                    for r, v in zip(todo, vectors, strict=True)]
            fresh = [row for row in rows if row[0] not in existing]
            per_statement = max(1, min(_INSERT_ROWS, db.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // 7))
            for start in range(0, len(fresh), per_statement):
                chunk = fresh[start : start + per_statement]
                db.execute(_INSERT + ", ".join(["(?,?,?,?,?,?,?)"] * len(chunk)), [v for row in chunk for v in row])
            changed = [(*row[1:], row[0]) for row in rows if row[0] in existing]
            for values in changed:  # a changed text, role or session: in place, keeping seq and access data
                db.execute(_UPDATE, values)
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

    def flush(self) -> None:
        """Nothing is buffered here: ``add`` has committed by the time it returns."""

    @_damage_named
    def delete(self, ids: Sequence[str]) -> int:
        if self.mirror is not None and ids:
            self.mirror.delete(list(ids))
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
        if self.mirror is not None:
            self.mirror.clear()
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
        return self._vectors.load(self.embedder)

    def damage(self) -> str | None:
        """What is wrong with the stored vectors loaded so far, and the way out (None: nothing)."""
        return self._vectors.damage(self.embedder.id)

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
        where, params = filter_sql(filters, alias="m.")
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
        depth = max(top_k, self.config.rerank_depth) if reranks(self.config) else top_k
        ranked = rank(
            cache, vector, lexical, depth, self.config, allowed, self._dense_candidates(vector, filters, cache)
        )
        ranked = second_stage(query, cache, ranked, self.config, top_k)
        if not ranked:
            return []
        seqs = [int(cache.seqs[r.position]) for r in ranked]
        rows = {row[0]: row for row in self._rows_by_seq(seqs)}
        return [hit_from_row(rows[s], r.similarity, r.score) for s, r in zip(seqs, ranked, strict=True) if s in rows]

    def _dense_candidates(
        self, vector: npt.NDArray[np.float32], filters: Filters | None, cache: VectorCache
    ) -> npt.NDArray[np.int64] | None:
        """Positions the dense half may choose from: the mirror's proposals (None: no mirror, every
        message is searched exactly here)."""
        if self.mirror is None:
            return None
        ids = self.mirror.nearest(vector, filters, max(1, min(self.config.candidates, len(cache))))
        if not ids:
            return np.zeros(0, dtype=np.int64)
        marks = ", ".join("?" * len(ids))
        seqs = [row[0] for row in self._db.execute(f"SELECT seq FROM messages WHERE id IN ({marks})", ids)]
        return cache.positions(np.asarray(seqs, dtype=np.int64))

    def _lexical(self, query: str, where: str, params: list[Any], cache: VectorCache) -> dict[int, float]:
        """BM25 of the best ``3 · candidates`` messages (position → score): see :class:`FtsLexical`."""
        scores = self._fts.scores(query, self.config, len(cache), where, params)
        if not scores:
            return {}
        seqs = np.fromiter(scores.keys(), dtype=np.int64, count=len(scores))
        positions = cache.positions(seqs)
        return {int(p): float(v) for p, v in zip(positions, scores.values(), strict=True) if p >= 0}

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

        def page(last: int) -> list[tuple[Any, ...]]:
            with self._lock:
                sql = f"SELECT {COLUMNS} FROM messages WHERE seq > ? ORDER BY seq LIMIT ?"
                return self._db.execute(sql, (last, batch)).fetchall()

        return record_pages(page)

    @_damage_named
    def info(self) -> dict[str, Any]:
        """:func:`index_info` plus ``damaged_vectors``: the stored vectors a search has to leave out
        (every vector is read to count them, as the first search does: about a second per 100k)."""
        with self._lock:
            space = self._space()
            size = sum(p.stat().st_size for p in (self.path, Path(f"{self.path}-wal")) if p.exists())
            info = index_info(self, str(self.path), self.count(), size, space, self.embedder.id)
            damaged = 0
            if space is not None and space == (self.embedder.id, self.embedder.dimension):
                self._db.execute("BEGIN")
                try:
                    damaged = len(self._refresh().damaged)
                finally:
                    self._db.execute("COMMIT")
            return {**info, "damaged_vectors": damaged}

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> SQLiteIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

