"""A cross-process lock that speaks proper-lockfile's protocol.

pi-memory (Node) locks a file with ``proper-lockfile``: it atomically creates
the directory ``<file>.lock``, refreshes that directory's mtime every
``stale / 2`` while it holds the lock, and treats a lock whose mtime is older
than ``stale`` (30 s) as abandoned. No Python library speaks that protocol, so
this module does, which lets a Python and a Node process share one MEMORY.md.

Additions that stay invisible to Node:

* an in-process ``threading.Lock`` per path, so threads (and ``asyncio`` tasks
  running the store in worker threads) queue in memory instead of polling;
* an owner record *beside* the lock directory (``.<file>.lock.owner.<inode>``;
  never inside it, because proper-lockfile removes stale locks with ``rmdir``).
  When the holder was one of our processes and is *proven* dead, its lock is
  taken over at once instead of after 30 s. Proof needs the same host, the same
  boot and the same PID namespace (``/proc/self/ns/pid``: a sandbox or container
  sharing the directory numbers its processes differently, so its PID names
  some other process here) and no process with that PID and start time; without
  proof the 30 s rule applies, as for a Node holder. The record is named after the
  directory's inode and holds the exact mtime we set, so a record left behind
  by a crash can never be mistaken for the owner of somebody else's newer lock.
* atomic publication: the lock directory is made under a private name, stamped,
  recorded, and only then renamed to ``<file>.lock`` with ``renameat2``'s
  ``RENAME_NOREPLACE`` — so there is no moment at which our lock exists without
  its record, and a holder killed at any instant is recognised as dead. Where
  ``renameat2`` is unavailable (not Linux, or a filesystem without
  ``RENAME_NOREPLACE``) the lock falls back to a plain ``mkdir`` followed by the
  record: a holder killed between those two steps leaves a lock that only the
  30 s rule clears, as a Node holder's would.

Between locks a process keeps its private directory (and that directory's
record) as a *spare*: releasing renames ``<file>.lock`` back to the private name,
and the next acquisition re-stamps and re-publishes the same directory. Creating
and deleting a directory and a record on every lock cost ~230 us per lock on ext4,
a sixth of a durable add (each allocates or frees an inode, and the directory a
block, in the journal); re-using them costs ~55 us.
Spares are removed at interpreter exit; a process that exits without it (killed, or a
``multiprocessing`` worker, which leaves through ``os._exit``) has its spare swept on the
next lock of that file once it is proven dead, any other debris once a minute old; a
process whose spare was swept makes a new one.

Two rules beyond proper-lockfile's: a lock dated more than ``stale`` in the future
(the clock was set back) is stale too, and a lock path that no writer may clear (a
file, a lock directory with files in it, one this user may not remove) raises
:class:`LockBlocked`, whose message says what to remove, instead of "busy" forever.
A holder that lost its lock while stopped (SIGSTOP, a suspended laptop, a debugger)
learns it from :meth:`HeldLock.confirm` before its write lands.

The fallback is chosen automatically. Tests force it with the environment
variable ``_PI_MEMORY_LOCK_MKDIR=1`` (read at import, so it reaches
subprocesses too) or by setting ``_renameat2`` to ``None``; likewise
``_PI_MEMORY_LOCK_STALE=<seconds>`` shortens the default stale time for tests of
a holder stopped past it.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import ctypes.util
import errno
import json
import os
import shlex
import socket
import stat
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

STALE_SECONDS = 30.0
DEFAULT_TIMEOUT = 3.0
_MIN_DELAY = 0.05
_MAX_DELAY = 0.5
_FACTOR = 1.5


class LockBusy(Exception):
    """The lock is held by another writer and was not released in time."""

    def __init__(self, path: Path, waited: float) -> None:
        super().__init__(f"{path} is locked by another writer (waited {waited:.1f}s)")
        self.path = path
        self.waited = waited


class LockBlocked(LockBusy):
    """The lock path holds something no writer may clear; a person has to remove it.

    A subclass of :class:`LockBusy` so that callers that only know "busy" still stop
    cleanly; the message names the path and what to do.
    """

    def __init__(self, path: Path, lock_dir: Path, problem: str, remedy: str) -> None:
        Exception.__init__(
            self,
            f"{lock_dir} {problem}, so no writer can lock {path.name} until it is removed. {remedy}",
        )
        self.path = path
        self.waited = 0.0
        self.lock_dir = lock_dir


class LockCompromised(Exception):
    """Our lock directory was removed or modified by someone else while held."""


_ORPHAN_AGE = 60.0
_AT_FDCWD = -100
_RENAME_NOREPLACE = 1


def _load_renameat2() -> ctypes._CFuncPtr | None:  # type: ignore[name-defined]
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        func = libc.renameat2
    except (OSError, AttributeError):
        return None
    func.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    func.restype = ctypes.c_int
    return func


# Private test switch: "1" makes every lock use the mkdir fallback, as on a system without renameat2.
_FORCE_MKDIR = os.environ.get("_PI_MEMORY_LOCK_MKDIR") == "1"
# Private test switch: the default stale time, so a test of a holder stopped past it need not wait 30 s.
_DEFAULT_STALE = float(os.environ.get("_PI_MEMORY_LOCK_STALE") or STALE_SECONDS)
_renameat2 = None if _FORCE_MKDIR else _load_renameat2()
# Directories whose filesystem refused RENAME_NOREPLACE: later locks there go straight to mkdir.
_no_noreplace: set[str] = set()


def _rename_noreplace(src: Path, dst: Path) -> bool | None:
    """Rename ``src`` to ``dst`` unless ``dst`` exists: True done, False taken, None unsupported."""
    if _renameat2 is None:
        return None
    rc = _renameat2(_AT_FDCWD, os.fsencode(src), _AT_FDCWD, os.fsencode(dst), _RENAME_NOREPLACE)
    if rc == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EEXIST, errno.ENOTEMPTY):
        return False
    if err in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return None
    raise OSError(err, os.strerror(err), str(dst))


def _publish(private: Path, public: Path) -> bool | None:
    """Make our recorded private directory the lock (see :func:`_rename_noreplace`)."""
    return _rename_noreplace(private, public)


_process_locks: dict[str, threading.Lock] = {}
_process_locks_guard = threading.Lock()


def _thread_lock_for(key: str) -> threading.Lock:
    with _process_locks_guard:
        lock = _process_locks.get(key)
        if lock is None:
            lock = _process_locks[key] = threading.Lock()
        return lock


def _proc_stat(pid: int) -> list[str] | None:
    """Fields 3.. of ``/proc/<pid>/stat`` (state first), or None where there is no procfs."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name in field 2 may contain spaces and parentheses: split after the last ')'.
    return stat.rsplit(")", 1)[1].split()


