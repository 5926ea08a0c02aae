"""Python and Node (the real proper-lockfile 4.1.2) share one MEMORY.md without losing updates.

The Node side is tests/interop/lock_peer.mjs, which locks the file exactly as
pi-memory does. These tests fail (never skip) when Node or the peers are
missing: `bash scripts/test.sh` installs them.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_memory.base.lock import STALE_SECONDS, file_lock, lock_dir_for
from pi_memory.base.lock import publish as lock_publish
from pi_memory.memory import MemoryStore
from pi_memory.memory.entries import drift_reason, is_canonical, parse_entries

# Both ways our lock publishes its directory (the lock_mode fixture, tests/conftest.py), here and in
# every Python subprocess.
pytestmark = [pytest.mark.interop, pytest.mark.usefixtures("lock_mode")]

HERE = Path(__file__).parent
PEER = HERE / "lock_peer.mjs"


def node_command() -> list[str]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("`node` is not on PATH: the lock interop tests need Node 20+ (see scripts/test.sh)")
    if not (HERE / "node_modules" / "proper-lockfile" / "package.json").is_file():
        pytest.fail(
            "tests/interop/node_modules/proper-lockfile is missing: run `bash scripts/test.sh` "
            "(it runs `npm ci --prefix tests/interop`) before the interop tests"
        )
    return [node, str(PEER)]


def node_check(target: Path) -> bool:
    out = subprocess.run(
        [*node_command(), "check", str(target)], capture_output=True, text=True, timeout=60, check=True
    )
    return bool(json.loads(out.stdout)["locked"])


class NodeHolder:
    def __init__(self, target: Path) -> None:
        self.proc = subprocess.Popen(
            [*node_command(), "hold", str(target)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()
        if line != "locked":
            _, err = self.proc.communicate(timeout=10)
            pytest.fail(f"the Node peer did not take the lock: {line!r} {err}")

    def release(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        assert self.proc.stdout.readline().strip() == "released"
        assert self.proc.wait(timeout=10) == 0

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def cleanup(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


@pytest.fixture
def procs() -> Iterator[list]:
    started: list = []
    yield started
    for item in started:
        if isinstance(item, NodeHolder):
            item.cleanup()
        else:
            if item.poll() is None:
                item.kill()
            item.wait(timeout=10)
            for stream in (item.stdin, item.stdout, item.stderr):
                if stream is not None:
                    stream.close()


@pytest.fixture
def memory_file(tmp_path: Path) -> Path:
    node_command()  # fail early and clearly when the peer can't run
    return tmp_path / "MEMORY.md"


# ---------------------------------------------------------------- no lost updates

PY_WRITER = """
import os, sys, time
from pi_memory.memory import MemoryStore

directory, tag, count, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
store = MemoryStore(directory, memory_char_limit=1_000_000, lock_timeout=30)
print("ready", flush=True)
while not os.path.exists(go):
    time.sleep(0.001)
for i in range(count):
    result = store.add("memory", f"{tag}-{i}")
    if not result["success"]:
        print("fail", result["error"], flush=True)
        sys.exit(1)
print("done", flush=True)
"""


@pytest.mark.slow
def test_node_and_python_writers_never_lose_an_update(memory_file: Path, procs: list) -> None:
    directory = memory_file.parent
    go = directory.parent / f"{directory.name}.go"
    n_node, n_py, py_writers = 80, 40, 3
    for w in range(py_writers):
        proc = subprocess.Popen(
            [sys.executable, "-c", PY_WRITER, str(directory), f"py{w}", str(n_py), str(go)],
            stdout=subprocess.PIPE,
            text=True,
        )
        procs.append(proc)
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
    node = subprocess.Popen(
        [*node_command(), "append", str(memory_file), "node", str(n_node)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    procs.append(node)
    go.touch()

    node_out, node_err = node.communicate(timeout=120)
    assert node.returncode == 0, node_err
    assert node_out.splitlines() == [f"ack node-{i}" for i in range(n_node)]
    for proc in procs[:py_writers]:
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0, out
        assert out.strip() == "done"

    text = memory_file.read_text()
    assert drift_reason(text, 1_000_000) is None
    assert is_canonical(text)
    entries = parse_entries(text)
    expected = {f"node-{i}" for i in range(n_node)} | {
        f"py{w}-{i}" for w in range(py_writers) for i in range(n_py)
    }
    missing = expected - set(entries)
    assert not missing, f"{len(missing)} updates lost, e.g. {sorted(missing)[:5]}"
    assert len(entries) == n_node + py_writers * n_py
    # Both sides really interleaved (not one after the other).
    first_py = min(i for i, e in enumerate(entries) if e.startswith("py"))
    last_node = max(i for i, e in enumerate(entries) if e.startswith("node"))
    assert first_py < last_node
    leftovers = sorted(p.name for p in directory.iterdir() if p.name != "MEMORY.md")
    assert leftovers == [], f"left behind: {leftovers}"


# ---------------------------------------------------------------- locks left by the other side


def test_stale_lock_of_a_killed_node_holder_is_taken_over(memory_file: Path, procs: list) -> None:
    holder = NodeHolder(memory_file)
    procs.append(holder)
    holder.kill()  # SIGKILL: proper-lockfile's exit handler never runs
    lock_dir = lock_dir_for(memory_file)
    assert lock_dir.is_dir()
    assert not [p for p in memory_file.parent.iterdir() if ".lock.owner" in p.name]  # Node keeps no record
    store = MemoryStore(memory_file.parent, lock_timeout=0.3)
    assert store.add("memory", "too early")["retryable"] is True  # fresh: still respected

    old = time.time() - STALE_SECONDS - 1
    os.utime(lock_dir, (old, old))
    result = MemoryStore(memory_file.parent, lock_timeout=2).add("memory", "after the stale node lock")
    assert result["success"], result
    assert memory_file.read_text() == "after the stale node lock"
    assert not lock_dir.exists()


def test_fresh_node_held_lock_is_not_taken_over(memory_file: Path, procs: list) -> None:
    memory_file.write_text("first fact")
    holder = NodeHolder(memory_file)
    procs.append(holder)
    store = MemoryStore(memory_file.parent, lock_timeout=0.3)
    result = store.add("memory", "second fact")
    assert result["success"] is False
    assert result["retryable"] is True
    assert "busy" in result["error"]
    assert memory_file.read_text() == "first fact"
    assert lock_dir_for(memory_file).is_dir()  # Node's lock survived our attempt

    holder.release()
    assert store.add("memory", "second fact")["success"]
    assert memory_file.read_text() == "first fact\n§\nsecond fact"


PY_HOLDER = """
import sys
from pi_memory.base.lock import file_lock
with file_lock(sys.argv[1], timeout=5):
    print("locked", flush=True)
    sys.stdin.read()
