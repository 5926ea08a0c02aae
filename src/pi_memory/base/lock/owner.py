"""Owner records and liveness: who holds a lock, and when that holder is proven dead.

proper-lockfile knows only the 30 s stale rule. Our holders also leave a record *beside* the
lock directory (``.<file>.lock.owner.<inode>``; never inside it, because proper-lockfile removes
stale locks with ``rmdir``), so that a lock whose holder was one of our processes and is
*proven* dead is taken over at once instead of after 30 s.

Proof needs the same host, the same boot and the same PID namespace (``/proc/self/ns/pid``: a
sandbox or container sharing the directory numbers its processes differently, so its PID names
some other process here) and no process with that PID and start time. Without proof the 30 s
rule applies, as for a Node holder. The record is named after the directory's inode and holds
the exact mtime its holder set, so a record left behind by a crash can never be mistaken for
the owner of somebody else's newer lock. An unparsable record only ever means "alive".

One writer (:func:`write_record`) and one reader (:func:`read_record`) of the record.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any, Literal

from pi_memory.base.lock.constants import MAX_RECORD_BYTES, RECORD_SIZE

__all__ = [
    "identity",
    "owner_is_dead",
    "owner_record_path",
    "pid_alive",
    "pid_exists",
    "read_record",
    "record_pid",
    "stamp",
    "write_record",
]

_LINUX = sys.platform.startswith("linux")
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_identity_cache: tuple[dict[str, object], bytes] | None = None

WriteHow = Literal["in_place", "direct", "atomic"]


# ----------------------------------------------------------------------------- liveness


def _proc_stat(pid: int) -> list[str] | None:
    """Fields 3.. of ``/proc/<pid>/stat`` (state first), or None where there is no procfs."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name in field 2 may contain spaces and parentheses: split after the last ')'.
    return text.rsplit(")", 1)[1].split()


def _identity_and_json() -> tuple[dict[str, object], bytes]:
    """:func:`identity` and its JSON without the closing brace, cached per PID (a forked child
    is somebody else): a record is that prefix plus the lock's own fields."""
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
        fields = _proc_stat(pid)
        me: dict[str, object] = {
            "pid": pid, "start": fields[19] if fields else None, "host": socket.gethostname(), "pidns": pidns,
            "boot": boot,
        }
        cached = _identity_cache = (me, json.dumps(me)[:-1].encode())
    return cached


def identity() -> dict[str, object]:
    """Who this process is in an owner record: PID, start time, host, PID namespace, boot.

    On Linux ``pidns`` and ``boot`` are None when they cannot be known (no procfs, or a procfs
    that belongs to another PID namespace: ``/proc/self`` is then not our PID), and then
    nobody's death can be proven from here. (The first PID namespace has the same number on
    every machine: the host and the boot id tell machines apart.)
    """
    return _identity_and_json()[0]


def record_pid(record: dict[str, Any]) -> int | None:
    """The PID in owner record ``record`` if it names a process here, else None.

    A PID means the same process here only on the same host, in the same boot and in the same
    PID namespace: a sandbox or container sharing the directory numbers its own.
    """
    me = identity()
    if _LINUX and me["pidns"] is None:
        return None
    if any(record.get(key) != me[key] for key in ("host", "pidns", "boot")):
        return None
    pid = record.get("pid")
    return pid if isinstance(pid, int) and pid > 0 else None


