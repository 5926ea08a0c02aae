"""PostgreSQL backend beyond the shared store suite: processes, killed connections, outages,
schema migrations and the settings switch (advisory locks: test_advisory.py). All against a real server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest
from psycopg import conninfo
from storage_fixtures import fresh_namespace

from pi_memory.backends import SettingsError, close_store, describe_store, open_store, store_problem
from pi_memory.backends.postgres import PostgresBackend, describe_dsn
from pi_memory.memory import MemoryStore
from pi_memory.memory.backend import BackendBusy, RawText

pytestmark = pytest.mark.postgres

UNREACHABLE = "postgresql://agent:hunter2@127.0.0.1:1/memory"
CLI = [sys.executable, "-m", "pi_memory.cli"]


def stored(dsn: str, namespace: str, target: str = "memory") -> str | None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute(
            "SELECT content FROM pi_memory_files WHERE namespace = %s AND target = %s", (namespace, target)
        ).fetchone()
    return None if row is None else row[0]


def backup_names(dsn: str, namespace: str) -> list[str]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute("SELECT name FROM pi_memory_backups WHERE namespace = %s", (namespace,)).fetchall()
    return [row[0] for row in rows]


# ------------------------------------------------------------------ concurrency and crashes

WRITER = """
import sys
from pi_memory.backends.postgres import PostgresBackend
from pi_memory.memory import MemoryStore
dsn, namespace, worker = sys.argv[1], sys.argv[2], int(sys.argv[3])
store = MemoryStore(backend=PostgresBackend(dsn, namespace, pool_size=1), memory_char_limit=1_000_000,
                    lock_timeout=60)
store.load_from_disk()
print("ready", flush=True)
sys.stdin.readline()
failures = [r for r in (store.add("memory", f"worker {worker} fact {i}") for i in range(100)) if not r["success"]]
print(len(failures), failures[:1], flush=True)
"""


@pytest.mark.slow
def test_eight_processes_adding_100_entries_each_lose_nothing(postgres_dsn: str) -> None:
    namespace = fresh_namespace()
    procs = [
        subprocess.Popen([*CLI[:1], "-c", WRITER, postgres_dsn, namespace, str(n)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
        for n in range(8)
    ]
    for proc in procs:  # everyone connected before anyone writes: maximum contention
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    reports = [proc.communicate(timeout=120)[0].strip() for proc in procs]
    assert all(proc.returncode == 0 for proc in procs)
    assert reports == ["0 []"] * 8
    entries = (stored(postgres_dsn, namespace) or "").split("\n§\n")
    assert sorted(entries) == sorted(f"worker {w} fact {i}" for w in range(8) for i in range(100))


def test_a_connection_killed_mid_transaction_leaves_the_row_unchanged(postgres_dsn: str) -> None:
    namespace = fresh_namespace()
    victim = f"victim-{namespace}"
    backend = PostgresBackend(postgres_dsn, namespace, application_name=victim)
    store = MemoryStore(backend=backend)
    assert store.add("memory", "before")["success"]
    with pytest.raises(BackendBusy, match="connection lost"), backend.transaction("memory", 5) as txn:
        txn.backup(RawText("uncommitted backup row", True))  # executed on the server, not committed
        txn.write("half-written")
        with psycopg.connect(postgres_dsn, autocommit=True) as killer:
            killed = killer.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = %s AND state = 'idle in transaction'", (victim,)
            ).fetchall()
        assert killed == [(True,)]
    assert stored(postgres_dsn, namespace) == "before"
    assert backup_names(postgres_dsn, namespace) == []
    assert store.add("memory", "after")["entries"] == ["before", "after"]  # the pool replaced the dead connection
    backend.close()


HOLDER = """
import sys, time
from pi_memory.backends.postgres import PostgresBackend
from pi_memory.memory.backend import RawText
backend = PostgresBackend(sys.argv[1], sys.argv[2])
with backend.transaction("memory", 5) as txn:
    txn.backup(RawText("backup by a process about to be killed", True))  # on the server, uncommitted
    txn.write("written by a process about to be killed")
    print("holding", flush=True)
    time.sleep(60)
