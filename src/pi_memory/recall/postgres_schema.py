"""The PostgreSQL recall tables, and connecting to the server that holds them.

A messages table (``recall_messages`` by default) is created by the first write, for the
embedder's dimension: the row of :mod:`pi_memory.recall.rows`, a ``vector`` column, a generated
English ``tsvector`` with its GIN index, and ``(session_id, seq)`` for neighbour smoothing; its
word statistics for BM25 (``<table>_terms``, kept by a trigger: :mod:`.postgres_terms`). Its
``_meta`` table records the embedder. The HNSW index is not part of the schema: the index builds
it in bulk when a search or flush first needs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pi_memory.backends import describe_dsn, dsn_problem, redact
from pi_memory.recall.postgres_terms import create_term_counts
from pi_memory.recall.types import IndexUnavailableError

if TYPE_CHECKING:
    import psycopg

__all__ = ["CONNECT_TIMEOUT", "connect", "create_messages_table"]

CONNECT_TIMEOUT = 10
"""Seconds to wait for the server when the URL sets no ``connect_timeout`` (libpq's default waits on
the operating system, minutes for a host that drops packets)."""


def connect(url: str, meta_table: str) -> psycopg.Connection[Any]:
    """Connect and make sure pgvector and the meta table exist; a server that does not answer
    (or refuses us) is an :class:`IndexUnavailableError` naming it, never the password."""
    try:
        import psycopg
        from pgvector.psycopg import register_vector
    except ImportError as exc:  # pragma: no cover - depends on optional packages
        raise ImportError("the PostgreSQL backend needs: pip install 'pi-memory[postgres]'") from exc
    where = describe_dsn(url)
    db: psycopg.Connection[Any] | None = None
    timeout: dict[str, Any] = {} if "connect_timeout" in url else {"connect_timeout": CONNECT_TIMEOUT}
    try:
        db = psycopg.connect(url, autocommit=True, **timeout)
        db.execute("CREATE EXTENSION IF NOT EXISTS vector")
        register_vector(db)
        db.execute(f"CREATE TABLE IF NOT EXISTS {meta_table}(key text PRIMARY KEY, value text NOT NULL)")
        return db
    except psycopg.Error as exc:
        if db is not None:
            db.close()
        first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        reason = dsn_problem(url) or redact(first_line, url)
        raise IndexUnavailableError(where, (
            f"the recall index postgresql://{where} cannot be used ({reason}): check that the server runs and "
            "accepts this user (pgvector installed), or point pi-memory-recall.url (or "
            "$PI_MEMORY_RECALL_URL) at another index")) from None


def create_messages_table(cur: Any, table: str, meta_table: str, embedder: str, dimension: int) -> None:
    """Create ``table`` for vectors of ``dimension`` and record the embedder (the first write)."""
    cur.execute(
        f"""
        CREATE TABLE IF NOT EXISTS {table}(
            seq bigserial PRIMARY KEY,
            id text NOT NULL UNIQUE,
            text text NOT NULL,
            role text NOT NULL,
            timestamp text NOT NULL,
            session_id text NOT NULL,
            metadata jsonb NOT NULL DEFAULT '{{}}',
            embedding vector({dimension}) NOT NULL,
            tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
            access_count integer NOT NULL DEFAULT 0,
            last_access text
        )"""
    )
    cur.execute(f"CREATE INDEX IF NOT EXISTS {table}_session ON {table}(session_id, seq)")
    cur.execute(f"CREATE INDEX IF NOT EXISTS {table}_tsv ON {table} USING gin(tsv)")
    create_term_counts(cur, table)
    cur.execute(
        f"INSERT INTO {meta_table} VALUES ('embedder', %s), ('dimension', %s) ON CONFLICT DO NOTHING",
        (embedder, str(dimension)),
    )

