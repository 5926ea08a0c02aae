"""Crash safety: a writer process SIGKILLed at random moments never corrupts or loses acknowledged data.

The writer prints an entry to stdout (flushed) only after ``MemoryStore.add``
returned success, so every printed entry is one the caller was told is saved.
After each kill the file must parse, be exactly what the tools would write (no
drift), and hold every acknowledged entry; the lock the dead writer may have
left must not block the next writer.
"""

from __future__ import annotations

import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pi_memory.base.lock import STALE_SECONDS, LockBusy, file_lock, lock_dir_for, owner_record_path
from pi_memory.base.lock import publish as lock_publish
from pi_memory.memory import MemoryStore
from pi_memory.memory import files as filesmod
from pi_memory.memory.entries import drift_reason, is_canonical, parse_entries

LIMIT = 1_000_000
KILLS = 50

WRITER = """
import sys
from pi_memory.memory import MemoryStore
from pi_memory.security.threats import first_threat_message

directory, tag = sys.argv[1], sys.argv[2]
store = MemoryStore(directory, memory_char_limit=1_000_000, lock_timeout=2)
# Compile the scanner now (with text shaped like the adds: it compiles what the text needs),
# so the kill lands among the adds.
first_threat_message(f"{tag}-00000 durable fact about the build")
print("ready", flush=True)
sys.stdin.readline()  # "go": the previous writer has been killed and checked
i = 0
while True:
    entry = f"{tag}-{i:05d} durable fact about the build"
    result = store.add("memory", entry)
    if result["success"]:
        print(f"ack {entry}", flush=True)  # one string, one write: a kill cannot tear it
        i += 1
    else:
        print(f"fail {result['error']}", flush=True)
"""


def _lock_state(target: Path) -> str:
    """``free``, ``recorded`` (an owner record names this lock dir) or ``anonymous``."""
    lock_dir = lock_dir_for(target)
    try:
        st = lock_dir.stat()
    except FileNotFoundError:
        return "free"
    owner = owner_record_path(lock_dir, st.st_ino)  # named after the lock dir's inode
    try:
        record = json.loads(owner.read_text())
    except (OSError, ValueError):
        return "anonymous"
    if record.get("inode") == st.st_ino and st.st_mtime_ns in (record.get("mtimeNs"), record.get("previousMtimeNs")):
        return "recorded"
    return "anonymous"


def _check_file(path: Path, acked: set[str], context: str) -> list[str]:
    if not path.exists():
        assert not acked, f"{context}: MEMORY.md is missing but {len(acked)} adds were acknowledged"
        return []
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pytest.fail(f"{context}: MEMORY.md is not valid UTF-8 after the crash")
    assert drift_reason(text, LIMIT) is None, f"{context}: drift after the crash"
    assert is_canonical(text), f"{context}: the file is not what the tools write: {text[-200:]!r}"
    entries = parse_entries(text)
    missing = acked - set(entries)
    assert not missing, f"{context}: acknowledged entries lost: {sorted(missing)[:5]}"
    return entries