"""


def test_a_writer_killed_while_holding_the_lock_changes_nothing_and_frees_the_row(postgres_dsn: str) -> None:
    namespace = fresh_namespace()
    store = MemoryStore(backend=PostgresBackend(postgres_dsn, namespace), lock_timeout=10)
    store.add("memory", "survivor")
    holder = subprocess.Popen([*CLI[:1], "-c", HOLDER, postgres_dsn, namespace], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
    blocked = MemoryStore(backend=PostgresBackend(postgres_dsn, namespace), lock_timeout=0.3)
    assert blocked.add("memory", "too early")["retryable"] is True  # the row lock is really held
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait(timeout=30)
    started = time.monotonic()
    result = store.add("memory", "next")  # waits only until the server notices the dead client
    assert result["entries"] == ["survivor", "next"], result
    assert time.monotonic() - started < 10
    assert "about to be killed" not in (stored(postgres_dsn, namespace) or "")
    assert backup_names(postgres_dsn, namespace) == []


def test_threads_of_one_process_share_one_connection_per_target(postgres_dsn: str) -> None:
    namespace = fresh_namespace()
    store = MemoryStore(backend=PostgresBackend(postgres_dsn, namespace, pool_size=1), lock_timeout=30)
    results: list[dict[str, object]] = []
    threads = [threading.Thread(target=lambda i=i: results.append(store.add("user", f"thread {i}")))
               for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(r["success"] for r in results)
    assert len(store.read("user")["entries"]) == 16


# ------------------------------------------------------------------ outages and timeouts


def test_an_unreachable_database_is_a_clear_failure_and_nothing_is_written() -> None:
    store = MemoryStore(backend=PostgresBackend(UNREACHABLE, connect_timeout=2))
    started = time.monotonic()
    store.load_from_disk()  # does not raise
    for result in (store.read("memory"), store.add("memory", "fact"), store.remove("user", "x")):
        assert result["success"] is False
        assert "PostgreSQL at agent@127.0.0.1:1/memory is unreachable" in result["error"]
        assert "pi-memory.dsn" in result["error"] and "hunter2" not in result["error"]
    assert time.monotonic() - started < 5
    assert store.format_all_for_system_prompt() == ""


def test_a_statement_timeout_is_a_retryable_failure(postgres_dsn: str) -> None:
    namespace = fresh_namespace()
    store = MemoryStore(backend=PostgresBackend(postgres_dsn, namespace, statement_timeout_ms=200), lock_timeout=5)
    store.add("memory", "kept")
    with psycopg.connect(postgres_dsn, autocommit=True) as other, other.transaction():
        other.execute("LOCK TABLE pi_memory_backups IN ACCESS EXCLUSIVE MODE")  # stalls the next backup
        with psycopg.connect(postgres_dsn, autocommit=True) as raw:
            raw.execute("UPDATE pi_memory_files SET content = 'kept\n§\n' WHERE namespace = %s", (namespace,))
        result = store.add("memory", "new")
    assert result["success"] is False and result["retryable"] is True
    assert stored(postgres_dsn, namespace) == "kept\n§\n"


def test_an_exhausted_pool_is_a_failure_result_not_an_exception(postgres_dsn: str) -> None:
    backend = PostgresBackend(postgres_dsn, fresh_namespace(), pool_size=1, connect_timeout=0.5)
    store = MemoryStore(backend=backend, lock_timeout=0.5)
    store.add("memory", "fact")
    with backend.advisory_lock("holds-the-only-connection") as held:
        assert held is True
        read = store.read("memory")
        assert read["success"] is False and "no free connection" in read["error"]
        assert store.add("user", "x")["retryable"] is True
    assert store.read("memory")["entries"] == ["fact"]
    backend.close()


# ------------------------------------------------------------------ backups, locks, settings


def test_backups_are_listed_and_readable(postgres_dsn: str) -> None:
    namespace = fresh_namespace()
    backend = PostgresBackend(postgres_dsn, namespace)
    store = MemoryStore(backend=backend)
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO pi_memory_files VALUES (%s, 'user', 'a\n§\n\n§\nb')", (namespace,))
    location = store.add("user", "c")["driftBackup"]
    assert location.startswith(f"postgres:{namespace}/USER.md.bak.")
    (info,) = backend.list_backups()
    assert (info.location, info.target, info.chars) == (location, "user", len("a\n§\n\n§\nb"))
    assert backend.read_backup(location) == "a\n§\n\n§\nb"
    assert backend.read_backup("USER.md.bak.0") is None
    backend.close()


def test_check_describe_and_the_store_helpers(postgres_dsn: str, tmp_path: Path) -> None:
    namespace = fresh_namespace()
    store = open_store({"backend": "postgres", "dsn": postgres_dsn, "namespace": namespace})
    backend = store.backend
    assert isinstance(backend, PostgresBackend)
    assert store_problem(store) is None and backend.check() is None
    assert describe_store(store) == f"PostgreSQL {describe_dsn(postgres_dsn)}, namespace {namespace}"
    assert backend.memory_id.endswith(f"#{namespace}") and "@" not in backend.memory_id
    same = PostgresBackend(conninfo.make_conninfo(postgres_dsn, user="other"), namespace)
    assert same.memory_id == backend.memory_id  # the user does not change which memory it is
    same.close()
    close_store(store)
    assert backend._pool.closed

    gone = open_store({"backend": "postgres", "dsn": UNREACHABLE})
    problem = store_problem(gone)
    assert problem is not None and "PostgreSQL at agent@127.0.0.1:1/memory is unreachable" in problem
    assert "pi-memory.dsn" in problem and "hunter2" not in problem and "hunter2" not in describe_store(gone)

    files = open_store({"dataDir": str(tmp_path / "files")})
    assert store_problem(files) is None and describe_store(files) == str(tmp_path / "files")
    close_store(files)  # nothing to close; harmless


def test_open_store_switches_backend_with_one_setting(postgres_dsn: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    namespace = fresh_namespace()
    laptop = open_store({"dataDir": str(tmp_path / "files")})
    assert laptop.dir == tmp_path / "files"
    machine_a = open_store({"backend": "postgres", "dsn": postgres_dsn, "namespace": namespace})
    machine_b = open_store({"backend": "postgres", "dsn": postgres_dsn, "namespace": namespace,
                            "memoryCharLimit": 5000})
    machine_a.add("memory", "Deploys go through the staging cluster first")
    assert machine_b.read("memory")["entries"] == ["Deploys go through the staging cluster first"]
    assert machine_b.memory_char_limit == 5000
    monkeypatch.setenv("PI_MEMORY_DSN", postgres_dsn)
    from_env = open_store({"backend": "postgres", "namespace": namespace})
    assert from_env.read("memory")["entryCount"] == 1
    monkeypatch.delenv("PI_MEMORY_DSN")
    with pytest.raises(SettingsError, match=r"pi-memory\.dsn"):
        open_store({"backend": "postgres"})
    with pytest.raises(SettingsError, match=r"pi-memory\.backend"):
        open_store({"backend": "sqlite"})
    with pytest.raises(ValueError, match="namespace"):
        PostgresBackend(postgres_dsn, " ")


def test_describe_dsn_never_shows_the_password() -> None:
    assert describe_dsn(UNREACHABLE) == "agent@127.0.0.1:1/memory"
    assert describe_dsn("host=db.internal dbname=agents user=bot password=x") == "bot@db.internal:5432/agents"
    assert describe_dsn("postgresql://%zz") == "<invalid DSN>"
