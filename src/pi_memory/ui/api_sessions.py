"""The Sessions page's data: projects and their sessions (pi's ``/resume``), a session's tree,
and one message's context as the model saw it.

Everything is read with the session package's readers and nothing is ever written: no sidecar,
no migration, no repair (a v1/v2 file is migrated in memory only, as dreaming reads it).

Listing must stay fast with thousands of sessions, and pi's :class:`SessionInfo` needs the whole
file (message count, first message, latest activity). So a listing orders the files by what the
file system knows — :func:`pi_memory.session.discovery.session_files`: modification time, newest
first, then name, the order pi's ``listAll`` reads them in — and builds pi's ``SessionInfo`` only
for the page it returns. For an
append-only session file the mtime is its last write, so the order is pi's own except where a
file was last touched by an entry that is not a message (a label, a rename).
"""

from __future__ import annotations

import os
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .session_view import SessionNotFound, message_context, session_tree

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import BaseRoute

    from pi_memory.session import Entry, SessionInfo
    from pi_memory.session.discovery import SessionFile

__all__ = ["SessionNotFound", "find_session_file", "list_projects", "list_sessions", "message_context", "routes",
           "session_tree"]

PAGE_SIZE = 50
MAX_PAGE = 200


def _iso(ms: float) -> str | None:
    from pi_memory.base.js import ms_to_datetime

    if ms == float("-inf"):
        return None
    return ms_to_datetime(ms).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _files(root: str, project: str | None) -> list[SessionFile]:
    """The session files of one project directory under ``root``, or of all (no file is read)."""
    from pi_memory.session.discovery import project_directories, session_files

    if project is None:
        return session_files(project_directories(root))
    _check_project(project)
    directory = os.path.join(root, project)
    if not os.path.isdir(directory):
        raise SessionNotFound(f"no project {project!r} under {root}")
    return session_files([directory])


