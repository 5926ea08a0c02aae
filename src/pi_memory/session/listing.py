"""What a session picker shows about one file (pi 1.6.0's ``SessionInfo``, ``buildSessionInfo``).

Listing reads each file line by line and never writes; an unreadable file, or one whose first
parsed line is not a header, is not a session. Finding the files is :mod:`.discovery`'s job.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from pi_memory.base.js import date_parse_ms, is_js_number, js_trim, js_truthy, ms_to_datetime

from .messages import js_content_text
from .store import parse_json_line

__all__ = ["SessionInfo", "build_session_info", "sort_session_infos"]

_LINE_BREAK_RE: Final = re.compile(r"\r\n|\r|\n")  # Node readline with crlfDelay: Infinity


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """What a session picker shows about one file (pi's ``SessionInfo``).

    ``modified`` is the latest user/assistant message time, else the header time, else the file
    mtime. ``created`` is None when the header timestamp is not a valid date.
    """

    path: str
    id: str
    cwd: str
    name: str | None
    parent_session_path: str | None
    created: datetime | None
    modified: datetime
    message_count: int
    first_message: str
    all_messages_text: str

    @property
    def modified_ms(self) -> float:
        """``modified.getTime()`` in pi: Unix milliseconds."""
        return self.modified.timestamp() * 1000


def _conversation_message(entry: dict[str, Any]) -> dict[str, Any] | None:
    """The entry's message when it is a user or assistant message with content (pi's
    ``isMessageWithContent`` + role check): only those date and describe a session."""
    message = entry.get("message")
    if not isinstance(message, dict) or not isinstance(message.get("role"), str) or "content" not in message:
        return None
    return message if message["role"] in ("user", "assistant") else None


def _activity_time(entry: dict[str, Any], message: dict[str, Any]) -> float | None:
    stamp: Any = message.get("timestamp")
    if is_js_number(stamp):
        return float(stamp)
    ms = date_parse_ms(entry.get("timestamp"))
    return None if math.isnan(ms) else ms


def build_session_info(path: str) -> SessionInfo | None:
    """Listing metadata for one file, or None if it is not a readable session."""
    try:
        stats = os.stat(path)
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    text = data.decode("utf-8", errors="replace")
    header: dict[str, Any] | None = None
    message_count = 0
    first_message = ""
    all_messages: list[str] = []
    name: str | None = None
    last_activity: float | None = None
    for line in _LINE_BREAK_RE.split(text):
        if not js_trim(line):
            continue
        entry, error = parse_json_line(line, 0, len(line))
        if error is not None or not js_truthy(entry):
            continue
        if not isinstance(entry, dict):
            if header is None:
                return None
            continue
        if header is None:
            if entry.get("type") != "session":
                return None
            header = entry
            continue
        kind = entry.get("type")
        if kind == "session_info":
            raw_name = entry.get("name")
            name = (js_trim(raw_name) or None) if isinstance(raw_name, str) else None
        if kind != "message":
            continue
        message_count += 1
        message = _conversation_message(entry)
        if message is None:
            continue
        activity = _activity_time(entry, message)
        if activity is not None:
            last_activity = max(last_activity or 0.0, activity)
        text_content = js_content_text(message["content"], " ")
        if not text_content:
            continue
        all_messages.append(text_content)
        if not first_message and message["role"] == "user":
            first_message = text_content
    if header is None:
        return None
    cwd = header.get("cwd")
    header_ms = date_parse_ms(header.get("timestamp"))
    if last_activity is not None and last_activity > 0:
        modified = ms_to_datetime(last_activity)
    elif not math.isnan(header_ms):
        modified = ms_to_datetime(header_ms)
    else:
        modified = ms_to_datetime(stats.st_mtime_ns / 1e6)
    parent = header.get("parentSession")
    return SessionInfo(
        path=path,
        id=header.get("id"),  # type: ignore[arg-type]
        cwd=cwd if isinstance(cwd, str) else "",
        name=name,
        parent_session_path=parent if isinstance(parent, str) else None,
        created=None if math.isnan(header_ms) else ms_to_datetime(header_ms),
        modified=modified,
        message_count=message_count,
        first_message=first_message or "(no messages)",
        all_messages_text=" ".join(all_messages),
    )


def sort_session_infos(sessions: list[SessionInfo]) -> list[SessionInfo]:
    """Newest ``modified`` first; the sort is stable, as JavaScript's is."""
    sessions.sort(key=lambda info: info.modified, reverse=True)
    return sessions
