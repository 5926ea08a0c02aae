"""Past conversations as *turns*: one user message and the assistant's answer to it.

Dreaming reads pi's session files (ours are the same files), so it learns from every agent that
shares the directory: pi under Node, ``pi-memory chat``, or any host of this package. Files are
read, never written: a v1 session is migrated in memory only, and a damaged line is skipped
without leaving a ``.damaged`` sidecar next to somebody else's session.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pi_memory.base import content_text
from pi_memory.base.js import date_parse_ms, is_js_number
from pi_memory.session import SessionInfo, SessionManager, load_records

__all__ = ["Turn", "collect_turns", "iso_ms", "session_turns"]


@dataclass(frozen=True)
class Turn:
    """A finished exchange. ``created_at_ms`` is when the last assistant text arrived (Unix ms)."""

    id: str
    session_id: str
    user_message: str
    assistant_message: str
    provider: str
    model: str
    created_at_ms: float

    @property
    def conversation_id(self) -> str:
        return self.session_id

    @property
    def created_at(self) -> str:
        """``Date.toISOString()`` of the completion time."""
        return iso_ms(self.created_at_ms)


def iso_ms(ms: float) -> str:
    """Unix milliseconds as JavaScript's ``toISOString`` (UTC, milliseconds, ``Z``)."""
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _time(entry: Mapping[str, Any], message: Mapping[str, Any]) -> float:
    stamp: Any = message.get("timestamp")
    if is_js_number(stamp):
        return float(stamp)
    ms = date_parse_ms(entry.get("timestamp"))
    return 0.0 if math.isnan(ms) else ms


class _Pending:
    def __init__(self, entry_id: str, user: str, at: float) -> None:
        self.id, self.user, self.at = entry_id, user, at
        self.parts: list[str] = []
        self.provider = self.model = "unknown"


def session_turns(entries: Iterable[Mapping[str, Any]], session_id: str, since_ms: float | None) -> list[Turn]:
    """The turns of one branch (root first) that finished after ``since_ms`` (any time when None)."""
    turns: list[Turn] = []
    pending: _Pending | None = None

    def flush() -> None:
        if pending is None or not pending.parts:
            return
        if pending.at > (since_ms if since_ms is not None else 0):
            turns.append(Turn(pending.id, session_id, pending.user, "\n".join(pending.parts), pending.provider,
                              pending.model, pending.at))

    for entry in entries:
        if entry.get("type") != "message" or not isinstance(entry.get("message"), Mapping):
            continue
        message = entry["message"]
        role = message.get("role")
        if role == "user":
            flush()
            pending = _Pending(str(entry.get("id")), content_text(message.get("content")), _time(entry, message))
        elif role == "assistant" and pending is not None:
            text = content_text(message.get("content"))
            if text:
                pending.parts.append(text)
            pending.provider = str(message.get("provider") or "unknown")
            pending.model = str(message.get("model") or "unknown")
            pending.at = _time(entry, message)
    flush()
    return turns


def _read_branch(path: str) -> tuple[str, list[dict[str, Any]]] | None:
    loaded = load_records(path)
    if not loaded.valid:
        return None
    header = loaded.records[0]
    cwd = header.get("cwd") if isinstance(header.get("cwd"), str) else "/"
    session = SessionManager.in_memory(str(cwd), entries=loaded.records)
    return session.get_session_id(), session.get_branch()


def _sessions(include_global: bool, session_dir: str | None) -> list[SessionInfo]:
    found: dict[str, SessionInfo] = {}
    if include_global:
        for info in SessionManager.list_all():
            found.setdefault(info.path, info)
    if session_dir:
        for info in SessionManager.list_all(session_dir):
            found.setdefault(info.path, info)
    return list(found.values())


def collect_turns(*, include_global: bool, session_dir: str | None, since_ms: float | None) -> list[Turn]:
    """Turns from every session the options name, oldest first.

    ``include_global`` reads every project's default session directory; ``session_dir`` adds one
    directory. Sessions whose last activity is not after ``since_ms`` are not opened at all.
    """
    turns: list[Turn] = []
    for info in _sessions(include_global, session_dir):
        if since_ms is not None and info.modified_ms <= since_ms:
            continue
        try:
            branch = _read_branch(info.path)
        except (OSError, ValueError):
            continue
        if branch is not None:
            turns.extend(session_turns(branch[1], branch[0], since_ms))
    turns.sort(key=lambda t: t.created_at_ms)
    return turns
