"""The PostgreSQL schema's versions (:mod:`pi_memory.backends.schema`): migrating a fresh database
to the latest version once, what a store is told at each state, and a newer schema left alone."""

from __future__ import annotations

import psycopg
import pytest

from pi_memory.backends.schema import LATEST_VERSION, MIGRATIONS, SchemaStatus, migrate, schema_status

pytestmark = pytest.mark.postgres


def test_a_fresh_database_migrates_to_the_latest_version_once(fresh_db: str) -> None:
    with psycopg.connect(fresh_db, autocommit=True) as conn:
        before = schema_status(conn)
        assert before.current is None and not before.up_to_date
        assert before.problem() == "the database has no pi-memory tables yet; run `pi-memory db init`"
        applied = migrate(conn)
        assert [m.version for m in applied] == [m.version for m in MIGRATIONS]
        after = schema_status(conn)
        assert after.current == LATEST_VERSION and after.up_to_date and after.problem() is None
        assert migrate(conn) == []  # nothing pending: a second run changes nothing


def test_what_a_store_is_told_for_a_pending_or_a_newer_schema() -> None:
    pending = SchemaStatus(current=0, latest=1, pending=(MIGRATIONS[0],))
    assert pending.problem() == "the database schema is version 0 of 1; run `pi-memory db migrate`"
    newer = SchemaStatus(current=LATEST_VERSION + 1)
    assert newer.too_new and not newer.up_to_date
    assert "newer than this pi-memory supports" in str(newer.problem())
