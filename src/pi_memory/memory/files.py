"""The default backend: ``MEMORY.md`` and ``USER.md`` in one directory.

Writes are atomic and durable (:mod:`pi_memory.base.fs`): a temp file in the same
directory is written, fsynced and renamed over the target, then the directory itself
is fsynced so the rename survives a power cut (pi-memory and hermes skip that last step).
A mutation holds the proper-lockfile lock (:mod:`pi_memory.base.lock`) on the target, so a
Node pi-memory process and this one never lose each other's updates.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from pi_memory.base.fs import NEW_FILE_MODE, create_durable, fsync_dir, remove_orphan_temps, replace_file
from pi_memory.base.lock import HeldLock, LockBlocked, LockBusy, LockCompromised, file_lock
from pi_memory.base.paths import default_memory_dir, default_memory_dir_origin
from pi_memory.memory.backend import BACKUP_FAILED, BackendBlocked, BackendBusy, BackupInfo, RawText, StorageError

__all__ = ["FILE_NAMES", "FileBackend", "default_memory_dir", "default_memory_dir_origin", "os_error_problem",
           "read_raw", "write_backup"]

FILE_NAMES = {"memory": "MEMORY.md", "user": "USER.md"}
#: What :func:`write_backup` names a backup: ``<file>.bak.<unix-ts>``, then ``.<n>`` within a second.
_BACKUP_NAME = re.compile(r"(?P<file>MEMORY\.md|USER\.md)\.bak\.(?P<ts>\d{1,12})(?:\.(?P<n>\d{1,6}))?")
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_SWEEP_EVERY = 30.0
_last_temp_sweep: dict[str, float] = {}


def os_error_problem(exc: OSError, directory: Path) -> str:
    """What an ``OSError`` from writing in ``directory`` means for the user, and what to do."""
    code = exc.errno
    if code == errno.EROFS:
        return (f"{directory} is on a read-only file system; remount it read-write, or point pi-memory at a "
                "writable directory (--dir, or pi-memory.dataDir in settings)")
    if code in (errno.EACCES, errno.EPERM):
        return f"no permission to write in {directory}; make it writable for this user, then retry"
    if code in (errno.ENOSPC, errno.EDQUOT):
        what = "disk quota exceeded" if code == errno.EDQUOT else "no space left on the device"
        return f"{what} holding {directory}; free some space there, then retry"
    where = f" ({exc.filename})" if exc.filename else ""
    return f"{exc.strerror or exc}{where}; check {directory}, then retry"


def _read_problem(path: Path, exc: OSError) -> str:
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"{path.name} could not be read ({exc.strerror}); make it readable for this user"
    return f"{path.name} could not be read ({exc.strerror or exc})"


def _dangling_link(path: Path) -> str | None:
    """Why ``path`` cannot be used when it is a symlink to nothing (``None`` otherwise).

    Writing through it would create a file wherever the link points, or fail half-way when that
    directory is gone: the link is the user's to repair (a dotfiles checkout not mounted?).
    """
    try:
        target = os.readlink(path)
    except OSError:
        return None  # not a link (or gone meanwhile): a plain missing file
    if os.path.exists(path):
        return None
    return (f"{path.name} is a symbolic link to {target}, which does not exist; create that file (or its "
            f"directory), or replace the link with a regular file")


def _read_with_mode(path: Path, link: Path | None = None) -> tuple[RawText, int | None]:
    """``path``'s content as a :class:`RawText` and its permission bits (None when missing or unreadable).

    One open, one fstat and the reads: this runs inside the lock on every mutation. ``link`` is
    the name ``path`` was resolved from: when ``path`` is missing, a dangling ``link`` is an error.
    """
    try:
        fd = os.open(path, os.O_RDONLY | _O_CLOEXEC)
    except FileNotFoundError:
        dangling = _dangling_link(link if link is not None else path)
        return (RawText(), None) if dangling is None else (RawText(exists=True, error=dangling), None)
    except OSError as exc:
        return RawText(exists=True, error=_read_problem(path, exc)), None
    try:
        st = os.fstat(fd)
        chunks = [os.read(fd, st.st_size + 1)]
        while chunks[-1]:
            chunks.append(os.read(fd, max(st.st_size, 65536)))
    except OSError as exc:
        return RawText(exists=True, error=_read_problem(path, exc)), None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    mode = st.st_mode & 0o7777
    try:
        return RawText(text=data.decode("utf-8"), exists=True), mode
    except UnicodeDecodeError:
        return RawText(text=data.decode("utf-8", errors="replace"), exists=True, invalid=data), mode


def read_raw(path: Path) -> RawText:
    """Read ``path`` without ever raising: missing, unreadable and invalid UTF-8 are states."""
    return _read_with_mode(path)[0]


def write_backup(path: Path, raw: RawText) -> Path:
    """Save ``raw`` as ``<file>.bak.<unix-ts>`` and return its path.

    An existing backup with the same bytes is reused (no pile of identical
    backups, hermes #107270); a different backup from the same second is never
    overwritten (a ``.<n>`` suffix is added instead).
    """
    data = raw.invalid if raw.invalid is not None else raw.text.encode("utf-8")
    for existing in sorted(path.parent.glob(f"{path.name}.bak.*")):
        with contextlib.suppress(OSError):
            if existing.stat().st_size == len(data) and existing.read_bytes() == data:
                return existing
    stamp = int(time.time())
    candidate = path.with_name(f"{path.name}.bak.{stamp}")
    n = 0
    while True:
        try:
            create_durable(candidate, data)
        except FileExistsError:
            n += 1
            candidate = path.with_name(f"{path.name}.bak.{stamp}.{n}")
            continue
        return candidate


def _sweep_temps_now_and_then(directory: Path) -> None:
    """:func:`remove_orphan_temps`, at most every ``_SWEEP_EVERY`` s per directory and process.

    Orphans only arise from a writer killed mid-write and only go once five
    minutes old, so scanning the directory on every mutation bought nothing.
    """
    now = time.monotonic()
    key = str(directory)
    last = _last_temp_sweep.get(key)
    if last is None or now - last >= _SWEEP_EVERY:
        _last_temp_sweep[key] = now
        remove_orphan_temps(directory)


class _FileTransaction:
    def __init__(self, path: Path, real: Path, durable: bool, held: HeldLock) -> None:
        self.path = path
        self.real = real
        self.durable = durable
        self.held = held
        self.raw, mode = _read_with_mode(real, path)
        self.mode = NEW_FILE_MODE if mode is None else mode
        self.written = False

    def write(self, text: str) -> None:
        """Replace the file, unless the lock was lost meanwhile (then :class:`LockCompromised`).

        What this writer read may be stale by then (another writer took the lock over
        while it was stopped), so renaming its text into place would lose that writer's
        changes; the lock is confirmed after the slow part (the fsync), right before the rename.
        """
        replace_file(self.real, text.encode("utf-8"), self.mode, durable=self.durable, before_rename=self.held.confirm)
        self.written = True

    def backup(self, raw: RawText) -> str:
        try:
            return str(write_backup(self.path, raw))
        except OSError:
            planned = self.path.with_name(f"{self.path.name}.bak.{int(time.time())}")
            return f"{planned} ({BACKUP_FAILED} — file unchanged on disk)"


class _RefusedTransaction:
    """Handed to the store when the file cannot be used at all (a dangling link): no lock is
    taken, and ``raw.error`` stops the mutation before anything is written."""

    def __init__(self, error: str) -> None:
        self.raw = RawText(exists=True, error=error)

    def write(self, text: str) -> None:  # pragma: no cover - the store never writes over an error
        raise RuntimeError(self.raw.error)

    def backup(self, raw: RawText) -> str:  # pragma: no cover - drift is not checked after an error
        raise RuntimeError(self.raw.error)


class FileBackend:
    """``<dir>/MEMORY.md`` and ``<dir>/USER.md``, locked like pi-memory locks them.

    ``durable=False`` skips fsync (for throwaway stores on tmpfs); the default
    is durable.
    """

    def __init__(self, directory: Path | str, *, durable: bool = True) -> None:
        self.dir = Path(directory).expanduser().absolute()
        self.durable = durable

    def path(self, target: str) -> Path:
        return self.dir / FILE_NAMES[target]

    def location(self, target: str) -> str:
        return str(self.path(target))

    def label(self, target: str) -> str:
        return FILE_NAMES[target]

    def prepare(self) -> None:
        """Check, create nothing: a missing directory reads as empty memory and only the first
        write creates it (so ``status``, ``read`` and a session that never writes leave no trace
        on disk). A file where the directory or one of its parents should be is an error now,
        not at the first write."""
        for path in (self.dir, *self.dir.parents):
            if path.exists():
                if not path.is_dir():
                    raise NotADirectoryError(f"{path} is a file, so the memory directory {self.dir} cannot exist")
                return

    def check(self) -> str | None:
        """Why this directory cannot hold memory at all (what to fix), or ``None``; reads only.

        A path naming a file, or a missing directory whose nearest existing parent is not a
        directory or not writable, would fail every write (and ``prepare``) with an ``OSError``.
        """
        fix = "point pi-memory.dataDir (or --dir) at a directory you can write"
        try:
            if self.dir.exists() and not self.dir.is_dir():
                return f"the memory directory {self.dir} is a file, not a directory: {fix}, or move the file aside"
            parent = self.dir
            while not parent.exists():
                parent = parent.parent
        except (OSError, ValueError) as exc:
            return f"the memory directory {self.dir} cannot be used ({exc}): {fix}"
        if parent == self.dir:
            return None
        if not parent.is_dir():
            return f"the memory directory {self.dir} cannot be created: {parent} is a file, not a directory: {fix}"
        if not os.access(parent, os.W_OK | os.X_OK):
            return f"the memory directory {self.dir} cannot be created: {parent} is not writable: {fix}"
        return None

    def read(self, target: str) -> RawText:
        return read_raw(self.path(target))

    def list_backups(self, target: str | None = None) -> list[BackupInfo]:
        """The drift backups beside the files (``<file>.bak.<ts>``), oldest first; reads only.

        The same shape as the PostgreSQL backend's, so a reader (``pi-memory ui``) lists either.
        """
        targets = [target] if target is not None else list(FILE_NAMES)
        found: list[tuple[int, int, BackupInfo]] = []
        for name in targets:
            label = FILE_NAMES[name]
            try:
                candidates = list(self.dir.glob(f"{label}.bak.*"))
            except OSError:
                continue
            for path in candidates:
                match = _BACKUP_NAME.fullmatch(path.name)
                if match is None or not path.is_file():
                    continue
                text = self.read_backup(path.name)
                if text is None:
                    continue
                stamp, n = int(match["ts"]), int(match["n"] or 0)
                found.append((stamp, n, BackupInfo(str(path), name, datetime.fromtimestamp(stamp, UTC),
                                                   len(text))))
        return [info for _, _, info in sorted(found, key=lambda row: (row[0], row[1], row[2].location))]

    def read_backup(self, location: str) -> str | None:
        """The text a backup holds (its path as reported, or just its name); ``None`` if there is no
        such backup here. Only ``<file>.bak.<ts>`` names in this directory are read, whatever
        ``location`` says (undecodable bytes read as U+FFFD)."""
        name = os.path.basename(location)
        if _BACKUP_NAME.fullmatch(name) is None:
            return None
        raw = read_raw(self.dir / name)
        if not raw.exists or not raw.readable:
            return None
        return raw.text

    @contextlib.contextmanager
    def transaction(self, target: str, timeout: float) -> Iterator[_FileTransaction | _RefusedTransaction]:
        """Lock, read, let the caller write; fsync the directory once the lock is released.

        The directory fsync makes the rename durable before the caller reports
        success. It runs after the release on purpose: a writer that takes the
        lock meanwhile reads (and rewrites) our already-renamed content, so
        nothing it does can lose our write, and our release's ``rmdir`` and
        record ``unlink`` ride in the same journal commit as the rename.

        An ``OSError`` while locking or writing (a read-only or full disk) becomes a
        :class:`StorageError` saying what to fix; the temp file and the lock are gone by then,
        so the target is as it was.
        """
        path = self.path(target)
        real = Path(os.path.realpath(path))
        if real != path and not os.path.exists(real) and (dangling := _dangling_link(path)) is not None:
            yield _RefusedTransaction(dangling)
            return
        try:
            self.prepare()
            self.dir.mkdir(parents=True, exist_ok=True)  # the first write creates the directory
            with file_lock(real, timeout=timeout, resolved=True) as held:
                _sweep_temps_now_and_then(real.parent)
                txn = _FileTransaction(path, real, self.durable, held)
                yield txn
        except LockBlocked as exc:
            raise BackendBlocked(str(exc)) from exc
        except LockBusy as exc:
            raise BackendBusy(str(exc)) from exc
        except LockCompromised as exc:
            raise BackendBusy(f"{exc}; nothing was written") from exc
        except OSError as exc:
            raise StorageError(os_error_problem(exc, real.parent)) from exc
        if txn.written and self.durable:
            fsync_dir(real.parent)