def _process_start_ticks(pid: int) -> str | None:
    """The kernel start time of ``pid`` (field 22; guards against PID reuse), if known."""
    fields = _proc_stat(pid)
    return fields[19] if fields else None


_LINUX = sys.platform.startswith("linux")
_identity_cache: tuple[dict[str, object], bytes] | None = None


def _identity() -> dict[str, object]:
    """Who this process is in an owner record: PID, start time, host, PID namespace, boot.

    On Linux ``pidns`` and ``boot`` are None when they cannot be known (no procfs, or a
    procfs that belongs to another PID namespace: ``/proc/self`` is then not our PID), and
    then nobody's death can be proven from here. (The first PID namespace has the same
    number on every machine: the host and the boot id tell machines apart.)
    """
    return _identity_and_json()[0]


def _identity_and_json() -> tuple[dict[str, object], bytes]:
    """:func:`_identity` and its JSON without the closing brace, cached per PID (a forked
    child is somebody else): the hot path appends a lock's own fields to it."""
    global _identity_cache
    cached = _identity_cache
    if cached is None or cached[0]["pid"] != os.getpid():
        pid = os.getpid()
        pidns: str | None = None
        boot: str | None = None
        if _LINUX:
            with contextlib.suppress(OSError):
                if os.readlink("/proc/self") == str(pid):
                    ns = os.readlink("/proc/self/ns/pid")
                    boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip() or None
                    pidns = ns if boot else None
        identity: dict[str, object] = {
            "pid": pid, "start": _process_start_ticks(pid), "host": socket.gethostname(), "pidns": pidns, "boot": boot
        }
        cached = _identity_cache = (identity, json.dumps(identity)[:-1].encode())
    return cached


