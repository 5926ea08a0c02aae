"""The frozen system-prompt snapshot as a session remembers it.

A session's first agent run fixes the memory block it will show for its whole life, and that
text is written into the session file as a ``custom`` entry. Resuming, reloading or continuing
the file therefore sends byte-identical system prompts, which keeps the provider's prompt cache
warm even when MEMORY.md changed meanwhile. The entry carries the session id, so a fork (a new
id over copied entries) never inherits its parent's snapshot.

A saved snapshot is untrusted input: anyone can edit a session file. It is re-checked on every
restore (same session id, at most 50,000 chars, clean under the strict scanner) and replaced by
a fresh capture when it fails.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from pi_memory.memory import SNAPSHOT_CHAR_CAP, MemoryStore
from pi_memory.security.threats import threat_ids

__all__ = ["SNAPSHOT_TYPE", "capture_snapshot", "is_acceptable", "saved_snapshot"]

SNAPSHOT_TYPE = "pi-memory:system-prompt-snapshot"


class EntrySource(Protocol):
    """The reading half of a session manager."""

    def get_branch(self, from_id: str | None = None) -> list[Any]: ...

    def get_entries(self) -> list[Any]: ...


def capture_snapshot(store: MemoryStore) -> str:
    """The store's frozen blocks bounded to the 50,000-char cap (the user block keeps its reserve)."""
    return store.frozen_snapshot()


def is_acceptable(snapshot: str) -> bool:
    """May this saved text go into a system prompt? (size cap, and nothing the strict scan flags)."""
    return len(snapshot) <= SNAPSHOT_CHAR_CAP and not threat_ids(snapshot, "strict")


def _candidates(entries: Iterable[Any], session_id: str) -> list[str]:
    found = []
    for entry in entries:
        if not isinstance(entry, Mapping) or entry.get("type") != "custom":
            continue
        if entry.get("customType") != SNAPSHOT_TYPE:
            continue
        data = entry.get("data")
        if isinstance(data, Mapping) and data.get("sessionId") == session_id and isinstance(data.get("snapshot"), str):
            found.append(data["snapshot"])
    return found


def saved_snapshot(session: EntrySource, session_id: str) -> str | None:
    """This session's saved snapshot: the last one on the current branch, else the first one in
    the file; ``None`` when there is none or it fails the checks."""
    on_branch = _candidates(session.get_branch(), session_id)
    if on_branch:
        chosen = on_branch[-1]
    else:
        anywhere = _candidates(session.get_entries(), session_id)
        if not anywhere:
            return None
        chosen = anywhere[0]
    return chosen if is_acceptable(chosen) else None
