"""Durable files: the one atomic write, the one durable create, the fsync of a directory.

A replacement is written to a temp file beside the target, fsynced, and renamed over it; the
directory is then fsynced so the rename itself survives a power cut (pi-memory and hermes skip
that last step). A reader therefore sees the old bytes or the new ones, never a mix, and a
writer killed mid-write leaves only a temp file (``.mem_<hex>.tmp``), which
:func:`remove_orphan_temps` sweeps once it is old. Every layer that replaces a file (memory
stores, session rewrites, the trust store, dreaming's state) writes through here.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import time
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "NEW_FILE_MODE",
    "TEMP_PREFIX",
    "TEMP_SUFFIX",
    "atomic_write",
    "atomic_write_text",
    "create_durable",
    "fsync_dir",
    "remove_orphan_temps",
    "replace_file",
    "write_all",
]

TEMP_PREFIX = ".mem_"
TEMP_SUFFIX = ".tmp"
#: A new file is private: memory and sessions often hold personal facts.
NEW_FILE_MODE = 0o600
ORPHAN_TEMP_AGE = 300.0
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
#: What ``fsync`` of a directory answers on a filesystem that cannot sync one: nothing to do there.
_NO_DIRECTORY_SYNC = frozenset({errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP})


def fsync_dir(directory: Path | str) -> None:
    """Make a rename or create in ``directory`` durable (a no-op where directories cannot be synced)."""
    if os.name != "posix":
        return  # Windows cannot open a directory; NTFS journals the rename itself
    fd = os.open(directory or ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _O_CLOEXEC)
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in _NO_DIRECTORY_SYNC:
            raise
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """``os.write`` until all of ``data`` is written (a write may be short)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def replace_file(
    real: Path | str, data: bytes, mode: int, *, durable: bool = True, before_rename: Callable[[], None] | None = None
) -> None:
    """Write ``data`` to a temp file beside ``real`` (fsynced) and rename it over ``real``.

    The directory is *not* fsynced here: a caller holding a lock does it after releasing the
    lock, so the rename's journal commit also carries the lock's own bookkeeping instead of
    costing one more (:func:`atomic_write` does it at once). ``before_rename`` runs last before
    the rename and may raise to drop the write (the temp file goes too): a lock holder confirms
    there that its lock is still its own.
    """
    directory = os.path.dirname(real) or "."
    tmp = os.path.join(directory, f"{TEMP_PREFIX}{secrets.token_hex(6)}{TEMP_SUFFIX}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_CLOEXEC, mode)
    try:
        try:
            write_all(fd, data)
            if os.fstat(fd).st_mode & 0o7777 != mode:
                os.fchmod(fd, mode)  # the umask narrowed it; set before the fsync so it lasts
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        if before_rename is not None:
            before_rename()
        os.rename(tmp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write(
    path: Path | str,
    data: bytes,
    *,
    durable: bool = True,
    new_mode: int = NEW_FILE_MODE,
    follow_links: bool = True,
    before_rename: Callable[[], None] | None = None,
) -> None:
    """Replace ``path`` with ``data`` atomically and (by default) durably; never leaves a temp file.

    The existing file's mode is kept; a new file gets ``new_mode``. With ``follow_links`` a
    symlinked target is written through (the link survives); without, the link itself is
    replaced. ``before_rename``: see :func:`replace_file`.
    """
    real = Path(os.path.realpath(path) if follow_links else os.path.abspath(path))
    real.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = real.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = new_mode
    replace_file(real, data, mode, durable=durable, before_rename=before_rename)
    if durable:
        fsync_dir(real.parent)


def atomic_write_text(
    path: Path | str, text: str, *, durable: bool = True, before_rename: Callable[[], None] | None = None
) -> None:
    """:func:`atomic_write` of ``text`` as UTF-8, through symlinks, a new file private (0600)."""
    atomic_write(path, text.encode("utf-8"), durable=durable, before_rename=before_rename)


def create_durable(path: Path | str, data: bytes, mode: int = NEW_FILE_MODE) -> None:
    """Create ``path`` with ``data`` and make it durable; ``FileExistsError`` if it exists (never overwrites)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_CLOEXEC, mode)
    try:
        write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    fsync_dir(os.path.dirname(path) or ".")


def remove_orphan_temps(directory: Path | str, max_age: float = ORPHAN_TEMP_AGE) -> None:
    """Delete temp files left by a writer killed mid-write (older than ``max_age`` seconds)."""
    cutoff = time.time() - max_age
    for tmp in Path(directory).glob(f"{TEMP_PREFIX}*{TEMP_SUFFIX}"):
        with contextlib.suppress(OSError):
            if tmp.stat().st_mtime < cutoff:
                tmp.unlink()