def _record_pid(record: dict[str, Any]) -> int | None:
    """The PID in owner record ``record`` if it names a process here, else None.

    A PID means the same process here only on the same host, in the same boot and in the
    same PID namespace: a sandbox or container sharing the directory numbers its own.
    """
    me = _identity()
    if _LINUX and me["pidns"] is None:
        return None
    if any(record.get(key) != me[key] for key in ("host", "pidns", "boot")):
        return None
    pid = record.get("pid")
    return pid if isinstance(pid, int) and pid > 0 else None


def _provably_dead(record: dict[str, Any]) -> bool:
    """True only when ``record``'s process is proven gone; anything unproven is alive.

    Proof: its PID names a process here (:func:`_record_pid`) and there is no such
    process, it is a zombie, or it started at another time (the PID was reused).
    """
    pid = _record_pid(record)
    if pid is None or pid == os.getpid():
        return False
    return not _pid_alive(pid, record.get("start"))


def _is_stale(mtime_ns: int, stale: float) -> bool:
    """proper-lockfile's rule (older than ``stale``), and also dated more than ``stale`` ahead.

    A lock stamped before the clock was set back would otherwise never age; a live
    holder re-stamps its lock with the current clock at every refresh.
    """
    return abs(time.time_ns() - mtime_ns) > stale * 1e9


