"""The proper-lockfile-compatible lock: paths, staleness, owner records, refresh, release.

Holders that must be "another process" are real Python subprocesses; a Node-style
lock is a bare directory made with ``mkdir`` (that is all proper-lockfile leaves on
disk). The real-Node side lives in tests/interop/test_lock_interop.py.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_memory.base.lock import (
    STALE_SECONDS,
    LockBlocked,
    LockBusy,
    LockCompromised,
    file_lock,
    lock_dir_for,
    owner_record_path,
)
from pi_memory.base.lock import publish as publishmod
from pi_memory.memory import files as filesmod

# Every test runs under both ways of publishing the lock directory (tests/memory/conftest.py).
pytestmark = pytest.mark.usefixtures("lock_mode")

HOLDER = """
import sys
from pi_memory.base.lock import file_lock
with file_lock(sys.argv[1], timeout=5) as held:
    print("locked", held.lock_dir.stat().st_mtime_ns, flush=True)
    sys.stdin.read()
print("released", flush=True)
"""


class Holder:
    """A Python subprocess holding ``target``'s lock until told to release or killed."""

    def __init__(self, target: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(target)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line.startswith("locked"), f"holder did not lock: {line!r}"

    def release(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        assert self.proc.stdout.readline().strip() == "released"
        assert self.proc.wait(timeout=10) == 0

    def kill(self, reap: bool = True) -> None:
        self.proc.send_signal(signal.SIGKILL)
        if reap:
            self.proc.wait(timeout=10)

    def cleanup(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()


@pytest.fixture
def holders() -> Iterator[list[Holder]]:
    started: list[Holder] = []
    yield started
    for holder in started:
        holder.cleanup()


@pytest.fixture
def target(tmp_path: Path) -> Path:
    path = tmp_path / "MEMORY.md"
    path.write_text("one")
    return path


def owner_path(target: Path) -> Path:
    """``<realpath>.lock.owner.<inode>``: the record of whoever holds the current lock directory."""
    lock_dir = lock_dir_for(target)
    return owner_record_path(lock_dir, lock_dir.stat().st_ino)


def lock_debris(directory: Path) -> list[str]:
    """Everything locks left beside a file (records, private dirs, temp records), not counting
    this test process's own spares, which it drops first (as it would at exit)."""
    publishmod.drop_spares()
    return sorted(p.name for p in directory.iterdir() if ".lock" in p.name)


def backdate(path: Path, seconds: float) -> None:
    when = time.time() - seconds
    os.utime(path, (when, when))


def take_once(target: Path) -> bool:
    """One attempt (timeout 0): True when we got the lock (and released it)."""
    try:
        with file_lock(target, timeout=0):
            return True
    except LockBusy:
        return False


# ---------------------------------------------------------------- paths and cleanup


def test_lock_dir_is_realpath_dot_lock_and_owner_record_sits_beside_it(tmp_path: Path) -> None:
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    real = real_dir / "MEMORY.md"
    real.write_text("x")
    link_dir = tmp_path / "links"
    link_dir.mkdir()
    link = link_dir / "MEMORY.md"
    link.symlink_to(real)

    with file_lock(link) as held:
        assert held.lock_dir == real_dir / "MEMORY.md.lock"
        assert held.lock_dir.is_dir()
        # Beside, never inside: proper-lockfile removes stale locks with rmdir.
        assert list(held.lock_dir.iterdir()) == []
        assert held.owner_file == real_dir / f".MEMORY.md.lock.owner.{held.lock_dir.stat().st_ino}"
        record = json.loads(held.owner_file.read_text())
        assert record["pid"] == os.getpid()
        assert record["host"] == socket.gethostname()
        assert record["inode"] == held.lock_dir.stat().st_ino
        assert record["mtimeNs"] == held.lock_dir.stat().st_mtime_ns
        assert not (link_dir / "MEMORY.md.lock").exists()
    publishmod.drop_spares()  # as at exit; see the spare tests below
    assert sorted(p.name for p in real_dir.iterdir()) == ["MEMORY.md"]
    assert sorted(p.name for p in link_dir.iterdir()) == ["MEMORY.md"]


def test_lock_works_when_target_does_not_exist_and_does_not_create_it(tmp_path: Path) -> None:
    missing = tmp_path / "USER.md"
    with file_lock(missing) as held:
        assert held.lock_dir == tmp_path / "USER.md.lock"
        assert held.lock_dir.is_dir()
        assert not take_once(missing)
    assert not missing.exists()
    publishmod.drop_spares()
    assert list(tmp_path.iterdir()) == []


def test_release_leaves_nothing_behind_even_after_refreshes(target: Path) -> None:
    before = sorted(p.name for p in target.parent.iterdir())
    with file_lock(target) as held:
        held.refresh()
        held.refresh()
    publishmod.drop_spares()
    assert sorted(p.name for p in target.parent.iterdir()) == before


def test_release_after_exception_in_body(target: Path) -> None:
    with pytest.raises(RuntimeError), file_lock(target):
        raise RuntimeError("boom")
    assert lock_debris(target.parent) == []
    assert take_once(target)


# ---------------------------------------------------------------- staleness (Node-style locks)


def test_fresh_foreign_lock_is_respected(target: Path) -> None:
    lock_dir_for(target).mkdir()  # what a live proper-lockfile holder leaves on disk
    backdate(lock_dir_for(target), STALE_SECONDS - 2)
    assert not take_once(target)
    assert lock_dir_for(target).is_dir()


def test_stale_foreign_lock_is_taken_over_after_30s(target: Path) -> None:
    lock_dir_for(target).mkdir()
    backdate(lock_dir_for(target), STALE_SECONDS + 1)
    with file_lock(target, timeout=0) as held:
        # A new directory of ours, with a fresh mtime, replaced the stale one.
        assert time.time() - held.lock_dir.stat().st_mtime < STALE_SECONDS / 2
    assert not lock_dir_for(target).exists()


def test_stale_rule_uses_the_given_stale_seconds(target: Path) -> None:
    lock_dir_for(target).mkdir()
    backdate(lock_dir_for(target), 6)
    with pytest.raises(LockBusy), file_lock(target, timeout=0, stale=10):
        pass
    with file_lock(target, timeout=0, stale=5):
        pass


def test_lock_dir_with_content_is_never_removed(target: Path) -> None:
    """A directory we don't understand (not empty) is not a lock we may break: a person must."""
    lock_dir_for(target).mkdir()
    (lock_dir_for(target) / "something").write_text("x")
    backdate(lock_dir_for(target), STALE_SECONDS + 100)
    with pytest.raises(LockBlocked) as info, file_lock(target, timeout=5):
        pass
    assert f"rm -r {lock_dir_for(target)}" in str(info.value)
    assert (lock_dir_for(target) / "something").exists()


def test_a_fresh_lock_dir_with_content_is_waited_for_like_any_fresh_lock(target: Path) -> None:
    lock_dir_for(target).mkdir()
    (lock_dir_for(target) / "something").write_text("x")
    with pytest.raises(LockBusy) as info, file_lock(target, timeout=0):
        pass
    assert not isinstance(info.value, LockBlocked)


@pytest.mark.parametrize("kind", ["a fresh file", "an old file", "a link to a directory"])
def test_a_lock_path_that_is_not_a_directory_is_never_removed_and_says_what_to_remove(
    target: Path, kind: str
) -> None:
    """Never a proper-lockfile lock (maybe another tool's lock file): waiting cannot clear it."""
    lock_path = lock_dir_for(target)
    if kind == "a link to a directory":
        (target.parent / "elsewhere").mkdir()
        lock_path.symlink_to(target.parent / "elsewhere")
    else:
        lock_path.write_text("another tool's lock")
    if kind != "a fresh file":
        os.utime(lock_path, (time.time() - 3600,) * 2, follow_symlinks=False)
    with pytest.raises(LockBlocked) as info, file_lock(target, timeout=5):
        pass
    assert info.value.path == target
    assert f"rm {lock_path}" in str(info.value)
    assert lock_path.is_symlink() or lock_path.read_text() == "another tool's lock"


def test_a_lock_dated_more_than_the_stale_time_ahead_is_stale(target: Path) -> None:
    """A lock stamped before the clock was set back would otherwise never age."""
    lock_dir_for(target).mkdir()
    ahead = time.time() + 5
    os.utime(lock_dir_for(target), (ahead, ahead))
    assert not take_once(target)  # a few seconds ahead: clock skew, still a live lock
    ahead = time.time() + STALE_SECONDS + 60
    os.utime(lock_dir_for(target), (ahead, ahead))
    with file_lock(target, timeout=0) as held:
        assert abs(time.time() - held.lock_dir.stat().st_mtime) < STALE_SECONDS / 2
    assert not lock_dir_for(target).exists()


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


# ---------------------------------------------------------------- crash windows


KILL_DURING_RELEASE = """
import os, signal, sys
from pi_memory.base import lock

real_rmdir = os.rmdir

def rmdir_then_die(path, *args, **kwargs):
    if str(path).endswith(".lock"):
        os.kill(os.getpid(), signal.SIGKILL)  # crash between "record removed" and "rmdir"
    return real_rmdir(path, *args, **kwargs)

with lock.file_lock(sys.argv[1]):
    os.rmdir = rmdir_then_die
"""


KILL_INSTEAD_OF_RENAMING_BACK = """
import os, signal, sys
from pi_memory.base import lock
from pi_memory.base.lock import publish

def die_instead_of_renaming_back(src, dst):
    os.kill(os.getpid(), signal.SIGKILL)  # releasing: the lock dir still has its public name

with lock.file_lock(sys.argv[1]):
    publish.rename_noreplace = die_instead_of_renaming_back
    pass
"""

KILL_RIGHT_AFTER_RENAMING_BACK = """
import os, signal, sys
from pi_memory.base import lock
from pi_memory.base.lock import publish

def die_once_released(lock_dir, path, inode):
    os.kill(os.getpid(), signal.SIGKILL)  # the lock is released; its spare and record remain

with lock.file_lock(sys.argv[1]):
    publish.keep_spare = die_once_released
"""


def test_holder_killed_while_releasing_does_not_leave_a_30s_lock(target: Path, lock_mode: str) -> None:
    """A crash in the middle of release is still a crash of one of our processes."""
    _crash(KILL_INSTEAD_OF_RENAMING_BACK if lock_mode == "renameat2" else KILL_DURING_RELEASE, target)
    assert lock_dir_for(target).is_dir()
    try:
        with file_lock(target, timeout=2):
            pass
    except LockBusy:
        pytest.fail("a lock left by a Python holder killed during release blocks for 30 s")


KILL_BEFORE_PUBLISHING = """
import os, signal, sys
from pi_memory.base import lock
from pi_memory.base.lock import publish

def die_instead_of_publishing(private, public):
    os.kill(os.getpid(), signal.SIGKILL)  # private dir and its record exist; the lock does not

publish.rename_noreplace = die_instead_of_publishing
with lock.file_lock(sys.argv[1]):
    pass
"""

KILL_RIGHT_AFTER_PUBLISHING = """
import os, signal, sys
from pi_memory.base import lock
from pi_memory.base.lock import publish

real_rename = publish.rename_noreplace

def publish_then_die(private, public):
    done = real_rename(private, public)
    os.kill(os.getpid(), signal.SIGKILL)  # the lock exists now; die before anything else
    return done

publish.rename_noreplace = publish_then_die
with lock.file_lock(sys.argv[1]):
    pass
"""

KILL_AFTER_RMDIR_IN_RELEASE = """
import os, signal, sys
from pi_memory.base import lock

real_unlink = os.unlink

def unlink_then_die(path, *args, **kwargs):
    if ".lock.owner." in os.path.basename(str(path)):
        os.kill(os.getpid(), signal.SIGKILL)  # lock dir already gone, record still there
    return real_unlink(path, *args, **kwargs)

with lock.file_lock(sys.argv[1]):
    os.unlink = unlink_then_die
"""


# ---- the mkdir fallback's own crash points (no private directory, the record follows the mkdir)

KILL_BETWEEN_MKDIR_AND_RECORD = """
import os, signal, sys
from pi_memory.base import lock
from pi_memory.base.lock import owner, publish

assert not publish.available(lock.lock_dir_for(sys.argv[1])), "the test process did not force the mkdir fallback"

def die_before_the_record(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)  # the lock dir exists; no record names it

owner.write_record = die_before_the_record
with lock.file_lock(sys.argv[1]):
    pass
"""

KILL_RIGHT_AFTER_THE_RECORD = """
import os, signal, sys
from pi_memory.base import lock
from pi_memory.base.lock import owner

real_write_record = owner.write_record

def record_then_die(*args, **kwargs):
    real_write_record(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGKILL)  # lock dir and its record exist

owner.write_record = record_then_die
with lock.file_lock(sys.argv[1]):
    pass
"""

KILL_DURING_REFRESH = """
import os, signal, sys
from pi_memory.base import lock

real_replace = os.replace

def die_instead_of_renaming_the_record(src, dst, *args, **kwargs):
    if ".lock.owner." in os.path.basename(str(dst)):
        os.kill(os.getpid(), signal.SIGKILL)  # the new temp record is written, not yet in place
    return real_replace(src, dst, *args, **kwargs)

with lock.file_lock(sys.argv[1]) as held:
    os.replace = die_instead_of_renaming_the_record
    held.refresh()
"""


def _crash(script: str, target: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", script, str(target)], check=False)
    assert proc.returncode == -signal.SIGKILL


def _age_debris(directory: Path) -> None:
    for name in lock_debris(directory):
        if name != "MEMORY.md.lock":
            backdate(directory / name, 3600)


@pytest.mark.lock_modes("renameat2")
def test_holder_killed_before_publishing_never_leaves_a_lock(target: Path) -> None:
    _crash(KILL_BEFORE_PUBLISHING, target)
    assert not lock_dir_for(target).exists()
    assert take_once(target)


@pytest.mark.lock_modes("renameat2")
def test_holder_killed_right_after_publishing_is_taken_over_at_once(target: Path) -> None:
    _crash(KILL_RIGHT_AFTER_PUBLISHING, target)
    assert lock_dir_for(target).is_dir()
    assert json.loads(owner_path(target).read_text())["inode"] == lock_dir_for(target).stat().st_ino
    assert take_once(target)


def test_holder_killed_in_the_middle_of_a_refresh_is_taken_over_at_once(target: Path) -> None:
    """The refresh writes a record naming the old and the new mtime before it touches the dir."""
    _crash(KILL_DURING_REFRESH, target)
    assert lock_dir_for(target).is_dir()
    assert take_once(target)


@pytest.mark.lock_modes("mkdir")
def test_fallback_holder_killed_between_mkdir_and_record_leaves_a_lock_only_staleness_clears(target: Path) -> None:
    """The fallback's documented window: such a lock looks like a Node holder's and waits 30 s."""
    _crash(KILL_BETWEEN_MKDIR_AND_RECORD, target)
    lock_dir = lock_dir_for(target)
    assert lock_dir.is_dir()
    assert not [n for n in lock_debris(target.parent) if n.startswith(".MEMORY.md.lock.owner.")]
    assert not take_once(target)  # fresh and unrecorded: respected
    backdate(lock_dir, STALE_SECONDS + 1)
    assert take_once(target)
    assert not lock_dir.exists()


@pytest.mark.lock_modes("mkdir")
def test_fallback_holder_killed_right_after_its_record_is_taken_over_at_once(target: Path) -> None:
    _crash(KILL_RIGHT_AFTER_THE_RECORD, target)
    assert json.loads(owner_path(target).read_text())["inode"] == lock_dir_for(target).stat().st_ino
    assert take_once(target)
    assert lock_debris(target.parent) == []


@pytest.mark.lock_modes("renameat2")
def test_primary_mode_really_publishes_with_renameat2(target: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Guards the parametrisation: the renameat2 runs must not be silently running the fallback."""
    outcomes: list[bool | None] = []
    real_rename = publishmod.rename_noreplace

    def spy(src: Path, dst: Path) -> bool | None:
        done = real_rename(src, dst)
        if dst == lock_dir_for(target):  # publishing (releasing renames the other way)
            outcomes.append(done)
        return done

    monkeypatch.setattr(publishmod, "rename_noreplace", spy)
    with file_lock(target):
        pass
    assert outcomes == [True]


@pytest.mark.lock_modes("renameat2")
def test_a_filesystem_refusing_noreplace_falls_back_to_mkdir_and_remembers(
    target: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """renameat2 exists but this directory's filesystem answers EINVAL: mkdir, and no retry per lock."""
    calls: list[Path] = []

    def unsupported(private: Path, public: Path) -> bool | None:
        calls.append(public)
        return None

    monkeypatch.setattr(publishmod, "rename_noreplace", unsupported)
    for _ in range(3):
        with file_lock(target) as held:
            assert held.lock_dir == lock_dir_for(target)
            assert json.loads(held.owner_file.read_text())["mtimeNs"] == held.lock_dir.stat().st_mtime_ns
            assert not take_once(target)
    assert len(calls) == 1
    assert lock_debris(target.parent) == []


def test_holder_killed_after_releasing_leaves_only_harmless_debris(target: Path, lock_mode: str) -> None:
    """renameat2: the spare dir and its record stay; mkdir: the record of a removed dir stays."""
    _crash(KILL_RIGHT_AFTER_RENAMING_BACK if lock_mode == "renameat2" else KILL_AFTER_RMDIR_IN_RELEASE, target)
    assert not lock_dir_for(target).exists()
    assert [n for n in lock_debris(target.parent) if n.startswith(".MEMORY.md.lock.owner.")]
    assert take_once(target)


@pytest.mark.parametrize("crash", ["before publishing", "after releasing"])
def test_crash_debris_is_swept_once_old_and_kept_while_young(target: Path, crash: str, lock_mode: str) -> None:
    """Leftovers of a crash (private dir, half-written or orphaned record) must not pile up."""
    from pi_memory.memory import MemoryStore

    script = {
        ("before publishing", "renameat2"): KILL_BEFORE_PUBLISHING,
        # No private directory in the fallback: its debris is a temp record from a refresh.
        ("before publishing", "mkdir"): KILL_DURING_REFRESH,
        ("after releasing", "renameat2"): KILL_RIGHT_AFTER_RENAMING_BACK,
        ("after releasing", "mkdir"): KILL_AFTER_RMDIR_IN_RELEASE,
    }[crash, lock_mode]
    _crash(script, target)
    debris = lock_debris(target.parent)
    assert debris, "the fault injection left nothing to sweep"
    assert MemoryStore(target.parent).add("memory", "young debris is kept")["success"]
    if lock_mode == "renameat2":
        # A private dir whose record proves its process dead goes at once, however young.
        assert lock_debris(target.parent) == []
    else:
        # What proves nothing (a temp record; a record whose directory is gone, whose name the
        # next lock dir may reuse) stays while young. (A dead record may legitimately be
        # overwritten when the next lock dir reuses its inode.)
        temps = [n for n in debris if n.endswith(".tmp")]
        assert set(temps) <= set(lock_debris(target.parent))
    _age_debris(target.parent)
    # Within 30 s of its last sweep a process does not scan again (see the next test).
    publishmod.forget_sweeps()
    filesmod._last_temp_sweep.clear()
    assert MemoryStore(target.parent).add("memory", "old debris is swept")["success"]
    assert lock_debris(target.parent) == [], "crash debris never cleaned"


def test_a_process_sweeps_on_its_first_lock_then_at_most_every_30s(target: Path) -> None:
    """A directory scan per lock would cost as much as the lock; debris only needs to go eventually."""
    _crash(KILL_DURING_REFRESH, target)  # leaves a temp record nobody else would ever touch
    _age_debris(target.parent)
    publishmod.forget_sweeps()
    with file_lock(target):
        pass
    assert lock_debris(target.parent) == []  # first lock of this directory in this process: swept
    _crash(KILL_DURING_REFRESH, target)
    _age_debris(target.parent)
    with file_lock(target):
        pass
    leftover = lock_debris(target.parent)
    assert leftover, "swept again within 30 s"
    # Another process (a restarted agent) sweeps on its first lock.
    subprocess.run([sys.executable, "-c", PROBE, str(target)], check=True, capture_output=True)
    assert lock_debris(target.parent) == []


# ---------------------------------------------------------------- spares (renameat2 only)


@pytest.mark.lock_modes("renameat2")
def test_release_keeps_the_private_dir_as_a_spare_and_the_next_lock_reuses_it(
    target: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No mkdir/rmdir and no record create/unlink per lock: each allocates and frees in the journal."""
    with file_lock(target) as first:
        inode = first.inode
    assert not lock_dir_for(target).exists()  # released: the public name is gone
    spare = publishmod.spare_of(lock_dir_for(target))
    assert spare is not None
    spare_path, spare_inode = spare
    assert spare_inode == inode and spare_path.is_dir() and list(spare_path.iterdir()) == []
    assert owner_record_path(lock_dir_for(target), inode).exists()

    made: list[str] = []
    real_mkdir = os.mkdir
    monkeypatch.setattr(os, "mkdir", lambda p, *a, **k: (made.append(str(p)), real_mkdir(p, *a, **k)))
    with file_lock(target) as second:
        assert second.inode == inode
        record = json.loads(second.owner_file.read_text())  # rewritten in place, padded
        assert (record["token"], record["mtimeNs"]) == (second.token, second.lock_dir.stat().st_mtime_ns)
        assert not take_once(target)
    assert made == []
    assert lock_debris(target.parent) == []  # dropping the spare removes dir and record


@pytest.mark.lock_modes("renameat2")
def test_a_spare_swept_by_another_process_is_replaced(target: Path) -> None:
    with file_lock(target):
        pass
    spare = publishmod.spare_of(lock_dir_for(target))
    assert spare is not None
    os.rmdir(spare[0])  # what another process's sweep does to an idle spare
    owner_record_path(lock_dir_for(target), spare[1]).unlink()
    with file_lock(target) as held:
        assert json.loads(held.owner_file.read_text())["inode"] == held.inode
        assert not take_once(target)
    assert not lock_dir_for(target).exists()


@pytest.mark.lock_modes("renameat2")
def test_spares_are_removed_when_the_process_exits(target: Path) -> None:
    script = """
import sys
from pi_memory.base.lock import file_lock
for _ in range(3):
    with file_lock(sys.argv[1]):
        pass
"""
    subprocess.run([sys.executable, "-c", script, str(target)], check=True)
    assert sorted(p.name for p in target.parent.iterdir()) == ["MEMORY.md"]


POOL = """
import json, multiprocessing, os, sys
from pathlib import Path
from pi_memory.memory import MemoryStore
from pi_memory.base.lock import lock_dir_for, owner_record_path, publish

directory = sys.argv[1]


def work(i):
    return MemoryStore(directory, memory_char_limit=10**6).add("memory", f"worker fact {i}")["success"]


def others_leftovers():
    \"\"\"Lock files beside MEMORY.md that are not this process's own spare and its record.\"\"\"
    own = set()
    lock_dir = lock_dir_for(Path(directory) / "MEMORY.md")
    spare = publish.spare_of(lock_dir)
    if spare is not None:
        own.update((spare[0].name, owner_record_path(lock_dir, spare[1]).name))
    return sorted(n for n in os.listdir(directory) if ".lock" in n and n not in own)


store = MemoryStore(directory, memory_char_limit=10**6)
assert store.add("memory", "before the pool")["success"]  # this process's first lock: its sweep
pool = multiprocessing.get_context("fork").Pool(4)
assert all(pool.map(work, range(40)))
assert store.add("memory", "while the workers live")["success"]
alive = others_leftovers()
pool.terminate()  # what `with Pool(...)` does on exit: the workers never run atexit
pool.join()
assert store.add("memory", "after the pool")["success"]
print(json.dumps({"alive": alive, "after": others_leftovers()}))
"""


def test_spares_of_dead_multiprocessing_workers_are_swept_on_the_next_lock(target: Path, lock_mode: str) -> None:
    """Workers leave through os._exit (or SIGTERM), so their spares and records outlive them."""
    out = subprocess.run([sys.executable, "-c", POOL, str(target.parent)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    seen = json.loads(out.stdout)
    if lock_mode == "renameat2":
        # Each live worker's spare and record are kept: they are its next lock.
        assert len(seen["alive"]) == 8, seen
    assert seen["after"] == [], "a dead worker's spare outlived the next lock"


# ---------------------------------------------------------------- timeout and waiting


def test_timeout_zero_is_a_single_attempt(
    target: Path, holders: list[Holder], monkeypatch: pytest.MonkeyPatch
) -> None:
    holders.append(Holder(target))
    attempts: list[str] = []
    sleeps: list[float] = []
    real_mkdir = os.mkdir
    real_sleep = time.sleep

    def counting_mkdir(path: object, *args: object, **kwargs: object) -> None:
        if "MEMORY.md.lock" in os.path.basename(str(path)):  # the lock dir or a private one
            attempts.append(str(path))
        real_mkdir(path, *args, **kwargs)  # type: ignore[arg-type]

    def recording_sleep(seconds: float) -> None:
        if threading.current_thread() is threading.main_thread():
            sleeps.append(seconds)
        real_sleep(seconds)

    monkeypatch.setattr(os, "mkdir", counting_mkdir)
    monkeypatch.setattr(time, "sleep", recording_sleep)
    with pytest.raises(LockBusy), file_lock(target, timeout=0):
        pass
    assert len(attempts) == 1
    assert sleeps == []


def test_bounded_wait_retries_with_backoff_then_raises_busy(
    target: Path, holders: list[Holder], monkeypatch: pytest.MonkeyPatch
) -> None:
    holders.append(Holder(target))
    sleeps: list[float] = []
    real_sleep = time.sleep

    def recording_sleep(seconds: float) -> None:
        if threading.current_thread() is threading.main_thread():  # not the refresher thread
            sleeps.append(seconds)
        real_sleep(seconds)

    monkeypatch.setattr(time, "sleep", recording_sleep)
    with pytest.raises(LockBusy) as info, file_lock(target, timeout=0.5):
        pass
    assert info.value.path == target
    # proper-lockfile's backoff: 50 ms, x1.5 each retry, capped by the remaining time.
    assert sleeps[:3] == pytest.approx([0.05, 0.075, 0.1125])
    assert sum(sleeps) <= 0.5 + 1e-6
    assert lock_dir_for(target).is_dir()  # the holder's lock is untouched


def test_waiter_gets_the_lock_once_the_holder_releases(target: Path, holders: list[Holder]) -> None:
    holder = Holder(target)
    holders.append(holder)
    released = threading.Timer(0.2, holder.release)
    released.start()
    try:
        with file_lock(target, timeout=10) as held:
            assert held.lock_dir.is_dir()
    finally:
        released.join()


# ---------------------------------------------------------------- refresh


def test_refresh_keeps_a_long_holder_fresh(target: Path, holders: list[Holder]) -> None:
    """Simulate a 16 s hold without sleeping: age the lock, then refresh as the holder does (at stale/2)."""
    with file_lock(target) as held:
        old_ns = time.time_ns() - int((STALE_SECONDS / 2 + 1) * 1e9)
        os.utime(held.lock_dir, ns=(old_ns, old_ns))
        held.mtime_ns = held.lock_dir.stat().st_mtime_ns
        held.refresh()
        assert not held.compromised
        st = held.lock_dir.stat()
        assert st.st_mtime_ns == held.mtime_ns
        assert time.time() - st.st_mtime < 5
        record = json.loads(held.owner_file.read_text())
        assert record["mtimeNs"] == st.st_mtime_ns  # the record follows the refresh
        # Another process sees a live, fresh lock.
        probe = subprocess.run(
            [sys.executable, "-c", PROBE, str(target)], capture_output=True, text=True, check=True
        )
        assert probe.stdout.strip() == "busy"
    assert not held.lock_dir.exists()


def test_a_lock_found_stale_at_refresh_is_compromised_not_revived(target: Path) -> None:
    """Its holder was stopped past the stale time: another writer may be taking it over right now."""
    with file_lock(target) as held:
        old_ns = time.time_ns() - int((STALE_SECONDS + 1) * 1e9)
        os.utime(held.lock_dir, ns=(old_ns, old_ns))
        held.mtime_ns = held.lock_dir.stat().st_mtime_ns
        held.refresh()
        assert held.compromised
        assert held.lock_dir.stat().st_mtime_ns == old_ns  # not touched
        with pytest.raises(LockCompromised):
            held.confirm()
    # Left for the stale rule (removing it could race a writer taking it over); the next lock clears it.
    assert lock_dir_for(target).stat().st_mtime_ns == old_ns
    assert take_once(target)
    assert not lock_dir_for(target).exists()


def test_without_refresh_an_aged_lock_is_taken_over_by_another_process(target: Path) -> None:
    with file_lock(target) as held:
        old_ns = time.time_ns() - int((STALE_SECONDS + 1) * 1e9)
        os.utime(held.lock_dir, ns=(old_ns, old_ns))
        probe = subprocess.run(
            [sys.executable, "-c", PROBE, str(target)], capture_output=True, text=True, check=True
        )
        assert probe.stdout.strip() == "acquired"
        # Our directory is gone (the other process removed it); refresh notices.
        held.refresh()
        assert held.compromised
    assert not lock_dir_for(target).exists()


def test_compromised_holder_does_not_remove_the_new_holders_lock(target: Path) -> None:
    with file_lock(target) as held:
        os.rmdir(held.lock_dir)
        os.mkdir(held.lock_dir)  # somebody else's lock now (e.g. a Node peer's)
        os.utime(held.lock_dir, ns=(held.mtime_ns + 5_000_000, held.mtime_ns + 5_000_000))
        held.refresh()
        assert held.compromised
    assert lock_dir_for(target).is_dir()


PROBE = """
import sys
from pi_memory.base.lock import LockBusy, file_lock
try:
    with file_lock(sys.argv[1], timeout=0):
        print("acquired")
except LockBusy:
    print("busy")
"""


# ---------------------------------------------------------------- in-process


def test_threads_in_one_process_queue_on_the_lock(target: Path) -> None:
    inside = 0
    max_inside = 0
    guard = threading.Lock()
    errors: list[BaseException] = []

    def worker() -> None:
        nonlocal inside, max_inside
        try:
            for _ in range(20):
                with file_lock(target, timeout=30):
                    with guard:
                        inside += 1
                        max_inside = max(max_inside, inside)
                    time.sleep(0.0005)
                    with guard:
                        inside -= 1
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert max_inside == 1
    assert not lock_dir_for(target).exists()