def _when(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def list_projects(root: str, current_cwd: str | None = None) -> dict[str, Any]:
    """Every project directory under the sessions root (``--<cwd>--``), newest activity first.

    A project's ``cwd`` is read from the header of its newest session (the directory name is a
    lossy encoding). ``current`` is the directory of ``current_cwd``, the project ``/resume``
    shows first.
    """
    from pi_memory.session import read_header
    from pi_memory.session.discovery import project_directories, session_files
    from pi_memory.session.paths import encode_cwd, resolve_path

    found: list[tuple[float, dict[str, Any]]] = []
    for directory in project_directories(root):
        files = session_files([directory])
        if not files:
            continue
        cwd: str | None = None
        for file in files[:5]:  # the newest readable header names the project
            header = _header(file.path, read_header)
            if header is not None:
                cwd = header.get("cwd") if isinstance(header.get("cwd"), str) else None
                break
        found.append((files[0].mtime_ms, {"id": os.path.basename(directory), "cwd": cwd, "sessions": len(files),
                                          "modified": _iso(files[0].mtime_ms)}))
    found.sort(key=lambda pair: pair[0], reverse=True)
    projects = [project for _, project in found]
    current = encode_cwd(resolve_path(current_cwd)) if current_cwd else None
    return {"root": root, "current": current, "projects": projects}


def _header(path: str, reader: Any) -> Entry | None:
    try:
        header: Entry | None = reader(path)
    except (OSError, ValueError):
        return None
    return header


def _info_json(info: SessionInfo, project: str) -> dict[str, Any]:
    first = info.first_message
    return {
        "id": info.id,
        "project": project,
        "path": info.path,
        "cwd": info.cwd,
        "name": info.name,
        "parentSession": info.parent_session_path,
        "created": None if info.created is None else _when(info.created),
        "modified": _when(info.modified),
        "messageCount": info.message_count,
        "firstMessage": first if len(first) <= 300 else first[:300] + " …",
    }


def _check_project(project: str) -> None:
    if not project or project in (".", "..") or "/" in project or "\\" in project or "\0" in project:
        raise SessionNotFound(f"no project {project!r}")


def list_sessions(root: str, project: str | None = None, *, offset: int = 0, limit: int = PAGE_SIZE) -> dict[str, Any]:
    """One page of sessions, newest first: of ``project`` (a directory under ``root``), or of
    every project when it is None (``/resume``'s "all" scope). Only the page's files are read."""
    from pi_memory.session.listing import build_session_info

    ordered = _files(root, project)
    offset = max(0, offset)
    limit = max(1, min(MAX_PAGE, limit))
    page = ordered[offset : offset + limit]
    sessions = []
    for file in page:
        info = build_session_info(file.path)
        if info is not None:  # not a session (no header): pi's picker leaves it out too
            sessions.append(_info_json(info, os.path.basename(file.directory)))
    return {"project": project, "total": len(ordered), "offset": offset, "limit": limit, "sessions": sessions}


def find_session_file(root: str, session_id: str) -> str:
    """The file of the session ``session_id`` under ``root``.

    pi names files ``<timestamp>_<sessionId>.jsonl``, so the name finds it without reading; the
    header must then carry that id. A renamed file is found by reading headers (slower, rare).
    """
    from pi_memory.session import read_header

    if not session_id or "/" in session_id or "\\" in session_id or "\0" in session_id:
        raise SessionNotFound(f"no session {session_id!r}")
    files = _files(root, None)
    suffix = f"_{session_id}.jsonl"
    by_name = [f for f in files if f.name.endswith(suffix)]
    for file in [*by_name, *(f for f in files if f not in by_name)]:
        header = _header(file.path, read_header)
        if header is not None and header.get("id") == session_id:
            return file.path
    raise SessionNotFound(f"no session {session_id!r} under {root}")


# --- HTTP --------------------------------------------------------------------------------------


def _page_number(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    try:
        return default if raw in (None, "") else int(str(raw))
    except ValueError:
        raise ValueError(f"{name} must be a whole number, got {raw!r}") from None


def routes(config: Any) -> list[BaseRoute]:
    """``GET /sessions/projects``, ``GET /sessions?project=&offset=&limit=``,
    ``GET /sessions/{id}`` (the tree) and ``GET /sessions/{id}/context/{entry}`` (under ``/api``)."""
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    def root() -> str:
        return str(config.sessions_dir)

    def failed(exc: Exception) -> JSONResponse:
        status = 404 if isinstance(exc, SessionNotFound) else 400
        return JSONResponse({"error": str(exc)}, status_code=status)

    async def projects(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(list_projects, root(), str(config.cwd)))

    async def sessions(request: Request) -> Response:
        try:
            offset = _page_number(request, "offset", 0)
            limit = _page_number(request, "limit", PAGE_SIZE)
            project = request.query_params.get("project") or None
            return JSONResponse(await run_in_threadpool(
                lambda: list_sessions(root(), None if project == "all" else project, offset=offset, limit=limit)))
        except (SessionNotFound, ValueError) as exc:
            return failed(exc)

    async def tree(request: Request) -> Response:
        try:
            path = await run_in_threadpool(find_session_file, root(), request.path_params["session_id"])
            return JSONResponse(await run_in_threadpool(session_tree, path))
        except SessionNotFound as exc:
            return failed(exc)

    async def context(request: Request) -> Response:
        try:
            path = await run_in_threadpool(find_session_file, root(), request.path_params["session_id"])
            return JSONResponse(await run_in_threadpool(message_context, path, request.path_params["entry_id"]))
        except SessionNotFound as exc:
            return failed(exc)

    return [
        Route("/sessions/projects", projects, methods=["GET"]),
        Route("/sessions", sessions, methods=["GET"]),
        Route("/sessions/{session_id}", tree, methods=["GET"]),
        Route("/sessions/{session_id}/context/{entry_id}", context, methods=["GET"]),
    ]