def _pid_exists(pid: int) -> bool:
    """Whether any process has ``pid`` (one signal-0 probe; a zombie counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: somebody else's process
        return True
    return True


def _pid_alive(pid: int, start_ticks: str | None) -> bool:
    """Whether ``pid`` runs and is the process that started at ``start_ticks`` (if given)."""
    if not _pid_exists(pid):
        return False
    fields = _proc_stat(pid)
    if fields is None:
        return True
    if fields[0] in ("Z", "X"):
        return False  # killed but not yet reaped by its parent
    return start_ticks is None or fields[19] == start_ticks  # else the PID was reused


@dataclass
class HeldLock:
    """A lock we hold; refreshed in the background until released."""

    target: Path
    lock_dir: Path
    owner_file: Path
    token: str
    inode: int
    mtime_ns: int
    stale: float
    compromised: bool = False
    #: The private name to rename the lock back to on release (None: rmdir it).
    spare: Path | None = None
    _last_refresh: float = field(default_factory=time.monotonic)
    # Refresh (a background thread) and release never interleave: release trusts mtime_ns.
    _guard: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def refresh(self) -> None:
        """Touch the lock directory's mtime, as proper-lockfile's holder does.

        A lock found already stale (this process was stopped or starved) is compromised
        instead of revived: another writer may be taking it over right now. (proper-lockfile
        revives it when its mtime is still the holder's; this is stricter on purpose.)
        """
        with self._guard:
            if self.compromised or not self._still_ours():
                return
            # Record first, naming the current mtime and the coming one, then touch: a holder
            # killed between the two still leaves a record that matches its directory.
            now_ns = time.time_ns()
            _write_owner(self, now_ns, previous_mtime_ns=self.mtime_ns)
            os.utime(self.lock_dir, ns=(now_ns, now_ns))
            self.mtime_ns = self.lock_dir.stat().st_mtime_ns
            if self.mtime_ns != now_ns:  # a filesystem with coarser timestamps rounded it
                _write_owner(self, self.mtime_ns, previous_mtime_ns=now_ns)
            self._last_refresh = time.monotonic()

    def confirm(self) -> None:
        """Raise :class:`LockCompromised` unless the lock is still ours and not stale.

        Call it right before a write lands: a holder that was stopped past the stale
        time (SIGSTOP, a suspended laptop, a debugger) may have lost its lock to another
        writer, and renaming what it read earlier over that writer's changes loses them.
        Costs one ``lstat``.
        """
        with self._guard:
            if not self.compromised and self._still_ours():
                return
        raise LockCompromised(
            f"the lock on {self.target.name} was not held any more (it went stale while this writer "
            "was paused, and another writer may have taken it over)"
        )

    def _still_ours(self) -> bool:
        """Our directory, our mtime, not stale; else mark the lock compromised (under ``_guard``).

        Once stale the lock is no longer ours to touch, even if nobody took it yet: another
        writer may be removing it at this moment. It is not written under, refreshed or
        removed on release; the next writer clears it by the stale rule.
        """
        try:
            st = os.lstat(self.lock_dir)
        except FileNotFoundError:
            st = None
        lost = st is None or st.st_ino != self.inode or st.st_mtime_ns != self.mtime_ns
        if lost or _is_stale(self.mtime_ns, self.stale):
            self.compromised = True
        return not self.compromised


class _Refresher:
    """One daemon thread refreshing every lock this process holds for long."""

    def __init__(self) -> None:
        self._held: dict[int, HeldLock] = {}
        self._guard = threading.Lock()
        self._thread: threading.Thread | None = None

    def add(self, held: HeldLock) -> None:
        with self._guard:
            self._held[id(held)] = held
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="pi-memory-lock-refresh", daemon=True)
                self._thread.start()

    def remove(self, held: HeldLock) -> None:
        with self._guard:
            self._held.pop(id(held), None)

    def _run(self) -> None:
        while True:
            time.sleep(1.0)
            with self._guard:
                due = [h for h in self._held.values() if time.monotonic() - h._last_refresh >= h.stale / 2]
            for held in due:
                with contextlib.suppress(OSError):
                    held.refresh()


_refresher = _Refresher()


def owner_record_path(lock_dir: Path, inode: int) -> Path:
    """``.<file>.lock.owner.<inode>``: the record of the holder of lock directory ``inode``.

    Hidden, like the private directories (``.<file>.lock.<token>``): a process keeps
    both between locks, and a user listing the memory directory need not see them.
    """
    return lock_dir.with_name(f".{lock_dir.name}.owner.{inode}")


def _write_owner(held: HeldLock, mtime_ns: int, *, previous_mtime_ns: int | None = None) -> None:
    """Replace ``held``'s record atomically; ``previous_mtime_ns`` is accepted as a match too."""
    record = {
        **_identity(),
        "token": held.token,
        "inode": held.inode,
        "mtimeNs": mtime_ns,
    }
    if previous_mtime_ns is not None:
        record["previousMtimeNs"] = previous_mtime_ns
    tmp = held.owner_file.with_name(f"{held.owner_file.name}.{held.token}.tmp")
    tmp.write_text(json.dumps(record))
    os.replace(tmp, held.owner_file)


_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


_RECORD_SIZE = 512


def _write_owner_fresh(held: HeldLock, *, published: bool) -> None:
    """Write ``held``'s record under its name, without a temp file.

    For a not-yet-published directory the record is overwritten in place, padded
    to a fixed size (JSON ignores the spaces): rewriting a spare's record then
    changes only data, never allocation. Nobody can be reading a record named after
    a private directory's inode, so a torn read is impossible there. A published
    directory (the mkdir fallback) may have a crashed holder's record under the
    same name, so that one is truncated first: a reader sees ours or nothing, never
    a mix — and an unparsable record only ever reads as "alive".
    """
    fields = b', "token": "%s", "inode": %d, "mtimeNs": %d}' % (held.token.encode(), held.inode, held.mtime_ns)
    data = _identity_and_json()[1] + fields
    in_place = not published and len(data) < _RECORD_SIZE
    flags = os.O_WRONLY | os.O_CREAT | _O_CLOEXEC | (0 if in_place else os.O_TRUNC)
    fd = os.open(held.owner_file, flags, 0o600)
    try:
        if in_place:
            os.pwrite(fd, data.ljust(_RECORD_SIZE), 0)
        else:
            os.write(fd, data)
    finally:
        os.close(fd)


def _owner_is_dead(lock_dir: Path, st: os.stat_result) -> bool:
    """True only when the record provably belongs to this lock dir and its process is gone."""
    try:
        record = json.loads(owner_record_path(lock_dir, st.st_ino).read_text())
    except (OSError, ValueError):
        return False
    if not isinstance(record, dict) or record.get("inode") != st.st_ino:
        return False
    if st.st_mtime_ns not in (record.get("mtimeNs"), record.get("previousMtimeNs")):
        return False
    return _provably_dead(record)


def _remove_if_abandoned(target: Path, lock_dir: Path, stale: float) -> bool:
    """Remove ``lock_dir`` when it is stale or its owner is dead; True if it is gone.

    Raises :class:`LockBlocked` for what no writer may clear: a path that is not a
    directory (never a proper-lockfile lock; maybe another tool's), and an abandoned
    directory that holds files (never a lock either) or that this user may not remove.
    """
    try:
        st = os.lstat(lock_dir)
    except FileNotFoundError:
        return True
    if not stat.S_ISDIR(st.st_mode):
        raise LockBlocked(
            target, lock_dir, "is not a lock directory (a file or a link is in its place)",
            f"If no other program uses it, remove it (rm {_quote(lock_dir)}) and retry.",
        )
    if not _is_stale(st.st_mtime_ns, stale) and not _owner_is_dead(lock_dir, st):
        return False
    try:
        os.rmdir(lock_dir)
    except FileNotFoundError:
        return True
    except OSError as exc:
        if exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
            raise LockBlocked(
                target, lock_dir, "is an abandoned lock directory with files in it, which no lock has",
                f"Check what is inside, then remove it (rm -r {_quote(lock_dir)}) and retry.",
            ) from exc
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS, errno.EBUSY):
            raise LockBlocked(
                target, lock_dir, f"is an abandoned lock this user cannot remove ({exc.strerror})",
                f"Remove it as its owner (rmdir {_quote(lock_dir)}) and retry.",
            ) from exc
        raise
    with contextlib.suppress(OSError):
        owner_record_path(lock_dir, st.st_ino).unlink()
    return True


