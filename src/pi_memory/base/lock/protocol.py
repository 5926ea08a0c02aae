"""proper-lockfile's protocol on one page: acquire, refresh, the stale rule, release.

pi-memory (Node) locks a file with ``proper-lockfile`` (``lib/lockfile.js``): it atomically
creates the directory ``<file>.lock`` (``acquireLock``: ``mkdir``, retried with backoff while it
exists), refreshes that directory's mtime every ``stale / 2`` while it holds the lock
(``updateLock``), treats a lock whose mtime is older than ``stale`` (30 s) as abandoned and
removes it (``isLockStale``, ``removeLock``), and releases with ``rmdir`` (``unlock``). This
module follows those functions in that order, so a Python and a Node process share one file.

Beyond proper-lockfile, invisible to Node:

* threads (and ``asyncio`` tasks running the store in worker threads) queue on an in-process
  ``threading.Lock`` per path instead of polling;
* a holder proven dead by its owner record (:mod:`.owner`) is taken over at once;
* the lock directory is published atomically and kept as a spare between locks (:mod:`.publish`);
* a lock dated more than ``stale`` in the future (the clock was set back) is stale too;
* a lock path that no writer may clear (a file, a lock directory with files in it, one this
  user may not remove) raises :class:`LockBlocked`, whose message says what to remove, instead
  of "busy" forever;
* a holder that lost its lock while stopped (SIGSTOP, a suspended laptop, a debugger) learns it
  from :meth:`HeldLock.confirm` before its write lands; proper-lockfile revives a lock whose
  mtime is still its own, this is stricter on purpose.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import stat
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pi_memory.base.lock import owner, publish
from pi_memory.base.lock.constants import DEFAULT_STALE, DEFAULT_TIMEOUT, FACTOR, MAX_DELAY, MIN_DELAY, REFRESH_TICK
from pi_memory.base.lock.errors import LockBlocked, LockBusy, LockCompromised
from pi_memory.base.lock.owner import owner_is_dead, owner_record_path, read_record, stamp

__all__ = ["HeldLock", "file_lock", "is_stale", "lock_dir_for"]


def lock_dir_for(target: Path | str) -> Path:
    """``<realpath(target)>.lock``, the path proper-lockfile uses for ``target``."""
    resolved = Path(os.path.realpath(target))
    return resolved.with_name(resolved.name + ".lock")


def is_stale(mtime_ns: int, stale: float) -> bool:
    """proper-lockfile's rule (older than ``stale``), and also dated more than ``stale`` ahead.

    A lock stamped before the clock was set back would otherwise never age; a live holder
    re-stamps its lock with the current clock at every refresh.
    """
    return abs(time.time_ns() - mtime_ns) > stale * 1e9


# ----------------------------------------------------------------------------- acquire


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
    proper-lockfile's backoff (50 ms, ×1.5, at most 500 ms), then raises :class:`LockBusy`
    (:class:`LockBlocked` at once when the path needs a person). ``stale`` defaults to
    :data:`~pi_memory.base.lock.STALE_SECONDS`, proper-lockfile's. ``target`` itself need not
    exist; its directory must. ``resolved=True`` says ``target`` is already a realpath, which
    saves resolving it again on a hot path.
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
        held = _acquire(target, lock_dir, deadline, started, DEFAULT_STALE if stale is None else stale)
        _refresher.add(held)
        yield held
    finally:
        if held is not None:
            _refresher.remove(held)
            _release(held)
        thread_lock.release()


_thread_locks: dict[str, threading.Lock] = {}
_thread_locks_guard = threading.Lock()


def _thread_lock_for(key: str) -> threading.Lock:
    with _thread_locks_guard:
        lock = _thread_locks.get(key)
        if lock is None:
            lock = _thread_locks[key] = threading.Lock()
        return lock


def _acquire(target: Path, lock_dir: Path, deadline: float, started: float, stale: float) -> HeldLock:
    """proper-lockfile's ``acquireLock`` with its retries: try, clear an abandoned lock, back off."""
    delay = MIN_DELAY
    while True:
        held = _try_once(target, lock_dir, stale)
        if held is not None:
            publish.remove_debris(lock_dir, keep=held.owner_file)
            return held
        if _remove_if_abandoned(target, lock_dir, stale):
            continue
        now = time.monotonic()
        if now >= deadline:
            raise LockBusy(target, now - started)
        time.sleep(min(delay, deadline - now))
        delay = min(delay * FACTOR, MAX_DELAY)


