"""The lock protocol (:mod:`pi_memory.base.lock.protocol`): the ``<file>.lock`` directory and its
cleanup, proper-lockfile's staleness rule, waiting and timeouts, refresh, and threads of one process.

Holders that must be "another process" are real Python subprocesses; a Node-style lock is a bare
directory made with ``mkdir`` (all proper-lockfile leaves on disk). The real-Node side lives in
tests/interop/test_lock_interop.py.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from lock_helpers import PROBE, Holder, backdate, lock_debris, take_once

from pi_memory.base.lock import (
    STALE_SECONDS,
    LockBlocked,
    LockBusy,
    LockCompromised,
    file_lock,
    lock_dir_for,
)
from pi_memory.base.lock import publish as publishmod

# Every test runs under both ways of publishing the lock directory (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("lock_mode")


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
