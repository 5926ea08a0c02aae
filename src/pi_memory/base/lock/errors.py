"""What a lock attempt can end in besides success."""

from __future__ import annotations

from pathlib import Path


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