def _quote(path: Path) -> str:
    """``path`` as a shell word, for the commands in :class:`LockBlocked` messages."""
    return shlex.quote(str(path))


_SWEEP_EVERY = 30.0


@dataclass
class _Sweep:
    """What this process saw at its last sweep beside one lock."""

    at: float  #: monotonic time
    nlink: int  #: the directory's link count: 2 + its subdirectories, so spares made or removed
    owners: tuple[int, ...]  #: PIDs of the live processes whose spares were kept


_last_sweep: dict[str, _Sweep] = {}


def _remove_debris(lock_dir: Path, keep: Path) -> None:
    """Sweep what gone processes left beside ``lock_dir``: spares, records, crash debris.

    A spare and its record go as soon as their process is proven dead (a killed writer,
    a ``multiprocessing`` worker, which exits without running ``atexit``); anything else
    (temp records, records that prove nothing) once older than ``_ORPHAN_AGE``.

    A directory scan costs as much as the rest of an uncontended acquisition, so it runs
    only when something may have changed since this process's last one: its first lock
    of the file, a changed link count of the directory (a spare made or removed), a gone
    owner of a spare kept last time, and otherwise every ``_SWEEP_EVERY`` s (filesystems
    such as btrfs do not count subdirectories in the link count).
    """
    key = str(lock_dir)
    try:
        nlink = os.stat(lock_dir.parent).st_nlink
    except OSError:
        return
    now = time.monotonic()
    last = _last_sweep.get(key)
    if (
        last is not None
        and now - last.at < _SWEEP_EVERY
        and nlink == last.nlink
        and all(_pid_exists(pid) for pid in last.owners)
    ):
        return
    prefixes = (f".{lock_dir.name}.", f"{lock_dir.name}.")  # the second: older, visible names
    record_prefix = f".{lock_dir.name}.owner."
    mine = {str(keep)}
    spare = _spares.get(key)
    if spare is not None:
        mine.update((str(spare.path), str(owner_record_path(lock_dir, spare.inode))))
    with os.scandir(lock_dir.parent) as scan:
        found = [e for e in scan if e.name.startswith(prefixes) and e.path not in mine]
    records: list[os.DirEntry[str]] = []
    private_dirs: dict[int, os.DirEntry[str]] = {}  # by inode, which the records name
    for entry in found:
        with contextlib.suppress(OSError):
            if entry.name.startswith(record_prefix) and entry.name[len(record_prefix):].isdigit():
                records.append(entry)
            elif entry.is_dir(follow_symlinks=False):
                private_dirs[entry.stat(follow_symlinks=False).st_ino] = entry
    owners: list[int] = []
    gone: set[str] = set()
    for entry in records:
        gone.update(_sweep_dead_spare(Path(entry.path), private_dirs, owners))
    removed_dirs = len(gone) // 2  # a record and its private directory each
    cutoff = time.time() - _ORPHAN_AGE
    for entry in found:
        if entry.path in gone:
            continue
        with contextlib.suppress(OSError):
            if entry.stat(follow_symlinks=False).st_mtime < cutoff:
                if entry.is_dir(follow_symlinks=False):
                    os.rmdir(entry.path)
                    removed_dirs += 1
                else:
                    os.unlink(entry.path)
    _last_sweep[key] = _Sweep(now, nlink - removed_dirs, tuple(owners))


