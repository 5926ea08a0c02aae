"""PostgreSQL-only behaviour: the HNSW index is built in bulk, and several writers share a table.

Real PostgreSQL (the session's ``pgserver``); each test uses its own tables.
"""

from __future__ import annotations

import itertools
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pi_memory.recall.backfill import FLUSH_STEP, backfill
from pi_memory.recall.postgres_index import PostgresIndex
from pi_memory.recall.reindex import reindex

from .conftest import record

_names = itertools.count()

TEXTS = [
    "We moved the staging database to Frankfurt last week",
    "My daughter starts violin lessons on Tuesday",
    "Deploy failed: the migration timed out on the orders table",
    "I prefer tabs over spaces in Go code",
    "The quarterly audit is due in June",
]


def records(start: int, stop: int, session: str = "s") -> list[dict[str, Any]]:
    """Filler messages with the probe texts above among them (``m0`` … ``m4``)."""
    return [record(f"m{i}", TEXTS[i] if i < len(TEXTS) else f"filler note number {i} about nothing in particular",
                   session=session) for i in range(start, stop)]


@pytest.fixture
def table() -> str:
    return f"pg{next(_names)}"


@pytest.fixture
def admin(pg_url: str) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        yield conn


def has_ann(admin: psycopg.Connection[Any], table: str) -> bool:
    row = admin.execute("SELECT to_regclass(%s)", (f"{table}_hnsw",)).fetchone()
    return row is not None and row[0] is not None


def test_a_load_goes_in_without_the_ann_index_and_flush_builds_it(pg_url: str, table: str, admin: Any) -> None:
    """Per-row HNSW inserts were nearly all of add's time; a load pays one bulk build instead."""
    index = PostgresIndex(pg_url, table=table)
    try:
        for start in range(0, 300, 64):
            index.add(records(start, min(300, start + 64)))
        assert index.count() == 300 and not has_ann(admin, table)
        index.flush()
        assert has_ann(admin, table)
        assert index.search("where did the staging database go?", top_k=1)[0].id == "m0"
        # later rows join the built index one by one, and are found through it
        assert index.add([record("late", "The new office opens in Lisbon in May", session="s2")]) == 1
        assert has_ann(admin, table)
        assert index.search("when does the Lisbon office open?", top_k=1)[0].id == "late"
    finally:
        index.close()


def test_a_search_while_another_writer_loads_scans_exactly_and_leaves_the_build(
    pg_url: str, table: str, admin: Any
) -> None:
    index = PostgresIndex(pg_url, table=table)
    try:
        index.add(records(0, 200))
        # another machine's backfill holds the writers' lock: the search must not wait for it
        admin.execute("SELECT pg_advisory_lock(hashtext(%s))", (table,))
        try:
            hits = index.search("violin lessons for my daughter", top_k=3)
            assert hits[0].id == "m1" and not has_ann(admin, table)
        finally:
            admin.execute("SELECT pg_advisory_unlock(hashtext(%s))", (table,))
        assert index.search("violin lessons for my daughter", top_k=3)[0].id == "m1"
        assert has_ann(admin, table)  # the first search with the lock free built it
    finally:
        index.close()