def _try_once(target: Path, lock_dir: Path, stale: float) -> HeldLock | None:
    """One attempt: publish a recorded private directory, or ``mkdir`` the lock as proper-lockfile does."""
    token = uuid.uuid4().hex
    if publish.available(lock_dir):
        published = publish.publish(lock_dir, token)
        if isinstance(published, publish.Published):
            return HeldLock(target, lock_dir, published.record, token, published.inode, published.mtime_ns, stale,
                            spare=published.private)
        if published is False:
            return None
        # True: this filesystem cannot rename without replacing; mkdir from now on.
    try:
        os.mkdir(lock_dir)
    except FileExistsError:
        return None
    try:
        inode, mtime_ns = stamp(lock_dir)
    except FileNotFoundError:
        return None  # taken over as abandoned between our mkdir and stat: not ours any more
    held = HeldLock(target, lock_dir, owner_record_path(lock_dir, inode), token, inode, mtime_ns, stale)
    # Recorded right after the mkdir (a brief unrecorded window, which only the stale rule clears).
    with contextlib.suppress(OSError):
        owner.write_record(held.owner_file, token, inode, mtime_ns, how="direct")
    return held


def _remove_if_abandoned(target: Path, lock_dir: Path, stale: float) -> bool:
    """Remove ``lock_dir`` when it is stale or its owner is dead; True if it is gone.

    Raises :class:`LockBlocked` for what no writer may clear: a path that is not a directory
    (never a proper-lockfile lock; maybe another tool's), and an abandoned directory that holds
    files (never a lock either) or that this user may not remove.
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
    if not is_stale(st.st_mtime_ns, stale) and not owner_is_dead(lock_dir, st):
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


# ----------------------------------------------------------------------------- hold and refresh


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
        """Touch the lock directory's mtime, as proper-lockfile's ``updateLock`` does.

        A lock found already stale (this process was stopped or starved) is compromised instead
        of revived: another writer may be taking it over right now.
        """
        with self._guard:
            if self.compromised or not self._still_ours():
                return
            # Record first, naming the current mtime and the coming one, then touch: a holder
            # killed between the two still leaves a record that matches its directory.
            now_ns = time.time_ns()
            self._record(now_ns, previous_mtime_ns=self.mtime_ns)
            os.utime(self.lock_dir, ns=(now_ns, now_ns))
            self.mtime_ns = self.lock_dir.stat().st_mtime_ns
            if self.mtime_ns != now_ns:  # a filesystem with coarser timestamps rounded it
                self._record(self.mtime_ns, previous_mtime_ns=now_ns)
            self._last_refresh = time.monotonic()

    def confirm(self) -> None:
        """Raise :class:`LockCompromised` unless the lock is still ours and not stale.

        Call it right before a write lands: a holder that was stopped past the stale time
        (SIGSTOP, a suspended laptop, a debugger) may have lost its lock to another writer, and
        renaming what it read earlier over that writer's changes loses them. Costs one ``lstat``.
        """
        with self._guard:
            if not self.compromised and self._still_ours():
                return
        raise LockCompromised(
            f"the lock on {self.target.name} was not held any more (it went stale while this writer "
            "was paused, and another writer may have taken it over)"
        )

    def _record(self, mtime_ns: int, *, previous_mtime_ns: int) -> None:
        owner.write_record(self.owner_file, self.token, self.inode, mtime_ns, how="atomic",
                     previous_mtime_ns=previous_mtime_ns)

    def _still_ours(self) -> bool:
        """Our directory, our mtime, not stale; else mark the lock compromised (under ``_guard``).

        Once stale the lock is no longer ours to touch, even if nobody took it yet: another
        writer may be removing it at this moment. It is not written under, refreshed or removed
        on release; the next writer clears it by the stale rule.
        """
        try:
            st = os.lstat(self.lock_dir)
        except FileNotFoundError:
            st = None
        lost = st is None or st.st_ino != self.inode or st.st_mtime_ns != self.mtime_ns
        if lost or is_stale(self.mtime_ns, self.stale):
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
            time.sleep(REFRESH_TICK)
            with self._guard:
                due = [h for h in self._held.values() if time.monotonic() - h._last_refresh >= h.stale / 2]
            for held in due:
                with contextlib.suppress(OSError):
                    held.refresh()


_refresher = _Refresher()


# ----------------------------------------------------------------------------- release


def _release(held: HeldLock) -> None:
    """proper-lockfile's ``unlock``: remove the lock directory, if it is still ours.

    Directory first: a crash between the two leaves only a record naming a dead inode and
    mtime, which can never match a future lock and is swept as debris.
    """
    with held._guard:
        if not held.compromised:
            with contextlib.suppress(OSError):
                st = held.lock_dir.stat()
                # Inode and our exact mtime: a lock re-made by someone else is never removed.
                if st.st_ino == held.inode and st.st_mtime_ns == held.mtime_ns:
                    if held.spare is not None and publish.unpublish(held.lock_dir, held.spare, held.inode):
                        return
                    os.rmdir(held.lock_dir)
        # The record is checked, not assumed: once the directory is gone, a new holder may
        # reuse its inode and write a record under the same name before we get here.
        if (read_record(held.owner_file) or {}).get("token") == held.token:
            with contextlib.suppress(OSError):
                os.unlink(held.owner_file)