def pid_exists(pid: int) -> bool:
    """Whether any process has ``pid`` (one signal-0 probe; a zombie counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: somebody else's process
        return True
    return True


def pid_alive(pid: int, start_ticks: object) -> bool:
    """Whether ``pid`` runs and is the process that started at ``start_ticks`` (if given)."""
    if not pid_exists(pid):
        return False
    fields = _proc_stat(pid)
    if fields is None:
        return True
    if fields[0] in ("Z", "X"):
        return False  # killed but not yet reaped by its parent
    return start_ticks is None or fields[19] == start_ticks  # else the PID was reused


def provably_dead(record: dict[str, Any]) -> bool:
    """True only when ``record``'s process is proven gone; anything unproven is alive.

    Proof: its PID names a process here (:func:`record_pid`) and there is no such process, it
    is a zombie, or it started at another time (the PID was reused).
    """
    pid = record_pid(record)
    if pid is None or pid == os.getpid():
        return False
    return not pid_alive(pid, record.get("start"))


# ----------------------------------------------------------------------------- the record


def owner_record_path(lock_dir: Path, inode: int) -> Path:
    """``.<file>.lock.owner.<inode>``: the record of the holder of lock directory ``inode``.

    Hidden, like the private directories (``.<file>.lock.<token>``): a process keeps both
    between locks, and a user listing the memory directory need not see them.
    """
    return lock_dir.with_name(f".{lock_dir.name}.owner.{inode}")


def stamp(directory: Path) -> tuple[int, int]:
    """Give a fresh lock directory an exact mtime; its (inode, mtime in ns).

    ``mkdir`` alone stamps the kernel's coarse clock, so two directories that reuse one inode
    within a tick could share an mtime and a crashed holder's record could then pass for the
    new holder's; a nanosecond ``utime`` cannot.
    """
    now_ns = time.time_ns()
    os.utime(directory, ns=(now_ns, now_ns))
    st = directory.stat()
    return st.st_ino, st.st_mtime_ns


def write_record(
    path: Path, token: str, inode: int, mtime_ns: int, *, how: WriteHow, previous_mtime_ns: int | None = None
) -> None:
    """Write the record of the holder of directory ``inode`` stamped ``mtime_ns`` to ``path``.

    ``previous_mtime_ns`` is accepted as a match too (a refresh names the mtime it replaces).
    How it is written depends on who may be reading it:

    * ``in_place``: a spare's record (its directory is not published, so nobody reads it) is
      overwritten in place, padded to a fixed size: rewriting it changes only data, never
      allocation.
    * ``direct``: a just-published lock (the mkdir fallback) may have a crashed holder's record
      under the same name, so the file is truncated and written: a reader sees ours or nothing,
      never a mix. No temp file, so the unrecorded window stays as short as it can be.
    * ``atomic``: a held lock's record (a refresh) goes through a temp file and a rename, so a
      holder killed meanwhile still leaves a whole record that matches its directory.
    """
    fields = b', "token": "%s", "inode": %d, "mtimeNs": %d' % (token.encode(), inode, mtime_ns)
    if previous_mtime_ns is not None:
        fields += b', "previousMtimeNs": %d' % previous_mtime_ns
    data = _identity_and_json()[1] + fields + b"}"
    if how == "atomic":
        tmp = path.with_name(f"{path.name}.{token}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
        return
    in_place = how == "in_place" and len(data) < RECORD_SIZE
    flags = os.O_WRONLY | os.O_CREAT | _O_CLOEXEC | (0 if in_place else os.O_TRUNC)
    fd = os.open(path, flags, 0o600)
    try:
        if in_place:
            os.pwrite(fd, data.ljust(RECORD_SIZE), 0)
        else:
            os.write(fd, data)
    finally:
        os.close(fd)


def read_record(path: Path) -> dict[str, Any] | None:
    """The owner record at ``path`` (None when absent, unreadable, too long or not a JSON object)."""
    try:
        fd = os.open(path, os.O_RDONLY | _O_CLOEXEC)
    except OSError:
        return None
    try:
        data = os.read(fd, MAX_RECORD_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(data) > MAX_RECORD_BYTES:
        return None
    try:
        record = json.loads(data)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def owner_is_dead(lock_dir: Path, st: os.stat_result) -> bool:
    """True only when the record provably belongs to lock directory ``st`` and its process is gone."""
    record = read_record(owner_record_path(lock_dir, st.st_ino))
    if record is None or record.get("inode") != st.st_ino:
        return False
    if st.st_mtime_ns not in (record.get("mtimeNs"), record.get("previousMtimeNs")):
        return False
    return provably_dead(record)
