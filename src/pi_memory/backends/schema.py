"""The PostgreSQL schema of the memory backend and its migrations.

Every change to the tables is a numbered :class:`Migration` appended to :data:`MIGRATIONS`; the
applied ones are rows of ``pi_memory_schema_version``. Migrating takes a transaction-scoped
advisory lock first, so a fleet of workers starting at once applies each migration exactly once
(the others wait, then find nothing to do). A database whose schema is *newer* than this package
knows is never touched: an older worker must not write rows a newer schema reads differently.

Tables are prefixed ``pi_memory_`` and live in the connection's ``search_path`` (put
``options=-csearch_path=myschema`` in the DSN to use another schema).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["LATEST_VERSION", "MIGRATIONS", "Migration", "SchemaError", "SchemaStatus", "migrate", "schema_status"]

#: pg_advisory_xact_lock key serialising migrations (any fixed 64-bit number; "pimemsch").
MIGRATION_LOCK_KEY = 0x70696D656D736368

VERSION_TABLE = "pi_memory_schema_version"


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    statements: Sequence[str]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "memory files and drift backups",
        (
            """
            CREATE TABLE pi_memory_files (
                namespace  text        NOT NULL,
                target     text        NOT NULL CHECK (target IN ('memory', 'user')),
                content    text,
                updated_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (namespace, target)
            )
            """,
            """
            CREATE TABLE pi_memory_backups (
                namespace  text        NOT NULL,
                name       text        NOT NULL,
                target     text        NOT NULL CHECK (target IN ('memory', 'user')),
                content    text        NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (namespace, name)
            )
            """,
            "CREATE INDEX pi_memory_backups_by_target ON pi_memory_backups (namespace, target, created_at)",
        ),
    ),
)

LATEST_VERSION = MIGRATIONS[-1].version


class SchemaError(Exception):
    """The database schema cannot be used by this version of pi-memory (the message says why)."""


@dataclass(frozen=True)
class SchemaStatus:
    """Where a database stands: ``current`` is ``None`` before ``pi-memory db init``."""

    current: int | None
    latest: int = LATEST_VERSION
    pending: tuple[Migration, ...] = field(default_factory=tuple)

    @property
    def up_to_date(self) -> bool:
        return self.current is not None and not self.pending and self.current <= self.latest

    @property
    def too_new(self) -> bool:
        return self.current is not None and self.current > self.latest

    def problem(self) -> str | None:
        """Why the backend cannot use this schema without a migration, or ``None``."""
        if self.too_new:
            return (
                f"the database schema is version {self.current}, newer than this pi-memory supports "
                f"({self.latest}); upgrade pi-memory on this machine"
            )
        if self.current is None:
            return "the database has no pi-memory tables yet; run `pi-memory db init`"
        if self.pending:
            return f"the database schema is version {self.current} of {self.latest}; run `pi-memory db migrate`"
        return None


def _applied_versions(conn: Any) -> list[int] | None:
    exists = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (VERSION_TABLE,)).fetchone()[0]
    if not exists:
        return None
    return [row[0] for row in conn.execute(f"SELECT version FROM {VERSION_TABLE} ORDER BY version")]


def schema_status(conn: Any) -> SchemaStatus:
    """Read the applied migrations (``conn`` is a psycopg connection; nothing is changed)."""
    applied = _applied_versions(conn)
    if applied is None:
        return SchemaStatus(current=None, pending=MIGRATIONS)
    done = set(applied)
    return SchemaStatus(
        current=max(applied, default=0),
        pending=tuple(m for m in MIGRATIONS if m.version not in done),
    )


def migrate(conn: Any) -> list[Migration]:
    """Apply every pending migration in one transaction; return the ones applied.

    ``conn`` must be an autocommit psycopg connection (the transaction is opened here).
    Raises :class:`SchemaError` when the database is newer than this package.
    """
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK_KEY,))
        conn.execute(
            f"""
            CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (
                version     integer     PRIMARY KEY,
                description text        NOT NULL,
                applied_at  timestamptz NOT NULL DEFAULT now()
            )
            """
        )
        status = schema_status(conn)
        if status.too_new:
            raise SchemaError(status.problem())
        for migration in status.pending:
            for statement in migration.statements:
                conn.execute(statement)
            conn.execute(
                f"INSERT INTO {VERSION_TABLE} (version, description) VALUES (%s, %s)",
                (migration.version, migration.description),
            )
        return list(status.pending)