def _sweep_dead_spare(
    record_path: Path, private_dirs: dict[int, os.DirEntry[str]], owners: list[int]
) -> tuple[str, ...]:
    """Remove the record at ``record_path`` and its private directory if their process is proven dead.

    Returns both paths once removed; the PID of a live owner here is added to ``owners``.
    Only a record whose private directory still exists is removed: that directory holds
    the inode the record is named after, so no other lock can be writing that name.
    """
    try:
        record = json.loads(record_path.read_bytes())
    except (OSError, ValueError):
        return ()
    if not isinstance(record, dict):
        return ()
    pid = _record_pid(record)
    if pid is None or pid == os.getpid():
        return ()
    if _pid_alive(pid, record.get("start")):
        owners.append(pid)
        return ()
    inode = record.get("inode")
    if not isinstance(inode, int) or not record_path.name.endswith(f".owner.{inode}"):
        return ()
    private = private_dirs.get(inode)
    if private is None:
        return ()
    try:
        os.unlink(record_path)
        os.rmdir(private.path)
    except OSError:
        return ()
    return (str(record_path), private.path)


def lock_dir_for(target: Path) -> Path:
    """``<realpath(target)>.lock``, the path proper-lockfile uses for ``target``."""
    resolved = Path(os.path.realpath(target))
    return resolved.with_name(resolved.name + ".lock")


