"""The storage interface under :class:`~pi_memory.memory.store.MemoryStore`.

The store owns every rule (parsing, budgets, drift, scanning); a backend only
moves raw text in and out under mutual exclusion. That split is what lets the
file backend and the PostgreSQL backend share one set of semantics and one
test-suite.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True)
class RawText:
    """What a backend found for one target.

    ``text`` is the decoded content ("" when missing). ``invalid`` holds the raw
    bytes when they are not valid UTF-8 (then ``text`` is a lossy decoding for
    display only). ``error`` is set when the content could not be read at all;
    a store never writes over content it could not read.
    """

    text: str = ""
    exists: bool = False
    invalid: bytes | None = None
    error: str | None = None

    @property
    def readable(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class BackupInfo:
    """One drift backup, as a backend's ``list_backups`` reports it.

    ``location`` is what the store reported when it saved it (a path, or
    ``postgres:<ns>/MEMORY.md.bak.<ts>``), ``name`` its last part (``MEMORY.md.bak.<ts>``),
    ``chars`` its length in code points.
    """

    location: str
    target: str
    created_at: datetime
    chars: int

    @property
    def name(self) -> str:
        return self.location.replace("\\", "/").rsplit("/", 1)[-1]


#: Marks the location :meth:`Transaction.backup` returns when the copy could not be written.
BACKUP_FAILED = "BACKUP FAILED"


class BackendBusy(Exception):
    """Another writer holds the target; the caller may retry."""


class BackendBlocked(BackendBusy):
    """Something in storage stops every writer until a person removes it; retrying will not help.

    The message says what to remove. A subclass of :class:`BackendBusy`, so code that only
    knows "busy" still stops without writing.
    """


class StorageError(Exception):
    """Storage refused a write (a read-only or full disk, a missing directory); nothing was changed.

    The message says what is wrong and what to fix, in words for the user.
    """


class Transaction(Protocol):
    """Exclusive access to one target for the duration of a mutation."""

    raw: RawText

    def write(self, text: str) -> None:
        """Replace the target's content durably."""

    def backup(self, raw: RawText) -> str:
        """Keep a copy of ``raw``; return where it went (holding :data:`BACKUP_FAILED` if it could not)."""


class StorageBackend(Protocol):
    """Raw storage for the ``memory`` and ``user`` targets."""

    def location(self, target: str) -> str:
        """Human-readable place of ``target`` (a path, or ``postgres:ns/target``)."""

    def label(self, target: str) -> str:
        """The file name the model sees, ``MEMORY.md`` or ``USER.md``."""

    def prepare(self) -> None:
        """Create what must exist before use (a directory, a schema)."""

    def read(self, target: str) -> RawText:
        """Read without locking (writers replace content atomically)."""

    def transaction(self, target: str, timeout: float) -> AbstractContextManager[Transaction]:
        """Lock ``target``; raise :class:`BackendBusy` after ``timeout`` seconds.

        A write the storage refuses raises :class:`StorageError` (and leaves the target as it was).
        """