"""


def test_lock_of_a_sigkilled_python_holder_is_taken_over_at_once(memory_file: Path, procs: list) -> None:
    memory_file.write_text("kept fact")
    holder = subprocess.Popen(
        [sys.executable, "-c", PY_HOLDER, str(memory_file)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    procs.append(holder)
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "locked"
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=10)
    assert lock_dir_for(memory_file).is_dir()
    assert node_check(memory_file)  # Node can't know the holder died: it waits for staleness

    result = MemoryStore(memory_file.parent, lock_timeout=2).add("memory", "new fact")
    assert result["success"], result
    assert memory_file.read_text() == "kept fact\n§\nnew fact"
    assert not lock_dir_for(memory_file).exists()
    assert not node_check(memory_file)


def test_node_check_reports_locked_while_python_holds(memory_file: Path) -> None:
    memory_file.write_text("x")
    assert not node_check(memory_file)
    with file_lock(memory_file):
        assert node_check(memory_file)
    assert not node_check(memory_file)


def test_node_takes_over_a_stale_python_lock_despite_the_owner_record(memory_file: Path, procs: list) -> None:
    """The owner record sits beside the lock dir, so proper-lockfile's rmdir of a stale lock works."""
    memory_file.write_text("kept fact")
    holder = subprocess.Popen(
        [sys.executable, "-c", PY_HOLDER, str(memory_file)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    procs.append(holder)
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "locked"
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=10)
    lock_dir = lock_dir_for(memory_file)
    old = time.time() - STALE_SECONDS - 1
    os.utime(lock_dir, (old, old))

    out = subprocess.run(
        [*node_command(), "append", str(memory_file), "node", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ack node-0"
    assert memory_file.read_text() == "kept fact\n§\nnode-0"
    # The dead holder's record now describes no lock; Python ignores it and moves on...
    assert MemoryStore(memory_file.parent, lock_timeout=2).add("memory", "python again")["success"]
    assert not lock_dir.exists()
    # ...and sweeps it once it is older than the orphan age.
    for path in memory_file.parent.iterdir():
        if path.name != "MEMORY.md":
            os.utime(path, (old - 3600, old - 3600))
    lock_publish.forget_sweeps()  # this process swept moments ago; sweeps are at most every 30 s
    assert MemoryStore(memory_file.parent, lock_timeout=2).add("memory", "and again")["success"]
    lock_publish.drop_spares()  # as at exit: this process's own spare lock dirs are not debris
    assert sorted(p.name for p in memory_file.parent.iterdir()) == ["MEMORY.md"]


def test_python_waits_for_a_node_writer_then_sees_its_entries(memory_file: Path, procs: list) -> None:
    """A Python add queued behind Node's lock re-reads the file inside the lock (no stale overwrite)."""
    store = MemoryStore(memory_file.parent, lock_timeout=10)
    store.load_from_disk()  # live view: empty
    holder = NodeHolder(memory_file)
    procs.append(holder)
    memory_file.write_text("written by node while holding the lock")
    timer = threading.Timer(0.3, holder.release)
    timer.start()
    try:
        result = store.add("memory", "python fact")
    finally:
        timer.join()
    assert result["success"], result
    assert memory_file.read_text() == "written by node while holding the lock\n§\npython fact"
