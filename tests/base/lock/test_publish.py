"""Publishing the lock directory (:mod:`pi_memory.base.lock.publish`): ``renameat2`` of a recorded
private directory, the ``mkdir`` fallback, spares, and every crash window in between — a holder
killed at any point leaves no lock that outlives it by 30 s, only debris that is swept."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from lock_helpers import PROBE, backdate, lock_debris, owner_path, take_once

from pi_memory.base.lock import (
    STALE_SECONDS,
    LockBusy,
    file_lock,
    lock_dir_for,
    owner_record_path,
)
from pi_memory.base.lock import publish as publishmod
from pi_memory.memory import files as filesmod

# Every test runs under both ways of publishing the lock directory (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("lock_mode")


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
