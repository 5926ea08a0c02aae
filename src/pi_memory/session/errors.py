"""What session operations raise or warn about (pi throws a plain ``Error`` in these cases)."""

from __future__ import annotations

from typing import Any

__all__ = ["EntryNotFoundError", "SessionError", "SessionFileDamagedWarning"]


class SessionError(Exception):
    """A session operation that cannot be done as asked (pi throws ``Error`` in these cases)."""


class EntryNotFoundError(SessionError, LookupError):
    """``Entry <id> not found``: an id that is not in this session."""

    def __init__(self, entry_id: Any) -> None:
        super().__init__(f"Entry {entry_id} not found")
        self.entry_id = entry_id


class SessionFileDamagedWarning(UserWarning):
    """A session file had lines that could not be read; see ``SessionManager.damaged_lines``."""
