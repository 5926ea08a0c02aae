"""Concurrent writers never lose an update: processes, threads, asyncio tasks, and a busy lock.

Every writer is real: separate interpreters (each with its own ``MemoryStore``),
OS threads, and ``asyncio.to_thread`` tasks, all doing durable writes to one
directory. A start barrier makes them contend instead of running one after another.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_memory.base.lock import lock_dir_for
from pi_memory.base.lock import publish as lock_publish
from pi_memory.memory import MemoryStore
from pi_memory.memory.entries import drift_reason, is_canonical, parse_entries

LIMIT = 1_000_000

# Every test runs under both ways of publishing the lock directory (tests/memory/conftest.py).
pytestmark = pytest.mark.usefixtures("lock_mode")

PROCESS_WRITER = """
import os, sys, time
from pi_memory.memory import MemoryStore

directory, tag, count, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
store = MemoryStore(directory, memory_char_limit=1_000_000, lock_timeout=60)
print("ready", flush=True)
while not os.path.exists(go):
    time.sleep(0.001)
for i in range(count):
    entry = f"{tag} fact {i:03d}"
    result = store.add("memory", entry)
    if not result["success"]:
        print("fail", entry, result["error"], flush=True)
        sys.exit(1)
print("done", flush=True)
"""


def assert_clean_store(directory: Path, expected: set[str], target: str = "memory") -> list[str]:
    """The file holds exactly ``expected`` (no loss, no extras), no drift, and no debris."""
    path = directory / ("MEMORY.md" if target == "memory" else "USER.md")
    text = path.read_bytes().decode("utf-8")
    assert drift_reason(text, LIMIT) is None
    assert is_canonical(text)
    entries = parse_entries(text)
    assert len(entries) == len(set(entries))
    missing = expected - set(entries)
    assert not missing, f"{len(missing)} updates lost, e.g. {sorted(missing)[:3]}"
    assert set(entries) == expected
    lock_publish.drop_spares()  # as at exit: this process's own spare lock dirs are not debris
    debris = sorted(p.name for p in directory.iterdir() if p.name not in ("MEMORY.md", "USER.md"))
    assert debris == [], f"left behind: {debris}"
    assert not lock_dir_for(path).exists()
    return entries


@pytest.fixture
def writers() -> Iterator[list[subprocess.Popen[str]]]:
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


# ---------------------------------------------------------------- processes


@pytest.mark.slow
def test_eight_processes_times_hundred_adds_lose_nothing(
    tmp_path: Path, writers: list[subprocess.Popen[str]]
) -> None:
    go = tmp_path.parent / f"{tmp_path.name}.go"
    n_procs, n_adds = 8, 100
    for p in range(n_procs):
        proc = subprocess.Popen(
            [sys.executable, "-c", PROCESS_WRITER, str(tmp_path), f"p{p}", str(n_adds), str(go)],
            stdout=subprocess.PIPE,
            text=True,
        )
        writers.append(proc)
    for proc in writers:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
    go.touch()  # all eight start adding at once
    for proc in writers:
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0, out
        assert out.strip() == "done", out

    expected = {f"p{p} fact {i:03d}" for p in range(n_procs) for i in range(n_adds)}
    entries = assert_clean_store(tmp_path, expected)
    assert len(entries) == 800
    for p in range(n_procs):  # each writer's own adds keep their order
        mine = [e for e in entries if e.startswith(f"p{p} ")]
        assert mine == sorted(mine)


UNSHARE_PID = ["unshare", "--pid", "--fork", "--mount-proc"]


def _can_unshare_pid() -> bool:
    try:
        return subprocess.run([*UNSHARE_PID, "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.slow
@pytest.mark.skipif(not _can_unshare_pid(), reason="needs unshare --pid (root or user namespaces)")
def test_a_writer_in_another_pid_namespace_and_one_outside_lose_nothing(
    tmp_path: Path, writers: list[subprocess.Popen[str]]
) -> None:
    """A sandbox (bubblewrap, flatpak, a container sharing the directory) has its own PIDs.

    The PID in its owner record names some other process here (PID 1 is our init), and ours
    names no process there; neither side may judge the other's live lock dead from it.
    """
    go = tmp_path.parent / f"{tmp_path.name}.go"
    n_adds = 300
    for p, prefix in enumerate([UNSHARE_PID, []]):
        proc = subprocess.Popen(
            [*prefix, sys.executable, "-c", PROCESS_WRITER, str(tmp_path), f"ns{p}", str(n_adds), str(go)],
            stdout=subprocess.PIPE,
            text=True,
        )
        writers.append(proc)
    for proc in writers:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
    go.touch()
    for proc in writers:
        out, _ = proc.communicate(timeout=300)
        assert proc.returncode == 0, out
        assert out.strip() == "done", out
    assert_clean_store(tmp_path, {f"ns{p} fact {i:03d}" for p in range(2) for i in range(n_adds)})


PAUSED_WRITER = """
import json, sys
from pi_memory.memory import MemoryStore, files