@pytest.mark.slow
def test_sigkill_at_random_moments_never_loses_an_acknowledged_add_nor_blocks_the_next_writer(
    tmp_path: Path, lock_mode: str
) -> None:
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    target = tmp_path / "MEMORY.md"
    acked: set[str] = set()
    attempted_tags: list[str] = []
    anonymous_locks = 0
    recorded_locks = 0

    def spawn(k: int) -> subprocess.Popen[str]:
        # Started one round early so its interpreter start-up overlaps the previous round.
        return subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path), f"w{k:02d}"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    upcoming = spawn(0)
    for k in range(KILLS):
        context = f"seed={seed} kill #{k}"
        attempted_tags.append(f"w{k:02d}")
        proc = upcoming
        assert proc.stdout is not None and proc.stdin is not None
        assert proc.stdout.readline().strip() == "ready", context
        proc.stdin.write("go\n")
        proc.stdin.flush()
        if k + 1 < KILLS:
            upcoming = spawn(k + 1)
        time.sleep(rng.uniform(0.005, 0.080))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        lines = proc.stdout.read().splitlines()
        proc.stdout.close()
        proc.stdin.close()

        failures = [line for line in lines if line.startswith("fail")]
        assert not failures, f"{context}: the writer was refused: {failures[0]}"
        acked.update(line[4:] for line in lines if line.startswith("ack "))
        entries = _check_file(target, acked, context)
        assert all(e.split("-", 1)[0] in attempted_tags for e in entries), context

        state = _lock_state(target)
        if state == "recorded":
            # Left by the dead writer with its record: must be taken over at once (a single
            # attempt, no waiting), exactly as the next writer would.
            recorded_locks += 1
            try:
                with file_lock(target, timeout=0):
                    pass
            except LockBusy:
                pytest.fail(f"{context}: the dead writer's recorded lock was not taken over at once")
        elif state == "anonymous":
            # Nothing says who left it, so only the 30 s rule would clear it. Count it
            # (asserted below) and age it instead of sleeping 30 s.
            anonymous_locks += 1
            old = time.time() - STALE_SECONDS - 1
            os.utime(lock_dir_for(target), (old, old))

    assert len(acked) > KILLS, f"seed={seed}: the writers barely ran ({len(acked)} acks)"

    # One more writer after the last crash: takes over any leftover lock at once and
    # leaves no lock and no crash debris older than the orphan age, and every acked entry.
    for path in tmp_path.iterdir():
        if path.name not in ("MEMORY.md", "MEMORY.md.lock"):
            old = time.time() - 3600
            os.utime(path, (old, old))
    # Sweeps run on a process's first lock of a directory and then at most every 30 s; this
    # process has locked it already, so make the next write behave like a fresh process's.
    lock_publish.forget_sweeps()
    filesmod._last_temp_sweep.clear()
    store = MemoryStore(tmp_path, memory_char_limit=LIMIT, lock_timeout=2)
    result = store.add("memory", "after the storm")
    assert result["success"], result
    final = _check_file(target, acked | {"after the storm"}, f"seed={seed} final")
    assert len(final) >= len(acked) + 1

    problems = []
    # Only the mkdir fallback has a window (between its mkdir and its record) in which a kill
    # leaves a lock nobody can prove dead; with renameat2 every lock is published recorded.
    if anonymous_locks and lock_mode == "renameat2":
        problems.append(
            f"{anonymous_locks}/{KILLS} kills left a lock directory without a matching owner record "
            "(killed between mkdir and the record, or between unlinking the record and rmdir); each "
            "blocks the next writer for the 30 s stale period"
        )
    lock_publish.drop_spares()  # as at exit: this process's own spare lock dirs are not debris
    leftovers = sorted(p.name for p in tmp_path.iterdir() if p.name != "MEMORY.md")
    if leftovers:
        problems.append(f"debris after the next successful write: {leftovers}")
    assert not problems, f"seed={seed} ({recorded_locks} recorded locks taken over at once): " + "; ".join(
        problems
    )

