"""Finding sessions on disk, following pi 1.6.0 (``list``, ``listAll``, ``findById``, ``--continue``).

A session directory is ``<agentDir>/sessions/--<cwd>--`` unless the caller names one. A named
directory that is not the cwd's own may hold other projects' sessions (pi's ``--session-dir``),
so there only sessions whose header ``cwd`` resolves to this cwd count. Discovery reads, never
writes: unreadable files and files whose first parsed line is not a header are not sessions.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from dataclasses import dataclass

from .entries import Entry
from .listing import SessionInfo, build_session_info, sort_session_infos
from .paths import get_default_session_dir, get_default_session_dir_path, get_sessions_dir, normalize_path, resolve_path
from .store import HeaderScanLimitError, load_records, read_session_header

__all__ = [
    "SessionFile",
    "SessionScope",
    "find_most_recent_session",
    "find_session_by_id",
    "list_all_sessions",
    "list_sessions",
    "list_sessions_in_dir",
    "project_directories",
    "read_header",
    "read_header_for_discovery",
    "session_directory",
    "session_files",
    "session_scope",
]


def session_directory(cwd: str, session_dir: str | None) -> str:
    """``session_dir`` (``~`` expanded), else ``cwd``'s default directory, created if missing."""
    return normalize_path(session_dir) if session_dir else get_default_session_dir(cwd)


@dataclass(frozen=True, slots=True)
class SessionScope:
    """Where ``cwd``'s sessions are, and which of the sessions there are ``cwd``'s."""

    directory: str
    cwd_filter: str | None
    """The resolved cwd a header's ``cwd`` must resolve to; None when every session there counts
    (the directory is the cwd's default one)."""

    def includes(self, header_cwd: object) -> bool:
        """Whether a session whose header holds ``header_cwd`` belongs to this scope."""
        if self.cwd_filter is None:
            return True
        return isinstance(header_cwd, str) and bool(header_cwd) and resolve_path(header_cwd) == self.cwd_filter


def session_scope(cwd: str, session_dir: str | None) -> SessionScope:
    """pi's ``dir`` + ``filterCwd``: a named directory other than the default filters by cwd."""
    directory = session_directory(cwd, session_dir)
    filtered = session_dir is not None and resolve_path(directory) != get_default_session_dir_path(cwd)
    return SessionScope(directory, resolve_path(cwd) if filtered else None)


def read_header(path: str) -> Entry | None:
    """The header of a session file if its first readable line is one (no full read)."""
    try:
        return read_session_header(path)
    except HeaderScanLimitError:
        loaded = load_records(path)
        return loaded.records[0] if loaded.valid else None


def read_header_for_discovery(path: str) -> Entry | None:
    """Best effort: unreadable or oversized files are simply not sessions."""
    try:
        return read_session_header(path)
    except (OSError, HeaderScanLimitError):
        return None


def _jsonl_names(directory: str) -> list[str] | None:
    try:
        return [name for name in os.listdir(directory) if name.endswith(".jsonl")]
    except OSError:
        return None


def find_most_recent_session(directory: str, cwd_filter: str | None = None) -> str | None:
    """The ``*.jsonl`` with the newest mtime whose first parsed line is a header (``--continue``).

    ``cwd_filter`` (already resolved) keeps only sessions whose header ``cwd`` resolves to it.
    """
    scope = SessionScope(directory, cwd_filter)
    try:
        names = os.listdir(directory)
        files = [(os.stat(os.path.join(directory, n)).st_mtime_ns, os.path.join(directory, n))
                 for n in names if n.endswith(".jsonl")]
    except OSError:
        return None
    files.sort(key=lambda item: item[0], reverse=True)
    for _, path in files:
        header = read_header_for_discovery(path)
        if header is not None and scope.includes(header.get("cwd")):
            return path
    return None


def find_session_by_id(cwd: str, session_id: str, session_dir: str | None = None) -> str | None:
    """Path of the session with exactly this id in ``cwd``'s scope, reading headers only."""
    scope = session_scope(cwd, session_dir)
    for name in _jsonl_names(scope.directory) or []:
        path = os.path.join(scope.directory, name)
        header = read_header_for_discovery(path)
        if header is not None and header.get("id") == session_id and scope.includes(header.get("cwd")):
            return path
    return None


def list_sessions_in_dir(directory: str) -> list[SessionInfo]:
    """Every session file in one directory, newest first."""
    names = _jsonl_names(directory)
    if names is None:
        return []
    names.sort(reverse=True)
    infos = [build_session_info(os.path.join(directory, name)) for name in names]
    return sort_session_infos([info for info in infos if info is not None])


def list_sessions(cwd: str, session_dir: str | None = None) -> list[SessionInfo]:
    """Sessions of ``cwd`` (its default directory, or ``session_dir``), newest first."""
    scope = session_scope(cwd, session_dir)
    return [info for info in list_sessions_in_dir(scope.directory) if scope.includes(info.cwd)]


@dataclass(frozen=True, slots=True)
class SessionFile:
    """A ``*.jsonl`` file found in a session directory, before it is read."""

    path: str
    name: str
    directory: str
    mtime_ms: float
    """Modification time in Unix ms; ``-inf`` when it could not be read (the file sorts last)."""


def project_directories(root: str | None = None) -> list[str]:
    """The per-project directories under ``root`` (default ``<agentDir>/sessions``)."""
    try:
        return [entry.path for entry in os.scandir(root or get_sessions_dir()) if entry.is_dir() or entry.is_symlink()]
    except OSError:
        return []


def session_files(directories: Iterable[str]) -> list[SessionFile]:
    """The ``*.jsonl`` files of ``directories``, newest modification first, then by name — the
    order pi's ``listAll`` reads them in. Only the directories are read, never a file, so a
    picker can order thousands of sessions and read just the ones it shows."""
    candidates: list[SessionFile] = []
    for directory in directories:
        for name in _jsonl_names(directory) or []:
            path = os.path.join(directory, name)
            try:
                mtime = os.stat(path).st_mtime_ns / 1e6
            except OSError:
                mtime = -math.inf
            candidates.append(SessionFile(path, name, directory, mtime))
    candidates.sort(key=lambda item: (item.mtime_ms, item.name), reverse=True)
    return candidates


def list_all_sessions(session_dir: str | None = None) -> list[SessionInfo]:
    """Every session under ``<agentDir>/sessions`` (or only ``session_dir``), newest first."""
    if session_dir:
        return list_sessions_in_dir(normalize_path(session_dir))
    infos = [build_session_info(file.path) for file in session_files(project_directories())]
    return sort_session_infos([info for info in infos if info is not None])
