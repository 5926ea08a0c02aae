"""Atomic publication, spare directories and the debris sweep: the lock's optimisations.

proper-lockfile takes a lock with ``mkdir <file>.lock``; a record written after that leaves a
moment at which our lock exists unrecorded, and a holder killed then is only cleared by the
30 s rule. Here the lock directory is instead made under a private name
(``.<file>.lock.<token>``), stamped, recorded, and only then renamed to ``<file>.lock`` with
``renameat2``'s ``RENAME_NOREPLACE``: a holder killed at any instant is recognised as dead.
Where ``renameat2`` is unavailable (not Linux, or a filesystem without ``RENAME_NOREPLACE``)
the protocol falls back to a plain ``mkdir``.

Between locks a process keeps its private directory (and that directory's record) as a
*spare*: releasing renames ``<file>.lock`` back to the private name, and the next acquisition
re-stamps and re-publishes the same directory. Creating and deleting a directory and a record
on every lock cost ~230 us per lock on ext4, a sixth of a durable add (each allocates or frees
an inode, and the directory a block, in the journal); re-using them costs ~55 us.

Spares are removed at interpreter exit; a process that exits without it (killed, or a
``multiprocessing`` worker, which leaves through ``os._exit``) has its spare swept on the next
lock of that file once it is proven dead, any other debris once a minute old; a process whose
spare was swept makes a new one.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import ctypes.util
import errno
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pi_memory.base.lock import owner
from pi_memory.base.lock.constants import FORCE_MKDIR, ORPHAN_AGE, SWEEP_EVERY
from pi_memory.base.lock.owner import owner_record_path, pid_alive, pid_exists, read_record, record_pid, stamp

__all__ = [
    "Published",
    "available",
    "drop_spares",
    "forget_sweeps",
    "keep_spare",
    "publish",
    "remove_debris",
    "rename_noreplace",
    "spare_of",
    "unpublish",
]

_AT_FDCWD = -100
_RENAME_NOREPLACE = 1


def _load_renameat2() -> Any:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        func = libc.renameat2
    except (OSError, AttributeError):
        return None
    func.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    func.restype = ctypes.c_int
    return func


_renameat2 = None if FORCE_MKDIR else _load_renameat2()
# Directories whose filesystem refused RENAME_NOREPLACE: later locks there go straight to mkdir.
_no_noreplace: set[str] = set()


def available(lock_dir: Path) -> bool:
    """Whether locks in ``lock_dir``'s directory are published with ``renameat2`` (else ``mkdir``)."""
    return _renameat2 is not None and str(lock_dir.parent) not in _no_noreplace


def rename_noreplace(src: Path, dst: Path) -> bool | None:
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


# ----------------------------------------------------------------------------- spares


@dataclass
class _Spare:
    """This process's unpublished private directory for one lock, kept for the next acquisition."""

    pid: int
    path: Path
    inode: int


_spares: dict[str, _Spare] = {}


def keep_spare(lock_dir: Path, path: Path, inode: int) -> None:
    """Keep ``path`` (directory ``inode``, with its record) for this process's next lock of ``lock_dir``."""
    _spares[str(lock_dir)] = _Spare(os.getpid(), path, inode)


def _private_dir(lock_dir: Path, token: str) -> tuple[Path, int, int]:
    """Our spare for ``lock_dir``, re-stamped, or a new private directory: (path, inode, mtime_ns)."""
    spare = _spares.pop(str(lock_dir), None)
    if spare is not None and spare.pid == os.getpid():  # never a parent's spare after fork()
        try:
            inode, mtime_ns = stamp(spare.path)
        except FileNotFoundError:
            pass  # swept while this process was idle: make a new one
        else:
            if inode == spare.inode:
                return spare.path, inode, mtime_ns
    private = lock_dir.with_name(f".{lock_dir.name}.{token}")
    os.mkdir(private)
    return (private, *stamp(private))


def spare_of(lock_dir: Path) -> tuple[Path, int] | None:
    """This process's spare for ``lock_dir`` (its path and inode), if it keeps one."""
    spare = _spares.get(str(lock_dir))
    return None if spare is None or spare.pid != os.getpid() else (spare.path, spare.inode)


def drop_spares() -> None:
    """Remove this process's spare directories and their records (at exit, and for tests)."""
    for key, spare in list(_spares.items()):
        if spare.pid != os.getpid():
            continue
        _spares.pop(key, None)
        with contextlib.suppress(OSError):
            os.rmdir(spare.path)
        with contextlib.suppress(OSError):
            os.unlink(owner_record_path(Path(key), spare.inode))


