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
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pi_memory.base import content_text

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import BaseRoute

    from pi_memory.session import Entry, SessionInfo
    from pi_memory.session.discovery import SessionFile

__all__ = ["SessionNotFound", "find_session_file", "list_projects", "list_sessions", "message_context", "routes",
           "session_tree"]

TEXT_CAP = 2000
"""Characters of an entry's text the tree carries; the context view has the whole message."""
PAGE_SIZE = 50
MAX_PAGE = 200


class SessionNotFound(LookupError):
    """No session (or no entry) with that id; the message says which (a 404 for the page)."""


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


# --- one session ---------------------------------------------------------------------------------


@dataclass
class _Loaded:
    path: str
    header: Entry
    entries: list[Entry]
    damaged: int


def _load(path: str) -> _Loaded:
    """The session's records, migrated in memory if old; the file is left as it is."""
    from pi_memory.session import load_records, migrate_to_current_version

    loaded = load_records(path)
    if not loaded.valid:
        raise SessionNotFound(f"{path} is not a session file")
    records = [dict(r) for r in loaded.records]
    migrate_to_current_version(records)
    header, *entries = records
    return _Loaded(path, header, entries, len(loaded.damaged))


def _clip(text: str, cap: int = TEXT_CAP) -> tuple[str, int]:
    return (text, 0) if len(text) <= cap else (text[:cap], len(text) - cap)


def _tool_calls(content: Any) -> list[dict[str, Any]]:
    import json

    calls = []
    for block in content if isinstance(content, list) else []:
        if isinstance(block, Mapping) and block.get("type") == "toolCall":
            arguments = block.get("arguments")
            calls.append({"name": str(block.get("name", "")),
                          "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments,
                                                                                               ensure_ascii=False)})
    return calls


def _describe(entry: Mapping[str, Any]) -> dict[str, Any]:
    """What the tree shows of one entry: its kind, the text a person reads, and its links."""
    from pi_memory.extensions.memory.snapshot import SNAPSHOT_TYPE
    from pi_memory.session.messages import bash_execution_to_text

    kind = entry.get("type")
    node: dict[str, Any] = {"id": entry.get("id"), "parentId": entry.get("parentId"), "type": kind,
                            "timestamp": entry.get("timestamp")}
    text = ""
    if kind == "message" and isinstance(entry.get("message"), Mapping):
        message = entry["message"]
        node["role"] = message.get("role")
        if message.get("role") == "bashExecution":
            text = bash_execution_to_text(message)
        else:
            text = content_text(message.get("content"))
        for key in ("toolName", "model", "provider", "stopReason", "customType"):
            if isinstance(message.get(key), str):
                node[key] = message[key]
        if message.get("isError") is True:
            node["isError"] = True
        calls = _tool_calls(message.get("content"))
        if calls:
            node["toolCalls"] = calls
    elif kind == "custom":
        node["customType"] = entry.get("customType")
        data = entry.get("data")
        if entry.get("customType") == SNAPSHOT_TYPE and isinstance(data, Mapping):
            node["snapshot"] = True
            text = str(data.get("snapshot", ""))
        elif data is not None:
            import json

            text = json.dumps(data, ensure_ascii=False)
    elif kind == "custom_message":
        node["customType"] = entry.get("customType")
        node["display"] = entry.get("display")
        text = content_text(entry.get("content"))
    elif kind == "compaction":
        text = str(entry.get("summary", ""))
        node["firstKeptEntryId"] = entry.get("firstKeptEntryId")
        node["tokensBefore"] = entry.get("tokensBefore")
    elif kind == "branch_summary":
        text = str(entry.get("summary", ""))
        node["fromId"] = entry.get("fromId")
    elif kind == "label":
        node["targetId"] = entry.get("targetId")
        text = str(entry.get("label") or "")
    elif kind == "session_info":
        text = str(entry.get("name") or "")
    elif kind == "model_change":
        text = f"{entry.get('provider')}/{entry.get('modelId')}"
    elif kind == "thinking_level_change":
        text = str(entry.get("thinkingLevel"))
    elif kind == "context_edit":
        node["targetId"] = entry.get("targetId")
        replacement = entry.get("replacement")
        text = "(hidden)" if replacement is None else content_text(
            replacement.get("content") if isinstance(replacement, Mapping) else None)
    node["text"], clipped = _clip(text)
    if clipped:
        node["clipped"] = clipped
    return node


