"""``/api/drift``: why a file drifted, its ``.bak.<ts>`` backups, their diffs, and recovery.

A refused write saves the drifted text as a backup before refusing (the store does that), so
recovering means looking at the backups and putting entries back. This module only reads
backups — through the backend's ``list_backups``/``read_backup``, files or PostgreSQL alike —
and never deletes or changes one. Putting entries back is the store's
:meth:`~pi_memory.memory.MemoryStore.restore`: every entry is checked as an added one (scanner,
budget) in one locked write; on a drifted file the page asks for ``rebuild``, and the store first
saves the drifted text as one more backup, then rebuilds the file from the chosen entries.
"""

from __future__ import annotations

import difflib
import hashlib
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from pi_memory.memory import TARGETS, MemoryStore
from pi_memory.memory.backend import BackupInfo, RawText
from pi_memory.memory.entries import parse_entries, salvage_entries
from pi_memory.ui.api_memory import BadRequest, bad_request, json_body, read_raws, result_response, target_state
from pi_memory.ui.config import UiConfig

__all__ = ["backup_view", "diff_lines", "drift_state", "routes"]

#: Context lines around each change in a diff.
DIFF_CONTEXT = 2


class _Unavailable(Exception):
    """The backend cannot list or read backups right now (an unreachable database)."""


def _backups(store: MemoryStore, target: str) -> list[BackupInfo]:
    lister = getattr(store.backend, "list_backups", None)
    if not callable(lister):
        return []
    try:
        return list(lister(target))
    except Exception as exc:  # a backend boundary: PostgresUnavailable, a vanished directory
        raise _Unavailable(str(exc)) from exc


def _read_backup(store: MemoryStore, name: str) -> str | None:
    reader = getattr(store.backend, "read_backup", None)
    if not callable(reader):
        return None
    try:
        text = reader(name)
    except Exception as exc:
        raise _Unavailable(str(exc)) from exc
    return None if text is None else str(text)


def _backup_json(info: BackupInfo) -> dict[str, Any]:
    return {"name": info.name, "location": info.location, "created_at": info.created_at.isoformat(),
            "timestamp": int(info.created_at.timestamp()), "chars": info.chars}


def drift_state(config: UiConfig) -> dict[str, Any]:
    """``GET /api/drift``: each target's drift (reason, cause, fix) and its backups, newest first."""
    store = config.store()
    raws = read_raws(store)
    targets = []
    digest = hashlib.sha256()
    for target in TARGETS:
        state = target_state(store, target, raws[target])
        backups = _backups(store, target)
        state["backups"] = [_backup_json(info) for info in reversed(backups)]
        state["salvaged"] = salvage_entries(raws[target].text) if raws[target].readable else []
        targets.append(state)
        digest.update(repr((raws[target], [(b.location, b.chars) for b in backups])).encode("utf-8", "replace"))
    return {"success": True, "version": digest.hexdigest()[:16], "targets": targets}


def diff_lines(old: str, new: str, old_name: str, new_name: str) -> list[dict[str, str]]:
    """A unified line diff of ``old`` → ``new`` as ``{"kind", "text"}`` rows (kind: ``"del"``,
    ``"add"``, ``"ctx"``, ``"hunk"``, ``"file"``); the page shows each row as text."""
    rows: list[dict[str, str]] = []
    for line in difflib.unified_diff(old.splitlines(), new.splitlines(), old_name, new_name, lineterm="",
                                     n=DIFF_CONTEXT):
        if line.startswith(("---", "+++")):
            kind = "file"
        elif line.startswith("@@"):
            kind = "hunk"
        elif line.startswith("-"):
            kind = "del"
        elif line.startswith("+"):
            kind = "add"
        else:
            kind = "ctx"
        rows.append({"kind": kind, "text": line})
    return rows


def backup_view(config: UiConfig, target: str, name: str) -> dict[str, Any] | None:
    """One backup: its text, its entries (each marked present or not in the current file), and
    its diff against the current file. ``None`` when there is no such backup of ``target``."""
    store = config.store()
    infos = {info.name: info for info in _backups(store, target)}
    info = infos.get(name)
    if info is None:
        return None
    text = _read_backup(store, info.location)
    if text is None:
        return None
    raw: RawText = store.backend.read(target)
    current_text = raw.text if raw.readable else ""
    current = set(parse_entries(current_text))
    label = store.backend.label(target)
    return {"success": True, "target": target, **_backup_json(info), "text": text,
            "entries": [{"text": entry, "present": entry in current} for entry in salvage_entries(text)],
            "diff": diff_lines(text, current_text, name, f"{label} (now)"), "identical": text == current_text}


def routes(config: UiConfig) -> list[BaseRoute]:
    """The drift page's endpoints (mounted under ``/api``)."""

    async def state(request: Request) -> JSONResponse:
        try:
            return JSONResponse(await run_in_threadpool(drift_state, config))
        except _Unavailable as exc:
            return JSONResponse({"success": False, "error": f"backups cannot be listed: {exc}"}, status_code=503)

    async def backup(request: Request) -> JSONResponse:
        target, name = request.query_params.get("target", ""), request.query_params.get("name", "")
        if target not in TARGETS:
            return bad_request(BadRequest("target must be 'memory' or 'user'"))
        try:
            view = await run_in_threadpool(backup_view, config, target, name)
        except _Unavailable as exc:
            return JSONResponse({"success": False, "error": f"the backup cannot be read: {exc}"}, status_code=503)
        if view is None:
            return JSONResponse({"success": False, "error": f"there is no backup {name!r} of {target}"},
                                status_code=404)
        return JSONResponse(view)

    async def recover(request: Request) -> JSONResponse:
        try:
            body = await json_body(request, "target")
            entries = body.get("entries")
            if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries) or not entries:
                raise BadRequest("entries must be a non-empty list of strings")
        except BadRequest as exc:
            return bad_request(exc)
        store = config.store()
        result = await run_in_threadpool(store.restore, body["target"], entries, rebuild=body.get("rebuild") is True)
        return result_response(result)

    return [
        Route("/drift", state, methods=["GET"]),
        Route("/drift/backup", backup, methods=["GET"]),
        Route("/drift/recover", recover, methods=["POST"]),
    ]
