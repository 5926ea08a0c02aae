"""An index that cannot be opened is one clear error naming it and the way out — never a raw
``sqlite3`` or ``psycopg`` error, never a 30 s wait on a lock, and nothing written to the file.

Real files damaged the ways disks and people damage them, a real second process holding an
exclusive lock, a real closed TCP port for an unreachable PostgreSQL, and the real ``pi-memory``
command for what a user sees.
"""

from __future__ import annotations

import hashlib
import os
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pi_memory.recall import IndexUnavailableError, SQLiteIndex, open_index

SCRIPT = Path(sys.executable).with_name("pi-memory")
MOVE_ASIDE = "move it aside"


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a real index with a few hundred messages, checkpointed into one file."""
    path = tmp_path_factory.mktemp("healthy") / "recall.db"
    with SQLiteIndex(path) as index:
        index.add([{"id": f"s:{n}", "text": f"message {n} about the staging database number {n % 7}",
                    "role": "user", "timestamp": "2025-01-01T00:00:00.000Z", "session_id": "s"} for n in range(300)])
    return path.read_bytes()


def _not_a_database(path: Path, healthy: bytes) -> None:
    path.write_text("notes I keep here\n" * 200)


def _truncated(path: Path, healthy: bytes) -> None:
    path.write_bytes(healthy[: len(healthy) // 2])


def _bit_flipped(path: Path, healthy: bytes) -> None:
    # The b-tree header (page type, free-block and cell counts) of every page after the schema
    # page is flipped, so whatever table the search or the count reads first is damaged; a flip
    # at one fixed offset may land on a free page or inside a cell nothing reads, depending on how
    # the index happened to lay its pages out.
    data = bytearray(healthy)
    page_size = int.from_bytes(data[16:18], "big") or 65536
    for page in range(page_size, len(data), page_size):
        for offset in range(page, page + 8):
            data[offset] ^= 0x55
    path.write_bytes(bytes(data))


def _foreign(path: Path, healthy: bytes) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE messages(author TEXT, body TEXT)")
        db.execute("INSERT INTO messages VALUES ('me', 'hello')")


def _other_app(path: Path, healthy: bytes) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE invoices(id INTEGER PRIMARY KEY, total REAL)")


def _newer_schema(path: Path, healthy: bytes) -> None:
    path.write_bytes(healthy)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '9' WHERE key = 'schema_version'")
    db.close()


DAMAGE: dict[str, tuple[Callable[[Path, bytes], None], list[str]]] = {
    "not a database": (_not_a_database, ["file is not a database", MOVE_ASIDE, "pi-memory recall index"]),
    "truncated": (_truncated, ["malformed", MOVE_ASIDE, "pi-memory recall index"]),
    "bit-flipped": (_bit_flipped, ["malformed", MOVE_ASIDE, "pi-memory recall index"]),
    "foreign schema": (_foreign, ["recall did not write", "messages", "Nothing was changed"]),
    "another app's tables": (_other_app, ["recall did not write", "invoices", "Nothing was changed"]),
    "newer schema": (_newer_schema, ["schema version 9", "Nothing was changed"]),
}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_a_damaged_or_foreign_file_is_one_clear_error_and_is_not_written(
        tmp_path: Path, healthy: bytes, kind: str) -> None:
    damage, words = DAMAGE[kind]
    path = tmp_path / "recall.db"
    damage(path, healthy)
    before = _digest(path)
    with pytest.raises(IndexUnavailableError) as error:
        index = open_index(str(path))  # a flip deep in the data may only show on the first read
        try:
            index.search("staging database")
            index.count()
        finally:
            index.close()
    assert str(path) in str(error.value) and error.value.index == str(path)
    for word in words:
        assert word in str(error.value), str(error.value)
    assert _digest(path) == before


def test_a_directory_in_place_of_the_index(tmp_path: Path) -> None:
    path = tmp_path / "recall.db"
    path.mkdir()
    with pytest.raises(IndexUnavailableError, match=r"is a directory, not a database file: move it aside"):
        open_index(str(path))
    assert list(path.iterdir()) == []


@pytest.fixture
def exclusively_locked(tmp_path: Path, healthy: bytes) -> Iterator[Path]:
    """A second process holding the index with ``locking_mode=EXCLUSIVE`` until the test ends."""
    path = tmp_path / "recall.db"
    path.write_bytes(healthy)
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sqlite3, sys\n"
        f"db = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
        "db.execute('PRAGMA locking_mode = EXCLUSIVE')\n"
        "db.execute('BEGIN EXCLUSIVE')\n"
        "db.execute('SELECT count(*) FROM messages').fetchone()\n"
        "print('held', flush=True)\n"
        "sys.stdin.read()\n")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        yield path
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)


def test_an_exclusively_locked_index_is_named_as_locked_at_open(exclusively_locked: Path) -> None:
    """The open's first read waits only OPEN_BUSY_TIMEOUT (2 s), not the 30 s writers may queue."""
    with pytest.raises(IndexUnavailableError) as error:
        open_index(str(exclusively_locked))
    assert f"the recall index {exclusively_locked} is locked by another program" in str(error.value)
    assert "close the program that holds it" in str(error.value)


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_postgres_index_is_named_without_its_password() -> None:
    pytest.importorskip("psycopg")
    port = _closed_port()
    with pytest.raises(IndexUnavailableError) as error:
        open_index(f"postgresql://agent:s3cret@127.0.0.1:{port}/recall")
    message = str(error.value)
    assert f"postgresql://agent@127.0.0.1:{port}/recall cannot be used" in message and "s3cret" not in message
    assert "check that the server runs" in message and "pi-memory-recall.url" in message


def test_the_recall_commands_print_the_error_and_exit_1(tmp_path: Path) -> None:
    path = tmp_path / "recall.db"
    path.write_text("notes I keep here\n" * 200)
    before = _digest(path)
    env = {**os.environ, "HOME": str(tmp_path), "COLUMNS": "200"}
    for args in (["status"], ["search", "staging"], ["reindex"]):
        proc = subprocess.run([str(SCRIPT), "recall", *args, "--index", str(path)], capture_output=True, text=True,
                              env=env, timeout=120)
        assert proc.returncode == 1, (args, proc.stdout, proc.stderr)
        assert "Traceback" not in proc.stderr
        assert f"Error: the recall index {path} is not a usable recall database" in proc.stderr, proc.stderr
        assert "pi-memory recall index" in proc.stderr
    assert _digest(path) == before
