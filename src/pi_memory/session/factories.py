"""Where a :class:`~pi_memory.session.manager.SessionManager` is made: the working directory, the
session directory and file, and what is already loaded, worked out from the arguments of pi's
static factories (``create``, ``open``, ``continueRecent``, ``inMemory``).

Each function returns the manager's constructor arguments (a :class:`Placement`); the manager's
static methods pass them straight on, so the tree itself never decides where it lives.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypedDict

from .discovery import find_most_recent_session, session_directory, session_scope
from .entries import Entry
from .paths import normalize_path, resolve_path
from .store import LoadResult, load_records

__all__ = ["Placement", "created", "in_memory", "opened", "recent"]


class Placement(TypedDict, total=False):
    """The :class:`SessionManager` constructor's arguments."""

    cwd: str
    session_dir: str
    session_file: str | None
    persist: bool
    id: str | None
    parent_session: str | None
    preloaded: LoadResult | None
    preloaded_entries: Sequence[Entry] | None


def created(cwd: str, session_dir: str | None, *, id: str | None, parent_session: str | None) -> Placement:
    """A new session for ``cwd`` in ``session_dir`` (default ``<agentDir>/sessions/--<cwd>--``)."""
    return Placement(cwd=cwd, session_dir=session_directory(cwd, session_dir), session_file=None, persist=True,
                     id=id, parent_session=parent_session)


def opened(path: str, session_dir: str | None, cwd_override: str | None) -> Placement:
    """The file at ``path``, read once here: its header's cwd unless ``cwd_override`` is given (else
    the process's cwd), and ``session_dir`` defaulting to the file's directory."""
    resolved = resolve_path(path)
    preloaded: LoadResult | None = None
    header: Entry | None = None
    if os.path.exists(resolved):
        preloaded = load_records(resolved)
        if preloaded.valid:
            header = preloaded.records[0]
    header_cwd = header.get("cwd") if header is not None else None
    if cwd_override is not None:
        cwd = cwd_override
    elif isinstance(header_cwd, str):
        cwd = header_cwd
    else:
        cwd = os.getcwd()
    directory = normalize_path(session_dir) if session_dir else os.path.dirname(resolved)
    return Placement(cwd=cwd, session_dir=directory, session_file=resolved, persist=True, preloaded=preloaded)


def recent(cwd: str, session_dir: str | None) -> Placement:
    """The most recently modified session of ``cwd``, or a new one (``pi --continue``)."""
    scope = session_scope(cwd, session_dir)
    return Placement(cwd=cwd, session_dir=scope.directory, persist=True,
                     session_file=find_most_recent_session(scope.directory, scope.cwd_filter))


def in_memory(cwd: str | None, *, id: str | None, parent_session: str | None,
              entries: Sequence[Entry] | None) -> Placement:
    """A session never written to disk (``pi --no-session``), optionally preloaded with ``entries``."""
    return Placement(cwd=cwd if cwd is not None else os.getcwd(), session_dir="", session_file=None, persist=False,
                     id=id, parent_session=parent_session, preloaded_entries=entries)