real_read = files._read_with_mode


def read_then_wait(*args):
    raw = real_read(*args)  # the store's read, inside the lock
    print("read", flush=True)
    sys.stdin.readline()  # the test stops this process here
    return raw


files._read_with_mode = read_then_wait
store = MemoryStore(sys.argv[1], lock_timeout=30)
print(json.dumps(store.add("memory", "the paused writer's fact")), flush=True)
files._read_with_mode = real_read
print(json.dumps(store.add("memory", "the paused writer's fact")), flush=True)  # its retry
"""

OTHER_WRITER = """
import json, sys
from pi_memory.memory import MemoryStore
print(json.dumps(MemoryStore(sys.argv[1], lock_timeout=60).add("memory", "the other writer's fact")), flush=True)
"""


def _wait_until_stopped(pid: int) -> None:
    while Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "T":
        time.sleep(0.01)


def test_a_holder_stopped_past_the_stale_time_never_writes_over_the_writer_that_took_over(
    tmp_path: Path, writers: list[subprocess.Popen[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGSTOP (a suspended laptop, a debugger) past the stale time: the lock is taken over.

    What the stopped writer read is stale then; renaming it into place on SIGCONT would
    lose the other writer's add. It must drop its write with a retryable busy result.
    """
    (tmp_path / "MEMORY.md").write_text("an old fact")
    monkeypatch.setenv("_PI_MEMORY_LOCK_STALE", "2")  # the lock's private test switch: 2 s, not 30
    paused = subprocess.Popen(
        [sys.executable, "-c", PAUSED_WRITER, str(tmp_path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    writers.append(paused)
    assert paused.stdout is not None and paused.stdin is not None
    assert paused.stdout.readline().strip() == "read"
    os.kill(paused.pid, signal.SIGSTOP)  # its refresher thread stops too: the lock goes stale
    _wait_until_stopped(paused.pid)
    paused.stdin.write("go on\n")
    paused.stdin.flush()
    other = subprocess.run(
        [sys.executable, "-c", OTHER_WRITER, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert other.returncode == 0, other.stderr
    assert json.loads(other.stdout)["success"], other.stdout  # it took the stale lock over
    os.kill(paused.pid, signal.SIGCONT)
    out, _ = paused.communicate(timeout=60)
    first, retry = (json.loads(line) for line in out.splitlines())
    assert first["success"] is False and first["retryable"] is True, first
    assert "nothing was written" in first["error"].lower()
    assert retry["success"], retry
    assert_clean_store(tmp_path, {"an old fact", "the other writer's fact", "the paused writer's fact"})


# ---------------------------------------------------------------- threads


def _run_threads(worker_for: list, n_threads: int) -> None:
    barrier = threading.Barrier(n_threads)
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait()
            worker_for[index]()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == [], errors


def test_sixteen_threads_on_one_shared_store(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path, memory_char_limit=LIMIT, lock_timeout=60)
    results: list[dict] = []

    def worker(t: int) -> None:
        for i in range(20):
            results.append(store.add("memory", f"t{t} note {i:02d}"))

    _run_threads([lambda t=t: worker(t) for t in range(16)], 16)
    assert all(r["success"] for r in results), [r for r in results if not r["success"]][:1]
    expected = {f"t{t} note {i:02d}" for t in range(16) for i in range(20)}
    entries = assert_clean_store(tmp_path, expected)
    # The shared store's live view agrees with the disk.
    assert store.get_entries("memory") == entries
    assert store.read("memory")["entryCount"] == 320


def test_sixteen_threads_each_with_its_own_store_instance(tmp_path: Path) -> None:
    stores = [MemoryStore(tmp_path, memory_char_limit=LIMIT, lock_timeout=60) for _ in range(16)]
    results: list[dict] = []

    def worker(t: int) -> None:
        for i in range(20):
            results.append(stores[t].add("memory", f"s{t} note {i:02d}"))

    _run_threads([lambda t=t: worker(t) for t in range(16)], 16)
    assert all(r["success"] for r in results)
    expected = {f"s{t} note {i:02d}" for t in range(16) for i in range(20)}
    assert_clean_store(tmp_path, expected)


def test_threads_mixing_add_replace_remove_on_both_targets(tmp_path: Path) -> None:
    """Mutations of every kind interleave; each thread's final state is exactly what it did."""
    store = MemoryStore(tmp_path, memory_char_limit=LIMIT, user_char_limit=LIMIT, lock_timeout=60)
    failures: list[dict] = []

    def worker(t: int) -> None:
        target = "memory" if t % 2 == 0 else "user"
        for i in range(10):
            for r in (
                store.add(target, f"m{t}-{i} draft"),
                store.replace(target, f"m{t}-{i} draft", f"m{t}-{i} final"),
            ):
                if not r["success"]:
                    failures.append(r)
            if i % 2:
                r = store.remove(target, f"m{t}-{i} final")
                if not r["success"]:
                    failures.append(r)

    _run_threads([lambda t=t: worker(t) for t in range(8)], 8)
    assert failures == []
    for target, parity in (("memory", 0), ("user", 1)):
        expected = {f"m{t}-{i} final" for t in range(8) if t % 2 == parity for i in range(0, 10, 2)}
        path = tmp_path / ("MEMORY.md" if target == "memory" else "USER.md")
        assert set(parse_entries(path.read_text())) == expected
        assert is_canonical(path.read_text())
    lock_publish.drop_spares()  # as at exit: this process's own spare lock dirs are not debris
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MEMORY.md", "USER.md"]


# ---------------------------------------------------------------- asyncio


@pytest.mark.anyio
async def test_many_concurrent_asyncio_to_thread_adds(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path, memory_char_limit=LIMIT, lock_timeout=60)
    results = await asyncio.gather(
        *(asyncio.to_thread(store.add, "memory", f"task {i:03d} remembered") for i in range(120))
    )
    assert all(r["success"] for r in results)
    assert_clean_store(tmp_path, {f"task {i:03d} remembered" for i in range(120)})


@pytest.mark.anyio
async def test_asyncio_tasks_on_separate_stores_and_event_loop_stays_responsive(tmp_path: Path) -> None:
    stores = [MemoryStore(tmp_path, memory_char_limit=LIMIT, lock_timeout=60) for _ in range(4)]
    ticks = 0

    async def ticker(stop: asyncio.Event) -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            await asyncio.sleep(0)

    stop = asyncio.Event()
    tick_task = asyncio.create_task(ticker(stop))
    results = await asyncio.gather(
        *(asyncio.to_thread(stores[i % 4].add, "user", f"async fact {i:03d}") for i in range(60))
    )
    stop.set()
    await tick_task
    assert all(r["success"] for r in results)
    assert ticks > 0  # the loop kept running while the writes waited on the lock
    assert_clean_store(tmp_path, {f"async fact {i:03d}" for i in range(60)}, target="user")


# ---------------------------------------------------------------- a busy lock


HOLDER = """
import sys
from pi_memory.base.lock import file_lock
with file_lock(sys.argv[1], timeout=5):
    print("locked", flush=True)
    sys.stdin.read()
"""


@pytest.fixture
def held_memory_lock(tmp_path: Path) -> Iterator[Path]:
    """MEMORY.md with two entries, its lock held by another process for the whole test."""
    path = tmp_path / "MEMORY.md"
    path.write_text("alpha fact\n§\nbeta fact")
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdin is not None
    try:
        assert proc.stdout.readline().strip() == "locked"
        yield path
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
        proc.stdout.close()


@pytest.mark.parametrize(
    ("method", "args"),
    [
        ("add", ("memory", "gamma fact")),
        ("replace", ("memory", "alpha", "alpha fact, revised")),
        ("remove", ("memory", "beta")),
    ],
)
def test_contention_past_the_timeout_is_a_structured_retryable_busy_result(
    held_memory_lock: Path, method: str, args: tuple[str, ...]
) -> None:
    store = MemoryStore(held_memory_lock.parent, lock_timeout=0.3)
    store.load_from_disk()
    before = held_memory_lock.read_bytes()
    listing = sorted(p.name for p in held_memory_lock.parent.iterdir())
    result = getattr(store, method)(*args)  # must not raise
    assert result["success"] is False
    assert result["retryable"] is True
    assert "busy" in result["error"].lower()
    assert "MEMORY.md" in result["error"]
    assert held_memory_lock.read_bytes() == before
    assert store.get_entries("memory") == ["alpha fact", "beta fact"]
    # Nothing created or removed: the holder's lock dir and record are untouched, no backup.
    lock_publish.drop_spares()  # as at exit: this process's own spare lock dirs are not debris
    assert sorted(p.name for p in held_memory_lock.parent.iterdir()) == listing
    assert "MEMORY.md.lock" in listing


@pytest.mark.parametrize("kind", ["a file", "an old lock directory with files in it"])
def test_a_lock_path_no_writer_may_clear_is_a_failure_that_says_what_to_remove(tmp_path: Path, kind: str) -> None:
    """Not "busy, retry in a moment" forever: retrying cannot help, a person has to act."""
    path = tmp_path / "MEMORY.md"
    path.write_text("alpha fact")
    lock_path = lock_dir_for(path)
    if kind == "a file":
        lock_path.write_text("")
        command = f"rm {lock_path}"
    else:
        lock_path.mkdir()
        (lock_path / "notes.txt").write_text("someone's notes")
        old = time.time() - 3600
        os.utime(lock_path, (old, old))
        command = f"rm -r {lock_path}"
    result = MemoryStore(tmp_path, lock_timeout=5).add("memory", "gamma fact")
    assert result["success"] is False
    assert "retryable" not in result
    assert command in result["error"] and "Nothing was changed" in result["error"]
    assert path.read_text() == "alpha fact"
    assert lock_path.exists()
    if kind == "a file":
        lock_path.unlink()
    else:
        (lock_path / "notes.txt").unlink()
        lock_path.rmdir()
    assert MemoryStore(tmp_path).add("memory", "gamma fact")["success"]  # what the message said works


def test_busy_result_from_many_threads_at_once_never_raises(held_memory_lock: Path) -> None:
    store = MemoryStore(held_memory_lock.parent, lock_timeout=0.3)
    results: list[dict] = []
    _run_threads([lambda i=i: results.append(store.add("memory", f"x{i}")) for i in range(6)], 6)
    assert len(results) == 6
    assert all(r["success"] is False and r["retryable"] is True for r in results)
    assert held_memory_lock.read_text() == "alpha fact\n§\nbeta fact"


def test_the_other_target_is_not_blocked_by_a_held_memory_lock(held_memory_lock: Path) -> None:
    store = MemoryStore(held_memory_lock.parent, lock_timeout=0.3)
    assert store.add("user", "prefers metric units")["success"]
    assert (held_memory_lock.parent / "USER.md").read_text() == "prefers metric units"