@contextlib.contextmanager
def file_lock(
    target: Path | str,
    timeout: float = DEFAULT_TIMEOUT,
    stale: float | None = None,
    *,
    resolved: bool = False,
) -> Iterator[HeldLock]:
    """Hold ``target``'s proper-lockfile lock for the ``with`` block.

    Waits up to ``timeout`` seconds (0 means one attempt, as dreaming uses) with
    proper-lockfile's backoff (50 ms, ×1.5, at most 500 ms), then raises
    :class:`LockBusy` (:class:`LockBlocked` at once when the path needs a person).
    ``stale`` defaults to :data:`STALE_SECONDS`, proper-lockfile's. ``target``
    itself need not exist; its directory must. ``resolved=True`` says ``target`` is already a realpath, which saves
    resolving it again on a hot path.
    """
    target = Path(target)
    lock_dir = target.with_name(target.name + ".lock") if resolved else lock_dir_for(target)
    started = time.monotonic()
    deadline = started + max(timeout, 0.0)
    thread_lock = _thread_lock_for(str(lock_dir))
    got = thread_lock.acquire(timeout=timeout) if timeout > 0 else thread_lock.acquire(blocking=False)
    if not got:
        raise LockBusy(target, time.monotonic() - started)
    held: HeldLock | None = None
    try:
        held = _acquire_dir(target, lock_dir, deadline, started, _DEFAULT_STALE if stale is None else stale)
        _refresher.add(held)
        yield held
    finally:
        if held is not None:
            _refresher.remove(held)
            _release_dir(held)
        thread_lock.release()


def _stamp(directory: Path, token: str, stale: float, target: Path, lock_dir: Path) -> HeldLock:
    """Give a fresh lock directory an exact mtime and describe it.

    ``mkdir`` alone stamps the kernel's coarse clock, so two directories that
    reuse one inode within a tick could share an mtime and a crashed holder's
    record could then pass for the new holder's; a nanosecond ``utime`` cannot.
    """
    now_ns = time.time_ns()
    os.utime(directory, ns=(now_ns, now_ns))
    st = directory.stat()
    return HeldLock(
        target=target,
        lock_dir=directory,
        owner_file=owner_record_path(lock_dir, st.st_ino),
        token=token,
        inode=st.st_ino,
        mtime_ns=st.st_mtime_ns,
        stale=stale,
    )


@dataclass
class _Spare:
    """This process's unpublished private directory for one lock, kept for the next acquisition."""

    pid: int
    path: Path
    inode: int


_spares: dict[str, _Spare] = {}


def _keep_spare(lock_dir: Path, path: Path, inode: int) -> None:
    _spares[str(lock_dir)] = _Spare(os.getpid(), path, inode)


def _private_dir(target: Path, lock_dir: Path, token: str, stale: float) -> tuple[Path, HeldLock]:
    """Our spare for ``lock_dir``, re-stamped, or a new private directory."""
    spare = _spares.pop(str(lock_dir), None)
    if spare is not None and spare.pid == os.getpid():  # never a parent's spare after fork()
        try:
            held = _stamp(spare.path, token, stale, target, lock_dir)
        except FileNotFoundError:
            pass  # swept while this process was idle: make a new one
        else:
            if held.inode == spare.inode:
                return spare.path, held
    private = lock_dir.with_name(f".{lock_dir.name}.{token}")
    os.mkdir(private)
    return private, _stamp(private, token, stale, target, lock_dir)


def _drop_spares() -> None:
    """Remove this process's spare directories and their records (at exit, and for tests)."""
    for key, spare in list(_spares.items()):
        if spare.pid != os.getpid():
            continue
        _spares.pop(key, None)
        with contextlib.suppress(OSError):
            os.rmdir(spare.path)
        with contextlib.suppress(OSError):
            os.unlink(owner_record_path(Path(key), spare.inode))


atexit.register(_drop_spares)