@pytest.mark.usefixtures("lock_mode")
def test_next_writer_takes_over_a_killed_writers_lock_at_once(tmp_path: Path) -> None:
    """Kill a writer while it holds the lock (its write is parked), then write with a 2 s budget."""
    parked = """
import os, signal, sys
from pi_memory.memory import MemoryStore, files

def park(*args, **kwargs):
    print("inside", flush=True)
    signal.pause()

files.replace_file = park  # the store's write (pi_memory.base.fs.replace_file), inside the lock
MemoryStore(sys.argv[1], lock_timeout=2).add("memory", "never acknowledged")
"""
    (tmp_path / "MEMORY.md").write_text("kept")
    proc = subprocess.Popen([sys.executable, "-c", parked, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "inside"
    assert _lock_state(tmp_path / "MEMORY.md") == "recorded"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    proc.stdout.close()

    store = MemoryStore(tmp_path, lock_timeout=2)
    result = store.add("memory", "next writer")
    assert result["success"], result
    assert (tmp_path / "MEMORY.md").read_text() == "kept\n§\nnext writer"
    assert _lock_state(tmp_path / "MEMORY.md") == "free"


def test_next_successful_write_removes_an_old_orphan_temp(tmp_path: Path) -> None:
    orphan = tmp_path / ".mem_deadbeef0000.tmp"
    orphan.write_text("half a write from a crashed writer")
    long_ago = time.time() - 600
    os.utime(orphan, (long_ago, long_ago))
    store = MemoryStore(tmp_path)
    assert store.add("memory", "fresh entry")["success"]
    assert not orphan.exists()
    lock_publish.drop_spares()  # as at exit: this process's own spare lock dirs are not debris
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MEMORY.md"]


# ---------------------------------------------------------------- what a durable write does, in order


def _record_write_path(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """fsyncs (of a file or a directory), renames onto targets and lock releases, in order."""
    events: list[tuple[str, ...]] = []
    real_fsync, real_rename, real_rmdir, real_swap = os.fsync, os.rename, os.rmdir, lock_publish.rename_noreplace

    def fsync(fd: int) -> None:
        events.append(("fsync", "directory" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"))
        real_fsync(fd)

    def rename(src: str | Path, dst: str | Path) -> None:
        events.append(("rename", Path(dst).name))
        real_rename(src, dst)

    # Releasing takes the public name ``MEMORY.md.lock`` away: renamed back to the private name
    # (renameat2) or removed (mkdir).
    def swap(src: Path, dst: Path) -> bool | None:
        if src.name == "MEMORY.md.lock":
            events.append(("release",))
        return real_swap(src, dst)

    def rmdir(path: str | Path, *args: object, **kwargs: object) -> None:
        if Path(path).name == "MEMORY.md.lock":
            events.append(("release",))
        real_rmdir(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "rename", rename)
    monkeypatch.setattr(os, "rmdir", rmdir)
    monkeypatch.setattr(lock_publish, "rename_noreplace", swap)
    return events


@pytest.mark.usefixtures("lock_mode")
@pytest.mark.parametrize("method", ["add", "replace", "remove"])
def test_a_write_fsyncs_the_temp_file_then_renames_then_fsyncs_the_directory_before_answering(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    """Data durable before the rename can be; the rename durable before success is reported.

    The directory fsync may follow the lock's release: a writer that takes the lock in between
    reads and rewrites our already-renamed content, so it cannot lose our write.
    """
    (tmp_path / "MEMORY.md").write_text("first fact\n§\nsecond fact")
    store = MemoryStore(tmp_path)
    events = _record_write_path(monkeypatch)
    args = {"add": ("memory", "third fact"), "replace": ("memory", "first", "first, revised"),
            "remove": ("memory", "second")}[method]
    assert getattr(store, method)(*args)["success"]
    assert events == [("fsync", "file"), ("rename", "MEMORY.md"), ("release",), ("fsync", "directory")]


def test_a_symlinked_file_is_written_through_and_its_real_directory_fsynced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_dir, link_dir = tmp_path / "real", tmp_path / "links"
    real_dir.mkdir()
    link_dir.mkdir()
    (real_dir / "MEMORY.md").write_text("kept")
    (link_dir / "MEMORY.md").symlink_to(real_dir / "MEMORY.md")
    fsynced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        fsynced.append(os.fstat(fd).st_ino)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    assert MemoryStore(link_dir).add("memory", "added through the link")["success"]
    assert (link_dir / "MEMORY.md").is_symlink()
    assert (real_dir / "MEMORY.md").read_text() == "kept\n§\nadded through the link"
    assert fsynced[-1] == real_dir.stat().st_ino


def test_a_non_durable_backend_never_fsyncs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pi_memory.memory.files import FileBackend

    events = _record_write_path(monkeypatch)
    assert MemoryStore(backend=FileBackend(tmp_path, durable=False)).add("memory", "scratch fact")["success"]
    assert ("fsync", "file") not in events and ("fsync", "directory") not in events
    assert ("rename", "MEMORY.md") in events
