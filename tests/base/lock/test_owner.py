"""Owner records (:mod:`pi_memory.base.lock.owner`): who holds a lock and whether they are alive,
so the lock of a killed holder is taken over at once instead of after 30 s — and never on a
guess (another host, another PID namespace, a reused PID, an unreadable record)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from lock_helpers import Holder, backdate, lock_debris, owner_path, take_once

from pi_memory.base.lock import (
    STALE_SECONDS,
    LockBusy,
    file_lock,
    lock_dir_for,
)

# Every test runs under both ways of publishing the lock directory (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("lock_mode")


# ---------------------------------------------------------------- owner records


def test_lock_of_killed_python_holder_is_taken_over_at_once(target: Path, holders: list[Holder]) -> None:
    holder = Holder(target)
    holders.append(holder)
    holder.kill()
    assert lock_dir_for(target).is_dir()  # the crash left the lock behind, fresh by mtime
    assert time.time() - lock_dir_for(target).stat().st_mtime < STALE_SECONDS
    assert take_once(target)
    assert lock_debris(target.parent) == []


def test_lock_of_live_python_holder_is_respected_and_released_cleanly(
    target: Path, holders: list[Holder]
) -> None:
    holder = Holder(target)
    holders.append(holder)
    assert not take_once(target)
    holder.release()
    assert lock_debris(target.parent) == []
    assert take_once(target)


def test_lock_of_killed_unreaped_holder_is_taken_over_at_once(target: Path, holders: list[Holder]) -> None:
    """A SIGKILLed holder that its parent has not wait()ed for yet is a zombie: dead.

    ``kill(pid, 0)`` succeeds on a zombie, so the liveness check has to look at
    the process state too; otherwise a supervisor that kills a worker and then
    touches the store before reaping it waits the full 30 s.
    """
    holder = Holder(target)
    holders.append(holder)
    holder.kill(reap=False)
    pid = holder.proc.pid
    for _ in range(500):  # wait until the kernel has turned it into a zombie
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        if state == "Z":
            break
        time.sleep(0.01)
    assert state == "Z"
    try:
        with file_lock(target, timeout=2):
            pass
    except LockBusy:
        pytest.fail("the lock of a dead (zombie, not yet reaped) holder was not taken over")


def test_owner_record_for_a_replaced_lock_dir_is_ignored(target: Path, holders: list[Holder]) -> None:
    """A record names the directory's inode and mtime; another directory is not its lock."""
    holder = Holder(target)
    holders.append(holder)
    holder.kill()
    lock_dir = lock_dir_for(target)
    record = json.loads(owner_path(target).read_text())
    # Somebody (e.g. a Node peer after the stale timeout) replaced the directory: a new
    # inode, guaranteed different because both directories exist at the same time.
    fresh = lock_dir.with_name("replacement")
    fresh.mkdir()
    os.rmdir(lock_dir)
    os.rename(fresh, lock_dir)
    assert lock_dir.stat().st_ino != record["inode"]
    os.utime(lock_dir, ns=(record["mtimeNs"], record["mtimeNs"]))  # even with the same mtime
    assert not take_once(target)
    # ...and it still falls back to the stale rule.
    backdate(lock_dir, STALE_SECONDS + 1)
    assert take_once(target)


def test_owner_record_with_a_different_mtime_is_ignored(target: Path, holders: list[Holder]) -> None:
    holder = Holder(target)
    holders.append(holder)
    holder.kill()
    lock_dir = lock_dir_for(target)
    record = json.loads(owner_path(target).read_text())
    os.utime(lock_dir, ns=(record["mtimeNs"] + 1_000_000, record["mtimeNs"] + 1_000_000))
    assert lock_dir.stat().st_ino == record["inode"]
    assert not take_once(target)


def _write_record(target: Path, **fields: object) -> None:
    lock_dir = lock_dir_for(target)
    st = lock_dir.stat()
    record = {
        "pid": None,
        "start": None,
        "host": socket.gethostname(),
        "pidns": os.readlink("/proc/self/ns/pid"),
        "boot": BOOT_ID,
        "token": "f" * 32,
        "inode": st.st_ino,
        "mtimeNs": st.st_mtime_ns,
    }
    record.update(fields)
    owner_path(target).write_text(json.dumps(record))


BOOT_ID = Path("/proc/sys/kernel/random/boot_id").read_text().strip()


def _start_ticks(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    yield proc
    proc.kill()
    proc.wait()


def test_pid_reuse_guard_start_time_mismatch_means_dead(
    target: Path, sleeper: subprocess.Popen[bytes]
) -> None:
    """The recorded PID is alive but is a different process (other start time)."""
    lock_dir_for(target).mkdir()
    real_ticks = _start_ticks(sleeper.pid)
    _write_record(target, pid=sleeper.pid, start=str(int(real_ticks) + 1))
    assert take_once(target)


def test_pid_reuse_guard_matching_start_time_means_alive(
    target: Path, sleeper: subprocess.Popen[bytes]
) -> None:
    lock_dir_for(target).mkdir()
    _write_record(target, pid=sleeper.pid, start=_start_ticks(sleeper.pid))
    assert not take_once(target)
    assert lock_dir_for(target).is_dir()


def test_owner_record_from_another_host_is_ignored(target: Path) -> None:
    lock_dir_for(target).mkdir()
    dead_pid = _a_dead_pid()
    _write_record(target, pid=dead_pid, host=socket.gethostname() + "-elsewhere")
    assert not take_once(target)


def test_owner_record_of_a_dead_pid_on_this_host_allows_takeover(target: Path) -> None:
    lock_dir_for(target).mkdir()
    _write_record(target, pid=_a_dead_pid())
    assert take_once(target)


@pytest.mark.parametrize(
    "elsewhere",
    [
        {"pidns": "pid:[1]"},  # a sandbox or container sharing the directory: its PIDs are its own
        {"boot": "00000000-0000-0000-0000-000000000000"},  # before a reboot, or another machine
        {"pidns": None, "boot": None},  # a record that cannot say (an older version's)
    ],
)
def test_a_dead_looking_pid_proves_nothing_from_another_pid_namespace_or_boot(
    target: Path, elsewhere: dict[str, object], sleeper: subprocess.Popen[bytes]
) -> None:
    """Early takeover needs proof; without it the holder gets proper-lockfile's 30 s."""
    for pid, start in ((_a_dead_pid(), None), (sleeper.pid, "1")):  # no such PID; PID "reused"
        lock_dir_for(target).mkdir()
        _write_record(target, pid=pid, start=start, **elsewhere)
        assert not take_once(target)
        backdate(lock_dir_for(target), STALE_SECONDS + 1)
        assert take_once(target)


@pytest.mark.parametrize("garbage", ["", "{not json", "[1, 2]", '{"pid": "12"}'])
def test_unreadable_owner_record_falls_back_to_stale_rule(target: Path, garbage: str) -> None:
    lock_dir_for(target).mkdir()
    owner_path(target).write_text(garbage)
    assert not take_once(target)
    backdate(lock_dir_for(target), STALE_SECONDS + 1)
    assert take_once(target)


def _a_dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid
