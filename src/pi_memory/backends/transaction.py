"""One mutation's transaction on the PostgreSQL backend: the row lock it holds, the text it
queues for the ``COMMIT`` and the drift backups it writes (the :class:`~pi_memory.memory.backend.Transaction`
the store drives); :class:`~pi_memory.backends.postgres.PostgresBackend` opens and ends it."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, Protocol

from pi_memory.memory.backend import RawText

if TYPE_CHECKING:
    import psycopg

__all__ = ["FailedTransaction", "PostgresTransaction", "first_column", "rollback"]


class _Names(Protocol):
    """What a transaction needs from its backend: its namespace and how it names things."""

    namespace: str

    def label(self, target: str) -> str: ...
    def backup_location(self, name: str) -> str: ...


def first_column(row: tuple[Any, ...] | None) -> Any:
    """The first column of a one-row result (queries that always return a row)."""
    if row is None:  # pragma: no cover - aggregate queries always return a row
        raise RuntimeError("the query returned no row")
    return row[0]


def rollback(conn: psycopg.Connection[Any]) -> None:
    """End a failed transaction; a broken connection needs nothing (the server rolled back)."""
    with contextlib.suppress(Exception):
        conn.execute("ROLLBACK")


class FailedTransaction:
    """Handed to the store when no transaction could be opened: ``raw.error`` stops the mutation."""

    def __init__(self, error: str) -> None:
        self.raw = RawText(error=error)

    def write(self, text: str) -> None:  # pragma: no cover - the store never writes over an error
        raise RuntimeError("no database transaction is open")

    def backup(self, raw: RawText) -> str:  # pragma: no cover - drift is not checked after an error
        raise RuntimeError("no database transaction is open")


class PostgresTransaction:
    """The row lock of one target, held by an open database transaction."""

    def __init__(self, backend: _Names, conn: psycopg.Connection[Any], target: str, raw: RawText) -> None:
        self._backend = backend
        self._conn = conn
        self._target = target
        self.raw = raw
        self.pending: str | None = None
        self.changed = False  # a backup row was written

    def write(self, text: str) -> None:
        """Queue the new text; it is sent with the COMMIT (one round trip while the lock is held)."""
        self.pending = text

    def backup(self, raw: RawText) -> str:
        """Keep ``raw`` in ``pi_memory_backups``; identical content is backed up once."""
        ns, label = self._backend.namespace, self._backend.label(self._target)
        found = self._conn.execute(
            "SELECT name FROM pi_memory_backups WHERE namespace = %s AND target = %s AND content = %s "
            "ORDER BY created_at, name LIMIT 1",
            (ns, self._target, raw.text),
        ).fetchone()
        if found is not None:
            return self._backend.backup_location(found[0])
        stamp = int(first_column(self._conn.execute("SELECT floor(extract(epoch FROM clock_timestamp()))").fetchone()))
        base = f"{label}.bak.{stamp}"
        for n in range(1000):
            name = base if n == 0 else f"{base}.{n}"
            inserted = self._conn.execute(
                "INSERT INTO pi_memory_backups (namespace, name, target, content) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT DO NOTHING RETURNING name",
                (ns, name, self._target, raw.text),
            ).fetchone()
            if inserted is not None:
                self.changed = True
                return self._backend.backup_location(name)
        raise RuntimeError(f"could not name a backup of {label} after 1000 tries")  # pragma: no cover