atexit.register(drop_spares)


# ----------------------------------------------------------------------------- publish and unpublish


@dataclass
class Published:
    """Our recorded private directory, now the lock: the name to rename it back to, its stamp, its record."""

    private: Path
    inode: int
    mtime_ns: int
    record: Path


def _discard(private: Path, record: Path) -> None:
    with contextlib.suppress(OSError):
        os.rmdir(private)
    with contextlib.suppress(OSError):
        os.unlink(record)


def publish(lock_dir: Path, token: str) -> Published | bool:
    """Make a recorded private directory the lock ``lock_dir``.

    Returns :class:`Published`, ``False`` when the lock is taken (or our directory was swept or
    removed meanwhile: try again), or ``True`` when this filesystem cannot rename without
    replacing (the caller falls back to ``mkdir``; later locks here go straight there).
    """
    private, inode, mtime_ns = _private_dir(lock_dir, token)
    record = owner_record_path(lock_dir, inode)
    try:
        owner.write_record(record, token, inode, mtime_ns, how="in_place")
        done = rename_noreplace(private, lock_dir)
    except FileNotFoundError:
        _discard(private, record)  # swept between our stamp and the rename: try again
        return False
    except BaseException:
        _discard(private, record)
        raise
    if done is None:
        _discard(private, record)
        _no_noreplace.add(str(lock_dir.parent))
        return True
    if not done:
        keep_spare(lock_dir, private, inode)  # busy: the next attempt reuses it
        return False
    try:
        st = lock_dir.stat()
    except FileNotFoundError:  # removed at once by a writer that judged it abandoned
        if (read_record(record) or {}).get("token") == token:
            with contextlib.suppress(OSError):
                os.unlink(record)
        return False
    if st.st_mtime_ns != mtime_ns:  # a filesystem that re-stamps renamed directories
        mtime_ns = st.st_mtime_ns
        with contextlib.suppress(OSError):
            owner.write_record(record, token, inode, mtime_ns, how="atomic")
    return Published(private, inode, mtime_ns, record)


def unpublish(lock_dir: Path, private: Path, inode: int) -> bool:
    """Rename our lock back to its private name and keep it as a spare; False when that is not possible.

    Released (the public name is gone) and kept, with its record, for the next lock: the record
    names only this private directory now.
    """
    try:
        if rename_noreplace(lock_dir, private) is not True:
            return False
    except OSError:
        return False
    keep_spare(lock_dir, private, inode)
    return True


# ----------------------------------------------------------------------------- the debris sweep


@dataclass
class _Sweep:
    """What this process saw at its last sweep beside one lock."""

    at: float  #: monotonic time
    nlink: int  #: the directory's link count: 2 + its subdirectories, so spares made or removed
    owners: tuple[int, ...]  #: PIDs of the live processes whose spares were kept


_last_sweep: dict[str, _Sweep] = {}


def forget_sweeps() -> None:
    """Forget when this process last swept (the next lock of every file sweeps at once)."""
    _last_sweep.clear()


def remove_debris(lock_dir: Path, keep: Path) -> None:
    """Sweep what gone processes left beside ``lock_dir``: spares, records, crash debris.

    A spare and its record go as soon as their process is proven dead (a killed writer, a
    ``multiprocessing`` worker, which exits without running ``atexit``); anything else (temp
    records, records that prove nothing) once older than ``ORPHAN_AGE``.

    A directory scan costs as much as the rest of an uncontended acquisition, so it runs only
    when something may have changed since this process's last one: its first lock of the file,
    a changed link count of the directory (a spare made or removed), a gone owner of a spare
    kept last time, and otherwise every ``SWEEP_EVERY`` s (filesystems such as btrfs do not
    count subdirectories in the link count).
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
        and now - last.at < SWEEP_EVERY
        and nlink == last.nlink
        and all(pid_exists(pid) for pid in last.owners)
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
    cutoff = time.time() - ORPHAN_AGE
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

    Returns both paths once removed; the PID of a live owner here is added to ``owners``. Only a
    record whose private directory still exists is removed: that directory holds the inode the
    record is named after, so no other lock can be writing that name.
    """
    record = read_record(record_path)
    if record is None:
        return ()
    pid = record_pid(record)
    if pid is None or pid == os.getpid():
        return ()
    if pid_alive(pid, record.get("start")):
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