def test_writers_on_two_machines_upsert_by_id_and_keep_access_counts(pg_url: str, table: str, admin: Any) -> None:
    """Two handles (two connections, as two machines have) load overlapping ids at the same time."""
    first, second = PostgresIndex(pg_url, table=table), PostgresIndex(pg_url, table=table)
    errors: list[BaseException] = []

    def load(index: PostgresIndex, start: int, stop: int) -> None:
        try:
            for lo in range(start, stop, 40):
                index.add(records(lo, min(stop, lo + 40)))
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)

    try:
        threads = [threading.Thread(target=load, args=(first, 0, 300)),
                   threading.Thread(target=load, args=(second, 150, 450))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert first.count() == 450
        rows = admin.execute(f"SELECT count(DISTINCT id), count(*) FROM {table}").fetchone()
        assert rows == (450, 450)

        first.flush()
        second.flush()  # the index exists: nothing to do
        first.record_access(["m0", "m3"], when="2025-03-01T00:00:00.000Z")
        # the same records again change nothing; a changed text is stored, its access count kept
        assert second.add(records(0, 10)) == 0
        assert second.add([record("m3", "I prefer spaces over tabs in Python code", session="s")]) == 1
        stats = {s.id: s.access_count for s in first.access_stats(["m0", "m3", "m4"])}
        assert stats == {"m0": 1, "m3": 1, "m4": 0}
        assert first.search("spaces in Python", top_k=1)[0].text.startswith("I prefer spaces")
    finally:
        first.close()
        second.close()


def test_a_backfill_into_a_built_index_drops_it_and_the_next_search_or_flush_rebuilds_it(
    pg_url: str, table: str, admin: Any
) -> None:
    """Once single inserts have cost as much as a rebuild, the rest of a load goes in bulk."""
    loader, other = PostgresIndex(pg_url, table=table), PostgresIndex(pg_url, table=table)
    try:
        loader.add(records(0, 64))
        loader.flush()
        assert has_ann(admin, table)
        loader.add(records(64, 128))  # 64 single inserts into 64 rows: a rebuild's worth
        assert not has_ann(admin, table)
        loader.add(records(128, 192))
        # another machine searching mid-load scans exactly and does not build under the load
        assert other.search("the quarterly audit deadline", top_k=1)[0].id == "m4"
        assert not has_ann(admin, table)
        # the loader's own search ends its load
        assert loader.search("violin lessons", top_k=1)[0].id == "m1"
        assert has_ann(admin, table) and loader.count() == 192
        loader.add(records(192, 256))
        assert not has_ann(admin, table)
        loader.flush()
        assert has_ann(admin, table)
        assert other.search("the migration of the orders table failed", top_k=1)[0].id == "m2"
    finally:
        loader.close()
        other.close()


def test_a_handle_that_searches_between_adds_keeps_the_index(pg_url: str, table: str, admin: Any) -> None:
    """A live agent (small adds, searches in between) never makes the fleet's index go away."""
    index = PostgresIndex(pg_url, table=table)
    try:
        index.add(records(0, 200))
        index.flush()
        for lo in range(200, 300, 10):  # 100 single inserts would be a rebuild's worth of 200 rows
            index.add(records(lo, lo + 10))
            assert has_ann(admin, table)
            assert index.search("staging database", top_k=1)[0].id == "m0"
    finally:
        index.close()


def test_a_backfill_ends_with_the_ann_index_built_and_says_so(
    pg_url: str, table: str, admin: Any, tmp_path: Path, pi_sessions: Path
) -> None:
    """The bulk load's HNSW build is the backfill's last step, not the first search's."""
    shutil.copytree(pi_sessions, tmp_path / "sessions")
    steps: list[str] = []
    index = PostgresIndex(pg_url, table=table)
    try:
        result = backfill(index, tmp_path / "sessions", tmp_path / "state.json", step=steps.append)
        assert result.indexed > 0 and steps == [FLUSH_STEP] and has_ann(admin, table)
    finally:
        index.close()


def test_a_reindex_ends_with_the_ann_index_built(pg_url: str, admin: Any) -> None:
    database = f"reindex{next(_names)}"  # reindex opens the URL's default table: a database of its own
    admin.execute(f"CREATE DATABASE {database}")
    url = pg_url.replace("/postgres?", f"/{database}?", 1)
    index = PostgresIndex(url)
    index.add(records(0, 40))
    assert not has_ann_at(url)  # a load without a search or flush: no HNSW index yet
    index.close()
    done: list[tuple[int, int]] = []
    steps: list[str] = []
    assert reindex(url, batch=16, progress=lambda n, total: done.append((n, total)), step=steps.append) == 40
    assert done == [(16, 40), (32, 40), (40, 40)] and steps == [FLUSH_STEP] and has_ann_at(url)


def has_ann_at(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        return has_ann(conn, "recall_messages")
