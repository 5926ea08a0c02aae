"""Session discovery and listing metadata, following pi 1.6.0 (``list``, ``listAll``, ``--continue``).

Listing reads each file line by line and never writes; unreadable files and files whose first
parsed line is not a header are not sessions and are left out, as in pi.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from pi_memory.base.js import date_parse_ms, is_js_number, js_trim, js_truthy, ms_to_datetime

from .store import HeaderScanLimitError, _parse_line, read_session_header

__all__ = ["SessionInfo", "build_session_info", "find_most_recent_session", "list_sessions_in_dir"]

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


def _activity_time(entry: dict[str, Any]) -> float | None:
    message = entry.get("message")
    if not isinstance(message, dict) or not isinstance(message.get("role"), str) or "content" not in message:
        return None
    if message["role"] not in ("user", "assistant"):
        return None
    stamp: Any = message.get("timestamp")
    if is_js_number(stamp):
        return float(stamp)
    ms = date_parse_ms(entry.get("timestamp"))
    return None if math.isnan(ms) else ms


def _text_content(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts: list[str] = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "text":
            text = block.get("text")
            parts.append(text if isinstance(text, str) else "" if text is None else str(text))
    return " ".join(parts)


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
        entry, error = _parse_line(line, 0, len(line))
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
        activity = _activity_time(entry)
        if activity is not None:
            last_activity = max(last_activity or 0.0, activity)
        message = entry.get("message")
        if not isinstance(message, dict) or not isinstance(message.get("role"), str) or "content" not in message:
            continue
        if message["role"] not in ("user", "assistant"):
            continue
        text_content = _text_content(message["content"])
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


def list_sessions_in_dir(directory: str) -> list[SessionInfo]:
    """Every session file in one directory, newest first."""
    try:
        names = [name for name in os.listdir(directory) if name.endswith(".jsonl")]
    except OSError:
        return []
    names.sort(reverse=True)
    infos = [build_session_info(os.path.join(directory, name)) for name in names]
    return sort_session_infos([info for info in infos if info is not None])


def read_header_for_discovery(path: str) -> dict[str, Any] | None:
    """Best effort: unreadable or oversized files are simply not sessions."""
    try:
        return read_session_header(path)
    except (OSError, HeaderScanLimitError):
        return None


def find_most_recent_session(directory: str, cwd_filter: str | None = None) -> str | None:
    """The ``*.jsonl`` with the newest mtime whose first parsed line is a header (``--continue``).

    ``cwd_filter`` (already resolved) keeps only sessions whose header ``cwd`` resolves to it.
    """
    from .paths import resolve_path

    try:
        names = [name for name in os.listdir(directory) if name.endswith(".jsonl")]
        files = [(os.stat(os.path.join(directory, n)).st_mtime_ns, os.path.join(directory, n)) for n in names]
    except OSError:
        return None
    files.sort(key=lambda item: item[0], reverse=True)
    for _, path in files:
        header = read_header_for_discovery(path)
        if header is None:
            continue
        if cwd_filter is not None:
            header_cwd = header.get("cwd")
            if not isinstance(header_cwd, str) or not header_cwd or resolve_path(header_cwd) != cwd_filter:
                continue
        return path
    return None