def _try_once(target: Path, lock_dir: Path, stale: float) -> HeldLock | None:
    """One attempt: publish a recorded private directory, or fall back to ``mkdir``."""
    token = uuid.uuid4().hex
    if _renameat2 is not None and str(lock_dir.parent) not in _no_noreplace:
        private, held = _private_dir(target, lock_dir, token, stale)
        try:
            _write_owner_fresh(held, published=False)
            published = _publish(private, lock_dir)
        except FileNotFoundError:
            _discard(private, held)  # swept between our stamp and the rename: try again
            return None
        except BaseException:
            _discard(private, held)
            raise
        if published:
            held.lock_dir = lock_dir
            held.spare = private
            try:
                st = lock_dir.stat()
            except FileNotFoundError:  # removed at once by a writer that judged it abandoned
                if _record_token(held.owner_file) == held.token:
                    with contextlib.suppress(OSError):
                        os.unlink(held.owner_file)
                return None
            if st.st_mtime_ns != held.mtime_ns:  # a filesystem that re-stamps renamed directories
                held.mtime_ns = st.st_mtime_ns
                with contextlib.suppress(OSError):
                    _write_owner(held, held.mtime_ns)
            return held
        if published is False:
            _keep_spare(lock_dir, private, held.inode)  # busy: the next attempt reuses it
            return None
        _discard(private, held)
        _no_noreplace.add(str(lock_dir.parent))  # this filesystem cannot: mkdir from now on
    # No renameat2 here: a plain mkdir, recorded right after (a brief unrecorded window).
    try:
        os.mkdir(lock_dir)
    except FileExistsError:
        return None
    try:
        held = _stamp(lock_dir, token, stale, target, lock_dir)
    except FileNotFoundError:
        return None  # taken over as abandoned between our mkdir and stat: not ours any more
    # Straight to its name, not via a temp file and a rename: the unrecorded window stays as
    # short as it can be. A reader that catches it half-written cannot parse it, and an
    # unparsable record only ever means "alive" (wait), never "dead" (take over).
    with contextlib.suppress(OSError):
        _write_owner_fresh(held, published=True)
    return held


def _discard(private: Path, held: HeldLock) -> None:
    with contextlib.suppress(OSError):
        os.rmdir(private)
    with contextlib.suppress(OSError):
        os.unlink(held.owner_file)


def _acquire_dir(target: Path, lock_dir: Path, deadline: float, started: float, stale: float) -> HeldLock:
    delay = _MIN_DELAY
    while True:
        held = _try_once(target, lock_dir, stale)
        if held is not None:
            _remove_debris(lock_dir, keep=held.owner_file)
            return held
        if _remove_if_abandoned(target, lock_dir, stale):
            continue
        now = time.monotonic()
        if now >= deadline:
            raise LockBusy(target, now - started)
        time.sleep(min(delay, deadline - now))
        delay = min(delay * _FACTOR, _MAX_DELAY)


def _record_token(path: Path) -> object:
    """The ``token`` of the owner record at ``path`` (None when absent or unreadable)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        data = os.read(fd, 4096)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        record = json.loads(data)
    except ValueError:
        return None
    return record.get("token") if isinstance(record, dict) else None


def _unpublish(public: Path, spare: Path) -> bool:
    """Rename our lock directory back to its private name; False when that is not possible."""
    try:
        return _rename_noreplace(public, spare) is True
    except OSError:
        return False


def _release_dir(held: HeldLock) -> None:
    # Directory first: a crash between the two leaves only a record naming a dead
    # inode and mtime, which can never match a future lock and is swept as debris.
    with held._guard:
        if not held.compromised:
            with contextlib.suppress(OSError):
                st = held.lock_dir.stat()
                # Inode and our exact mtime: a lock re-made by someone else is never removed.
                if st.st_ino == held.inode and st.st_mtime_ns == held.mtime_ns:
                    if held.spare is not None and _unpublish(held.lock_dir, held.spare):
                        # Released (the public name is gone) and kept, with its record, for
                        # the next lock: the record names only this private directory now.
                        _keep_spare(held.lock_dir, held.spare, held.inode)
                        return
                    os.rmdir(held.lock_dir)
        # The record is checked, not assumed: once the directory is gone, a new holder may
        # reuse its inode and write a record under the same name before we get here.
        if _record_token(held.owner_file) == held.token:
            with contextlib.suppress(OSError):
                os.unlink(held.owner_file)
