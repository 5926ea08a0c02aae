"""The word statistics BM25 reads on PostgreSQL (:mod:`pi_memory.recall.postgres_terms`): exact
after adds, changed texts, deletes and ``clear``, with two processes indexing at once, and built
for a table an older pi-memory made (the migration), which that older code can go on writing.

Every check compares the stored statistics with a recount from the rows themselves.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
import tarfile
import textwrap
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pi_memory.recall.postgres_index import PostgresIndex

from .conftest import HashEmbedder, record
from .test_sqlite_lexical import LEXICAL, search_ids

ROOT = Path(__file__).resolve().parents[2]
BASE_COMMIT = "5cef216"
"""The last commit whose PostgreSQL index ranked with ``ts_rank_cd`` and kept no statistics."""

_names = itertools.count()

#: A subprocess's embedder: :class:`HashEmbedder`'s space (same id and vectors), without the test
#: package (the older pi-memory runs it too).
EMBEDDER = textwrap.dedent("""
    import hashlib, sys
    import numpy as np

    class Embedder:
        id, dimension = "test-hash-32", 32

        def embed(self, texts):
            rows = np.zeros((len(texts), 32), dtype=np.float32)
            for i, text in enumerate(texts):
                for word in text.lower().split():
                    rows[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % 32] += 1
            return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)

    def record(i, text):
        return {"id": str(i), "text": text, "role": "user", "timestamp": "2025-01-01T00:00:00.000Z",
                "session_id": "s" + str(hash(str(i)) % 7)}
""")


def text(i: int, variant: str = "") -> str:
    """A message whose words overlap with many others' (shared counts are what a race corrupts)."""
    return f"note {i % 13} about topic{i % 7} and{variant} word{i % 29} word{i % 31} {variant}"


@pytest.fixture
def table() -> str:
    return f"terms{next(_names)}"


@pytest.fixture
def admin(pg_url: str) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        yield conn


def stored(admin: psycopg.Connection[Any], table: str) -> dict[str, tuple[int, int]]:
    return {r[0]: (int(r[1]), int(r[2])) for r in admin.execute(f"SELECT term, docs, tokens FROM {table}_terms")}


def recount(admin: psycopg.Connection[Any], table: str) -> dict[str, tuple[int, int]]:
    """What the statistics must be: counted from the rows now, the slow way (a message's length
    is its distinct lexemes)."""
    rows = admin.execute(
        f"""SELECT u.lexeme, count(*), sum(coalesce(array_length(u.positions, 1), 1)) FROM {table}, unnest(tsv) u
        GROUP BY 1 UNION ALL SELECT '', count(*), coalesce(sum(length(tsv)), 0) FROM {table}"""
    ).fetchall()
    return {r[0]: (int(r[1]), int(r[2])) for r in rows}


def test_statistics_follow_adds_changed_texts_deletes_and_clear(pg_url: str, table: str, admin: Any) -> None:
    index = PostgresIndex(pg_url, embedder=HashEmbedder(), table=table)
    try:
        index.add([record(f"m{i}", text(i), session=f"s{i % 5}") for i in range(120)])
        assert stored(admin, table) == recount(admin, table) and stored(admin, table)[""][0] == 120
        # an upsert changing texts, one leaving them alone, a delete, an access count
        assert index.add([record(f"m{i}", text(i, "x"), session=f"s{i % 5}") for i in range(0, 120, 3)]) == 40
        assert index.delete([f"m{i}" for i in range(1, 120, 4)]) == 30
        index.record_access(["m0", "m2"])
        counts = stored(admin, table)
        assert counts == recount(admin, table) and counts[""][0] == 90 and counts["andx"][0] > 0
        # a word no message holds any more leaves the statistics
        assert index.delete([f"m{i}" for i in range(0, 120, 3)]) > 0
        assert "andx" not in stored(admin, table) and stored(admin, table) == recount(admin, table)
        # a failed write leaves no trace: the statistics roll back with the rows
        with pytest.raises(psycopg.Error), admin.transaction():
            admin.execute(f"DELETE FROM {table} WHERE id = 'm2'")
            admin.execute("SELECT 1/0")
        assert stored(admin, table) == recount(admin, table)
        # plain SQL bypassing pi-memory (another tool, a DBA) keeps them right too
        admin.execute(f"DELETE FROM {table} WHERE id IN ('m2', 'm5')")
        assert stored(admin, table) == recount(admin, table)
        index.clear()
        assert admin.execute("SELECT to_regclass(%s)", (f"{table}_terms",)).fetchone() == (None,)
        index.add([record("again", "a fresh start after clear")])
        assert stored(admin, table) == recount(admin, table)
    finally:
        index.clear()
        index.close()