def session_tree(path: str) -> dict[str, Any]:
    """The session as pi's ``/tree`` draws it: entries in depth-first order (children oldest
    first), ``depth`` growing only at a branch point, each with its label, its kind and whether
    it is on the current branch (the path to the leaf, the last entry in file order)."""
    from pi_memory.session.context import build_session_path
    from pi_memory.session.listing import build_session_info
    from pi_memory.session.records import latest_name
    from pi_memory.session.tree import build_tree, index_entries

    loaded = _load(path)
    index = index_entries(loaded.entries)
    roots = build_tree(loaded.entries, index.labels, index.label_timestamps)
    on_leaf = {id(e) for e in build_session_path(loaded.entries, index.leaf_id, index.by_id)}
    nodes: list[dict[str, Any]] = []
    # iterative: a linear session of thousands of entries would overflow a recursive walk
    stack: list[tuple[Any, int, bool]] = [(root, 0, len(roots) > 1) for root in reversed(roots)]
    while stack:
        node, depth, starts_branch = stack.pop()
        item = _describe(node.entry)
        item["depth"] = depth
        if starts_branch:
            item["branchStart"] = True
        if node.label is not None:
            item["label"] = node.label
        item["children"] = len(node.children)
        item["onLeafPath"] = id(node.entry) in on_leaf
        nodes.append(item)
        forks = len(node.children) > 1
        for child in reversed(node.children):
            stack.append((child, depth + 1 if forks else depth, forks))
    info = build_session_info(path)
    header = loaded.header
    return {
        "id": header.get("id"),
        "path": path,
        "cwd": header.get("cwd"),
        "version": header.get("version"),
        "parentSession": header.get("parentSession"),
        "name": latest_name(loaded.entries),
        "created": header.get("timestamp"),
        "messageCount": info.message_count if info else None,
        "leafId": index.leaf_id,
        "branchPoints": sum(1 for n in nodes if n["children"] > 1),
        "damagedLines": loaded.damaged,
        "entries": nodes,
    }


class _Branch:
    """The reading half of a session manager over loaded entries, for the snapshot lookup."""

    def __init__(self, entries: list[Entry], path: list[Entry]) -> None:
        self._entries, self._path = entries, path

    def get_branch(self, from_id: str | None = None) -> list[Any]:
        return list(self._path)

    def get_entries(self) -> list[Any]:
        return list(self._entries)


def _blocks(content: Any) -> list[dict[str, Any]]:
    """A message's content as display blocks: text, thinking, tool calls, images (as a marker)."""
    import json

    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    blocks = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, Mapping):
            continue
        kind = block.get("type")
        if kind == "text":
            blocks.append({"type": "text", "text": str(block.get("text", ""))})
        elif kind == "thinking":
            blocks.append({"type": "thinking", "text": str(block.get("thinking", ""))})
        elif kind == "toolCall":
            arguments = block.get("arguments")
            blocks.append({"type": "toolCall", "name": str(block.get("name", "")),
                           "text": arguments if isinstance(arguments, str) else json.dumps(arguments,
                                                                                          ensure_ascii=False)})
        elif kind == "image":
            blocks.append({"type": "image", "text": f"[image {block.get('mimeType', '')}]"})
    return blocks


def message_context(path: str, entry_id: str) -> dict[str, Any]:
    """The context the model was given at ``entry_id``: pi's ``buildSessionContext`` from that
    point, converted as pi converts it for the LLM (custom, summaries and bash become user
    messages), with the frozen memory snapshot that branch's system prompt carried.

    For an assistant message the context ends before it (what the model saw when it wrote it);
    for anything else it ends with the entry itself.
    """
    from pi_memory.extensions.memory.snapshot import saved_snapshot
    from pi_memory.session import build_session_context, convert_to_llm, get_current_system_message
    from pi_memory.session.context import build_session_path

    loaded = _load(path)
    entry = next((e for e in loaded.entries if e.get("id") == entry_id), None)
    if entry is None:
        raise SessionNotFound(f"no entry {entry_id!r} in session {loaded.header.get('id')!r}")
    message = entry.get("message")
    reply = entry.get("type") == "message" and isinstance(message, Mapping) and message.get("role") == "assistant"
    leaf = entry.get("parentId") if reply else entry_id
    context = build_session_context(loaded.entries, leaf)
    path_entries = build_session_path(loaded.entries, leaf) if leaf else []
    session_id = str(loaded.header.get("id"))
    snapshot = saved_snapshot(_Branch(loaded.entries, path_entries), session_id)
    system = get_current_system_message(context.messages)
    messages = []
    for llm in convert_to_llm(context.messages):
        if llm.get("role") == "system":
            continue
        item: dict[str, Any] = {"role": llm.get("role"), "blocks": _blocks(llm.get("content"))}
        for key in ("toolName", "toolCallId", "model"):
            if isinstance(llm.get(key), str):
                item[key] = llm[key]
        if llm.get("isError") is True:
            item["isError"] = True
        messages.append(item)
    return {
        "sessionId": session_id,
        "entryId": entry_id,
        "leafId": leaf,
        "reply": _blocks(message.get("content")) if reply and isinstance(message, Mapping) else None,
        "thinkingLevel": context.thinking_level,
        "model": context.model,
        "memorySnapshot": snapshot,
        "systemMessage": None if system is None else content_text(system.get("content")),
        "messages": messages,
    }


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
