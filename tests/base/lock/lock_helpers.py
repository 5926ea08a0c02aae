"""What the lock tests share: a Python subprocess that holds a lock, and reading what locks leave
on disk (the suite runs with ``--import-mode=importlib``; tests/base/lock/conftest.py puts this
folder on the path)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from pi_memory.base.lock import (
    LockBusy,
    file_lock,
    lock_dir_for,
    owner_record_path,
)
from pi_memory.base.lock import publish as publishmod

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


#: Another process trying the lock once: prints "acquired" or "busy".
PROBE = """
import sys
from pi_memory.base.lock import LockBusy, file_lock
try:
    with file_lock(sys.argv[1], timeout=0):
        print("acquired")
except LockBusy:
    print("busy")
"""
