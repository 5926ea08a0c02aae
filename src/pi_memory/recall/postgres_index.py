"""PostgreSQL backend: pgvector (HNSW, cosine) for the dense half, ``tsvector`` for the lexical.

For fleets: many agents on many machines share one database, and the same engine can hold
curated memory. Differences from the SQLite default, on purpose:

* Dense search is approximate (HNSW, ``hnsw.ef_search`` raised to the candidate count): exact
  numpy search does not scale past one process's memory; the recall cost is measured in
  ``bench/recall_bench.py``.
* Lexical ranking is BM25 (FTS5's function) over an English ``tsvector`` (stemmed, stopwords
  removed by PostgreSQL), from word statistics a trigger keeps exact in the same transaction as
  the rows (:mod:`.postgres_terms`); a table made by an older pi-memory gets them the first time
  it is opened. It ranks only the messages holding the query's rarest words (the lexical
  budget, as on SQLite): ranking every match read most of the table.
* Neighbour smoothing reads the previous/next message of each candidate by ``(session_id, seq)``,
  in the same statement as both halves' candidates (:mod:`.postgres_candidates`).
* The HNSW index is built in bulk, not row by row: pgvector (0.6) inserting one row into an
  existing graph costs ~20× what a ``CREATE INDEX`` pays per row (it re-prunes the neighbours'
  lists from disk), and that was nearly all of ``add``'s time (~150 rows/s). So a new table
  takes rows without the index, and the first ``search`` or ``flush`` builds it over everything
  at once; from then on rows join it one by one — until a handle has added, with no search of
  its own in between, as many rows as a rebuild is worth (a backfill into a large index): it
  drops the index and the rest of the load goes in bulk too. While a handle loads, other
  processes' searches scan exactly instead of building the index under it.

Needs ``pip install 'pi-memory[postgres]'`` (psycopg 3 + pgvector) and the ``vector`` extension.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from pi_memory.backends import redact, remember_dsn
from pi_memory.recall.embedders import Embedder, get_embedder
from pi_memory.recall.filters import filter_sql
from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.hybrid import fuse_candidates
from pi_memory.recall.postgres_candidates import read_candidates
from pi_memory.recall.postgres_lexical import TsLexical
from pi_memory.recall.postgres_schema import connect, create_messages_table
from pi_memory.recall.postgres_terms import create_term_counts, drop_term_counts, has_term_counts, term_counts_probe
from pi_memory.recall.rerank import previous_indices, rerank_hits, reranks
from pi_memory.recall.rows import COLUMNS, hit_from_row, now, record_pages
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
from pi_memory.recall.vectors import embedded, query_direction

__all__ = ["PostgresIndex"]


#: ``maintenance_work_mem`` for an HNSW build: pgvector builds in memory (fast) until the graph
#: outgrows it, then falls back to per-row inserts (slow). A row takes its vector (4 bytes a
#: dimension) plus about 1 KB of neighbour lists at pgvector's default m=16; the cap keeps one
#: build from taking more than 1 GB of the server's memory.
_BUILD_BYTES_PER_NODE = 1024
_BUILD_MEMORY_CAP = 1 << 30
#: A row inserted into a built HNSW index costs about this many times what a bulk build pays per
#: row (measured ~20× with pgvector 0.6 at 10k rows of 256 dimensions; rounded down). A handle
#: that has paid a rebuild's worth of single inserts since its last search drops the index and
#: loads the rest in bulk — the ski-rental rule: never much more than twice the cheaper choice.
_INSERT_COST_RATIO = 16
#: Rows per INSERT statement of an ``add``: the word-statistics trigger runs once per statement,
#: so one statement per batch (not one per row) pays its fixed cost once; 7 parameters a row.
_INSERT_ROWS = 1_000


class PostgresIndex:
    """Hybrid recall index in PostgreSQL (``postgresql://…`` URL); tables prefixed ``recall_``."""

    backend = "postgres"

    def __init__(
        self,
        url: str,
        embedder: Embedder | str | None = None,
        config: SearchConfig | None = None,
        *,
        table: str = "recall_messages",
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        """``progress(done, total)`` follows the one-time count of an existing table's words for
        BM25 (a table an older pi-memory made; default: a line on stderr per 10,000 messages when
        the table holds 20,000 or more)."""
        if not table.isidentifier():
            raise ValueError(f"invalid table name {table!r}")
        self.url = url
        self.config = config or SearchConfig()
        self._table = table
        self._ann = f"{table}_hnsw"
        #: held (shared, per session) while this handle loads rows the ANN index does not have yet
        self._loading_key = f"{table}:loading"
        self._loading = False
        self._paid = 0  # rows inserted into a built ANN index since this handle's last search
        self._meta_table = f"{table}_meta"
        self._lock = threading.RLock()
        remember_dsn(url)  # its password is scrubbed from every message and log line from now on
        self._db = connect(url, self._meta_table)
        self._fts = TsLexical(self._db, table)
        self._progress = progress
        self._ensure_term_counts()
        stored = self._space()
        if embedder is None and stored is not None:
            embedder = stored[0]
        self.embedder = get_embedder(embedder) if embedder is None or isinstance(embedder, str) else embedder

    # ------------------------------------------------------------------ schema and metadata

    def _meta(self, ef_search: int | None = None) -> dict[str, str | None]:
        """The recorded ``embedder`` and ``dimension``, ``ann`` (the HNSW index, ``None`` while it
        is not built) and ``terms`` (``'3'`` while the word statistics are kept) — one round trip,
        as every search starts with it. ``ef_search`` sets ``hnsw.ef_search`` for the connection
        in the same round trip (a ``SET LOCAL`` per search took a transaction: three more)."""
        probe, args = term_counts_probe(self._table)
        ef = f" UNION ALL SELECT 'ef', set_config('hnsw.ef_search', '{ef_search:d}', false)" if ef_search else ""
        rows = self._db.execute(
            f"SELECT key, value FROM {self._meta_table} UNION ALL SELECT 'ann', to_regclass(%s)::text"
            f" UNION ALL SELECT 'terms', {probe}{ef}",
            (self._ann, *args),
        ).fetchall()
        return dict(rows)

    def _space(self, meta: Mapping[str, str | None] | None = None) -> tuple[str, int] | None:
        rows = self._meta() if meta is None else meta
        if rows.get("embedder") is None or rows.get("dimension") is None:
            return None
        return str(rows["embedder"]), int(str(rows["dimension"]))

    def _check_space(self, meta: Mapping[str, str | None] | None = None) -> bool:
        """True when the index has a recorded space (raises if it is not the embedder's)."""
        space = self._space(meta)
        if space is not None and space != (self.embedder.id, self.embedder.dimension):
            raise EmbedderMismatchError(space[0], space[1], self.embedder.id, self.embedder.dimension)
        return space is not None

    def _ensure_table(self, cur: Any) -> None:
        """Create the messages table for the embedder's dimension (first write) or refuse a mismatch."""
        if self._check_space():
            return
        # no HNSW index yet: _ensure_ann builds it in bulk when the first search or flush needs it
        create_messages_table(cur, self._table, self._meta_table, self.embedder.id, self.embedder.dimension)

    def _ensure_term_counts(self) -> None:
        """Give a table without word statistics its statistics (one made by an older pi-memory, or
        re-created by one): counted from its rows under the writers' lock, once — a second
        process opening it meanwhile waits, then finds them made."""
        with self._lock:
            if not self._has_table() or has_term_counts(self._db, self._table):
                return
            with self._db.transaction(), self._db.cursor() as cur:
                cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self._table,))
                if not has_term_counts(cur, self._table):
                    create_term_counts(cur, self._table, self._progress)

    # ------------------------------------------------------------------ writing

    def add(self, records: Iterable[Mapping[str, Any]]) -> int:
        batch = list({r["id"]: r for r in (normalize_record(r) for r in records)}.values())
        if not batch:
            return 0
        # Embed outside the transaction and its lock (as SQLite does): other writers wait only
        # for the insert, and a retried batch embeds only what is new or changed.
        with self._lock:
            todo = self._changed(self._db, batch)
        if not todo:
            return 0
        vectors = dict(zip([r["id"] for r in todo], embedded(self.embedder, [r["text"] for r in todo]), strict=True))
        with self._lock, self._db.transaction(), self._db.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self._table,))
            self._ensure_table(cur)
            todo = self._changed(cur, todo)  # another writer may have stored some meanwhile
            if not todo:
                return 0
            self._pace(cur, len(todo))
            # One statement per thousand rows and one commit per batch (the word statistics'
            # trigger runs per statement); upserts by id leave access_count and last_access alone.
            for start in range(0, len(todo), _INSERT_ROWS):
                chunk = todo[start : start + _INSERT_ROWS]
                values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s)"] * len(chunk))
                cur.execute(
                    f"""INSERT INTO {self._table}(id, text, role, timestamp, session_id, metadata, embedding)
                    VALUES {values}
                    ON CONFLICT (id) DO UPDATE SET text = excluded.text, role = excluded.role,
                        timestamp = excluded.timestamp, session_id = excluded.session_id,
                        metadata = excluded.metadata, embedding = excluded.embedding""",
                    [
                        value
                        for r in chunk
                        for value in (r["id"], r["text"], r["role"], r["timestamp"], r["session_id"],
                                      json.dumps(r.get("metadata") or {}), vectors[r["id"]])
                    ],
                )
            return len(todo)

    def _pace(self, cur: Any, rows: int) -> None:
        """Decide how ``rows`` more reach the ANN index: one by one, or in bulk once the load is over.

        Called inside ``add``'s transaction, under the writers' lock. Rows go into a built index
        one by one until this handle has paid a rebuild's worth (``_INSERT_COST_RATIO``); then the
        index is dropped (readers wait for this commit only) and rebuilt by the next search or
        ``flush``. While the index is missing, the handle holds the loading lock so that other
        processes' searches scan exactly rather than build it between two batches of the load.
        """
        if self._has_ann(cur):
            self._paid += rows
            # the planner's row estimate (set by the build, kept by autovacuum): a count(*) per
            # add would cost a scan of a large table; -1 means never estimated, so count then
            row = cur.execute(
                f"SELECT CASE WHEN reltuples < 0 THEN (SELECT count(*) FROM {self._table}) ELSE reltuples END"
                " FROM pg_class WHERE oid = %s::regclass",
                (self._table,),
            ).fetchone()
            if self._paid * _INSERT_COST_RATIO < (int(row[0]) if row else 0) + rows:
                return
            cur.execute(f"DROP INDEX {self._ann}")
        if not self._loading:  # a session lock: released by flush, our own search, or closing
            cur.execute("SELECT pg_advisory_lock_shared(hashtext(%s))", (self._loading_key,))
            self._loading = True

    def _changed(self, db: Any, batch: list[Record]) -> list[Record]:
        """The records of ``batch`` not stored yet, or stored with another text, role or session."""
        if not self._has_table(db):
            return batch
        rows = db.execute(
            f"SELECT id, text, role, session_id FROM {self._table} WHERE id = ANY(%s)", ([r["id"] for r in batch],)
        ).fetchall()
        existing = {row[0]: tuple(row[1:]) for row in rows}
        return [r for r in batch if existing.get(r["id"]) != (r["text"], r["role"], r["session_id"])]

    def _ensure_ann(self, *, wait: bool) -> bool:
        """Build the HNSW index over the stored rows if it is missing; True when it exists.

        Runs under the writers' advisory lock, so rows never arrive mid-build and two processes
        never build it twice. ``wait=False`` (a search) gives up at once while another process
        writes, builds or loads (holds the loading lock), and the search scans exactly. Either
        way this handle's own load is over: it lets go of the loading lock.
        """
        self._paid = 0
        if self._has_ann():
            self._end_load()
            return True
        if not self._has_table():
            return False
        with self._db.transaction(), self._db.cursor() as cur:
            if wait:
                cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self._table,))
            else:
                row = cur.execute(
                    "SELECT pg_try_advisory_xact_lock(hashtext(%s)) AND pg_try_advisory_xact_lock(hashtext(%s))",
                    (self._table, self._loading_key),
                ).fetchone()
                if not (row and row[0]):
                    return False
            if not self._has_ann(cur):
                self._build_ann(cur)
        self._end_load()
        return True

    def _end_load(self) -> None:
        if self._loading:
            self._db.execute("SELECT pg_advisory_unlock_shared(hashtext(%s))", (self._loading_key,))
            self._loading = False

    def _build_ann(self, cur: Any) -> None:
        """``CREATE INDEX`` the HNSW graph over every row, with memory enough to build it in RAM."""
        row = cur.execute(
            f"SELECT count(*), pg_size_bytes(current_setting('maintenance_work_mem')) FROM {self._table}"
        ).fetchone()
        rows, current = (int(row[0]), int(row[1])) if row else (0, 0)
        wanted = min(_BUILD_MEMORY_CAP, rows * (4 * self.embedder.dimension + _BUILD_BYTES_PER_NODE))
        if wanted > current:
            cur.execute(f"SET LOCAL maintenance_work_mem = '{wanted // 1024}kB'")
        cur.execute(f"CREATE INDEX IF NOT EXISTS {self._ann} ON {self._table} USING hnsw (embedding vector_cosine_ops)")
        # fresh planner statistics right after a load (the GIN lookups' plans), rather than
        # whenever autovacuum gets to it; ANALYZE samples ~30k rows, a second at most. BM25's
        # word counts are not these: the trigger keeps them exact (postgres_terms)
        cur.execute(f"ANALYZE {self._table}")

    def flush(self) -> None:
        """Build the HNSW index if rows arrived without one (``add`` itself commits before it returns)."""
        with self._lock:
            self._ensure_ann(wait=True)

    def _has_table(self, db: Any = None) -> bool:
        row = (db or self._db).execute("SELECT to_regclass(%s)", (self._table,)).fetchone()
        return row is not None and row[0] is not None

    def _has_ann(self, db: Any = None) -> bool:
        row = (db or self._db).execute("SELECT to_regclass(%s)", (self._ann,)).fetchone()
        return row is not None and row[0] is not None

    def delete(self, ids: Sequence[str]) -> int:
        with self._lock:
            if not self._has_table():
                return 0
            # under the writers' lock: an add upserting one of these ids waits rather than
            # deadlocking with this delete on the word statistics
            with self._db.transaction(), self._db.cursor() as cur:
                cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self._table,))
                cur.execute(f"DELETE FROM {self._table} WHERE id = ANY(%s)", (list(ids),))
                return int(cur.rowcount)

    def clear(self) -> None:
        """Drop the messages and the recorded embedder (``reindex`` starts from here)."""
        self._paid = 0
        with self._lock, self._db.transaction(), self._db.cursor() as cur:
            cur.execute(f"DROP TABLE IF EXISTS {self._table}")
            drop_term_counts(cur, self._table)
            cur.execute(f"DELETE FROM {self._meta_table}")

    def record_access(self, ids: Sequence[str], when: str | None = None) -> None:
        with self._lock:
            self._db.execute(
                f"UPDATE {self._table} SET access_count = access_count + 1, last_access = %s WHERE id = ANY(%s)",
                (when or now(), list(ids)),
            )

    # ------------------------------------------------------------------ reading

    def count(self) -> int:
        with self._lock:
            if not self._has_table():
                return 0
            row = self._db.execute(f"SELECT count(*) FROM {self._table}").fetchone()
            return int(row[0]) if row else 0

    def search(self, query: str, top_k: int = 5, filters: Filters | None = None) -> list[Hit]:
        with self._lock:
            n = self.config.candidates
            meta = self._meta(ef_search=max(40, n * 2))
            if not self._check_space(meta) or top_k <= 0:
                return []
            if meta.get("terms") != "3":  # the table was re-created by an older pi-memory
                self._ensure_term_counts()
            where, params = filter_sql(filters, mark="%s", arrays=True)
            vector = self.embedder.embed([dense_query(query, self.config)])[0]
            lexical = self._fts.statement(query, self.config, where, params) if self.config.fusion != "dense" else None
            self._paid = 0  # a handle that searches is no backfill: its rows keep joining the index one by one
            # pgvector's cosine distance to a zero vector is NaN: a query of no known word ranks nothing by meaning
            use_dense = self.config.fusion != "lexical" and query_direction(vector) is not None
            if use_dense:
                if meta.get("ann") is None:  # build it; while another process loads, the scan is exact
                    self._ensure_ann(wait=False)
                else:
                    self._end_load()
            # a lexical hit's neighbours share its score though they match nothing, as on SQLite (filtered below)
            found = read_candidates(self._db, self._table, lexical,
                                    (vector, n) if use_dense else None,
                                    where, params, bool(self.config.neighbour_lexical))
            second_stage = reranks(self.config)
            depth = max(top_k, self.config.rerank_depth) if second_stage else top_k
            ranked = fuse_candidates(found.lexical, found.dense, found.cosines, found.neighbours, depth, self.config)
            if not ranked:
                return []
            # each hit's own cosine read with its row (a lexical-only hit has none in ``cosines``); Hit clips NaN
            sql = f"SELECT {COLUMNS}, 1 - (embedding <=> %s) FROM {self._table} WHERE seq = ANY(%s){where}"
            rows = {row[0]: row for row in self._db.execute(sql, (vector, [s for s, _ in ranked], *params)).fetchall()}
            kept = [(s, score) for s, score in ranked if s in rows]
            hits = [hit_from_row(rows[s][:-1], float(rows[s][-1]), score) for s, score in kept]
            # the same second stage as SQLite's over the fetched rows (the turn before each: its neighbours')
            previous = previous_indices([s for s, _ in kept], {s: p for s, (p, _) in found.neighbours.items()})
            return rerank_hits(query, hits, self.config, top_k, previous) if second_stage else hits

    def get(self, ids: Sequence[str]) -> list[Hit]:
        with self._lock:
            if not self._has_table():
                return []
            rows = self._db.execute(f"SELECT {COLUMNS} FROM {self._table} WHERE id = ANY(%s)", (list(ids),))
            found = {row[1]: hit_from_row(row, 0.0, 0.0) for row in rows.fetchall()}
            return [found[i] for i in ids if i in found]

    def access_stats(self, ids: Sequence[str] | None = None) -> list[AccessStat]:
        with self._lock:
            if not self._has_table():
                return []
            sql = f"SELECT id, timestamp, access_count, last_access FROM {self._table}"
            if ids is None:
                rows = self._db.execute(sql + " ORDER BY seq").fetchall()
            else:
                rows = self._db.execute(sql + " WHERE id = ANY(%s)", (list(ids),)).fetchall()
            return [AccessStat(r[0], r[1], int(r[2]), r[3]) for r in rows]

    def iter_records(self, batch: int = 1000) -> Iterator[list[Record]]:
        """Every stored record in insertion order (what ``reindex`` re-embeds)."""

        def page(last: int) -> list[tuple[Any, ...]]:
            with self._lock:
                if not self._has_table():
                    return []
                sql = f"SELECT {COLUMNS} FROM {self._table} WHERE seq > %s ORDER BY seq LIMIT %s"
                return self._db.execute(sql, (last, batch)).fetchall()

        return record_pages(page)

    def info(self) -> dict[str, Any]:
        with self._lock:
            space = self._space()
            size = 0
            if self._has_table():
                row = self._db.execute("SELECT pg_total_relation_size(%s)", (self._table,)).fetchone()
                size = int(row[0]) if row else 0
            return index_info(self, redact(self.url, self.url), self.count(), size, space, self.embedder.id)

    def close(self) -> None:
        with self._lock:
            self._db.close()