def _python(code: str, *args: str, path: Path | None = None) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(path) if path else os.environ.get("PYTHONPATH", "")}
    return subprocess.Popen([sys.executable, "-c", EMBEDDER + textwrap.dedent(code), *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _wait(*processes: subprocess.Popen[str]) -> None:
    for process in processes:
        _, err = process.communicate(timeout=300)
        assert process.returncode == 0, err


INDEXER = """
    from pi_memory.recall.postgres_index import PostgresIndex
    url, table, start, stop, variant = sys.argv[1:6]
    index = PostgresIndex(url, embedder=Embedder(), table=table)
    ids = range(int(start), int(stop))
    for lo in range(int(start), int(stop), 25):
        index.add([record(f"m{i}", f"note {i % 13} about topic{i % 7} and{variant} word{i % 29} word{i % 31} {variant}")
                   for i in range(lo, min(int(stop), lo + 25))])
        if lo % 100 == 0:
            index.delete([f"m{i}" for i in range(lo, lo + 5)])
    index.close()
"""


def test_two_processes_indexing_at_once_keep_the_statistics_exact(pg_url: str, table: str, admin: Any) -> None:
    """Two machines' backfills overlap: shared words, the same ids with other texts, deletes."""
    PostgresIndex(pg_url, embedder=HashEmbedder(), table=table).close()
    first = _python(INDEXER, pg_url, table, "0", "600", "a")
    second = _python(INDEXER, pg_url, table, "300", "900", "b")
    _wait(first, second)
    counts = stored(admin, table)
    assert counts == recount(admin, table)
    assert 800 < counts[""][0] <= 900 and counts["anda"][0] > 0 and counts["andb"][0] > 0


BASE_INDEXER = """
    from pi_memory.recall.postgres_index import PostgresIndex
    import pi_memory.recall.postgres_lexical as lexical
    assert "ts_rank_cd" in open(lexical.__file__).read()  # the older code, not this checkout's
    url, table, start, stop = sys.argv[1:5]
    index = PostgresIndex(url, embedder=Embedder(), table=table)
    index.add([record(f"m{i}", f"note {i % 13} about topic{i % 7} word{i % 29} zanzibar{i % 400}")
               for i in range(int(start), int(stop))])
    index.delete(["m3"])
    index.flush()
    index.close()
"""


@pytest.fixture
def base_code(tmp_path: Path) -> Path:
    """The package as it was at :data:`BASE_COMMIT`, exported from git (skipped without the history)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    exported = subprocess.run(["git", "-C", str(ROOT), "archive", BASE_COMMIT, "src/pi_memory"],
                              capture_output=True, check=False)
    if exported.returncode != 0:
        pytest.skip(f"commit {BASE_COMMIT} is not in this checkout's history")
    with tarfile.open(fileobj=BytesIO(exported.stdout)) as archive:
        archive.extractall(tmp_path / "base", filter="data")
    return tmp_path / "base" / "src"


def test_an_index_made_by_the_older_code_gets_its_statistics_on_first_open(
    pg_url: str, table: str, admin: Any, base_code: Path
) -> None:
    _wait(_python(BASE_INDEXER, pg_url, table, "0", "2500", path=base_code))
    assert admin.execute("SELECT to_regclass(%s)", (f"{table}_terms",)).fetchone() == (None,)
    steps: list[tuple[int, int]] = []
    index = PostgresIndex(pg_url, embedder=HashEmbedder(), table=table,
                          progress=lambda done, total: steps.append((done, total)))
    try:
        assert steps == [(2499, 2499)]  # one step of MIGRATION_CHUNK rows
        assert stored(admin, table) == recount(admin, table)
        # BM25 at once: the rare word (zanzibar17: 6 messages) leads, not the common one thrice
        index.add([record("x", "topic3 topic3 topic3 notes", session="x")])
        index.config = LEXICAL
        assert "zanzibar17" in index.search("topic3 zanzibar17", top_k=1)[0].text
        # a second open finds them made (no second count) …
        again: list[tuple[int, int]] = []
        PostgresIndex(pg_url, embedder=HashEmbedder(), table=table,
                      progress=lambda done, total: again.append((done, total))).close()
        assert again == []
        # … and the older code, still writing from another machine, keeps them exact (the trigger)
        _wait(_python(BASE_INDEXER, pg_url, table, "2000", "3000", path=base_code))
        assert stored(admin, table) == recount(admin, table)
        # a table the older code drops and makes anew (its reindex) is counted again by the next search
        _wait(_python("""
            from pi_memory.recall.postgres_index import PostgresIndex
            index = PostgresIndex(sys.argv[1], embedder=Embedder(), table=sys.argv[2])
            index.clear()
            index.add([record("fresh", "zanzibar is back"), record("other", "nothing to see")])
            index.close()
        """, pg_url, table, path=base_code))
        assert search_ids(index, LEXICAL, "zanzibar", k=1) == ["fresh"]
        assert stored(admin, table) == recount(admin, table) and stored(admin, table)[""][0] == 2
    finally:
        index.clear()
        index.close()
