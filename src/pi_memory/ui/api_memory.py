"""``/api/memory``: both files with their usage and drift state, and the page's writes.

Writes are the store's own :meth:`~pi_memory.memory.MemoryStore.add`, ``replace`` and ``remove``
— the code path of the memory tools and the CLI, so the scanner, the budgets, the lock and the
drift guard apply unchanged and a refusal carries the tools' message. The answer is the store's
result as JSON: 200 when it succeeded, 503 when it is retryable (another writer holds the lock:
the page says "busy, retrying" and retries), 422 for any other refusal.

Changes made by another process show up through ``GET /api/memory/version``: a hash of both
files' stored text, which the page polls (every 1.5 s while it is visible) and reloads on change.
A poll rather than server-sent events: it costs two small reads, works the same on files and on
PostgreSQL (where there is no file to watch), needs no connection held open (so stopping the
server never waits for one), and survives a server restart.
"""

from __future__ import annotations

import hashlib
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from pi_memory.memory import TARGETS, MemoryStore
from pi_memory.memory.backend import RawText
from pi_memory.memory.entries import joined_length, parse_entries
from pi_memory.memory.snapshot import format_usage
from pi_memory.ui.config import UiConfig

__all__ = ["BadRequest", "bad_request", "json_body", "memory_state", "memory_version", "read_raws", "result_response",
           "routes", "scanner_findings", "target_state"]


class BadRequest(Exception):
    """A request the page would never send (a missing field, a wrong type): 400 with the reason."""


def memory_version(raws: dict[str, RawText]) -> str:
    """A short hash of what both targets hold now (changes whenever either file does)."""
    digest = hashlib.sha256()
    for target in TARGETS:
        raw = raws[target]
        data = raw.invalid if raw.invalid is not None else raw.text.encode("utf-8", "surrogatepass")
        digest.update(f"{target}:{raw.exists}:{raw.error}:{len(data)}:".encode())
        digest.update(data)
    return digest.hexdigest()[:16]


def read_raws(store: MemoryStore) -> dict[str, RawText]:
    """Both targets' stored text, read without the lock (writers replace content atomically)."""
    return {target: store.backend.read(target) for target in TARGETS}


def backend_kind(store: MemoryStore) -> str:
    """``"file"`` or ``"postgres"`` (or the backend's class name for any other)."""
    if store.dir is not None:
        return "file"
    name = type(store.backend).__name__.removesuffix("Backend").lower()
    return name or "custom"


def target_state(store: MemoryStore, target: str, raw: RawText) -> dict[str, Any]:
    """One target as the page shows it: entries, usage, and whether writes are refused and why."""
    location = store.backend.location(target)
    limit = store.char_limit(target)
    entries = parse_entries(raw.text) if raw.readable else []
    chars = joined_length(entries)
    state: dict[str, Any] = {
        "target": target, "label": store.backend.label(target), "location": location,
        "entries": entries, "chars": chars, "limit": limit,
        "percent": min(100, chars * 100 // limit) if limit > 0 else 0,
        "usage": format_usage(chars, limit), "exists": raw.exists,
        "state": "ok" if raw.exists else "missing", "drift": None, "error": None,
    }
    if not raw.readable:
        state.update(state="unreadable", error=raw.error)
        return state
    drift = store.drift(target, raw)
    if drift is not None:
        state.update(state="drift", drift={"reason": drift.reason, "cause": drift.cause,
                                           "fix": drift.next_step(location)})
    return state


def memory_state(config: UiConfig) -> dict[str, Any]:
    """``GET /api/memory``: both targets, the backend, and the version the page polls against."""
    from pi_memory.backends import describe_store

    store = config.store()
    raws = read_raws(store)
    return {"success": True, "backend": backend_kind(store), "where": describe_store(store),
            "version": memory_version(raws), "targets": [target_state(store, t, raws[t]) for t in TARGETS]}


def scanner_findings(text: str) -> list[dict[str, Any]]:
    """What the threat scanner found in ``text`` (as the store trimmed it), for a person reading a
    refusal: each rule id, its category, the intent layer's evidence, and — where the match offsets
    index the text itself (plain ASCII) — the words that matched. The tools' message names only
    the rule, on purpose (a model is not shown the payload again); the page's reader wrote it."""
    from pi_memory.base.js import js_trim
    from pi_memory.security.threats import scan

    content = js_trim(text)
    found = []
    for finding in scan(content, "strict"):
        item: dict[str, Any] = {"id": finding.id, "category": finding.category, "evidence": list(finding.evidence)}
        if finding.view in ("raw", "text") and content.isascii() and 0 <= finding.start < finding.end <= len(content):
            item["excerpt"] = content[finding.start:finding.end]
        found.append(item)
    return found


def _blocked(result: dict[str, Any]) -> bool:
    return result.get("success") is False and str(result.get("error", "")).startswith("Blocked")


def result_response(result: dict[str, Any], **extra: Any) -> JSONResponse:
    """A store result as the page's answer: 200 success, 503 retryable (busy), 422 refused."""
    status = 200 if result.get("success") is True else 503 if result.get("retryable") else 422
    return JSONResponse({**result, **extra}, status_code=status)


async def json_body(request: Request, *fields: str) -> dict[str, Any]:
    """The request's JSON object, with each of ``fields`` present as a string (else BadRequest)."""
    try:
        body = await request.json()
    except ValueError:
        raise BadRequest("the request body must be JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    for name in fields:
        if not isinstance(body.get(name), str):
            raise BadRequest(f"{name!r} must be a string")
    if "target" in fields and body["target"] not in TARGETS:
        raise BadRequest("target must be 'memory' or 'user'")
    return body


def bad_request(exc: BadRequest) -> JSONResponse:
    return JSONResponse({"success": False, "error": str(exc)}, status_code=400)


def routes(config: UiConfig) -> list[BaseRoute]:
    """The memory page's endpoints (mounted under ``/api``)."""

    async def state(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(memory_state, config))

    async def version(request: Request) -> JSONResponse:
        raws = await run_in_threadpool(read_raws, config.store())
        return JSONResponse({"success": True, "version": memory_version(raws)})

    async def write(request: Request, method: str, fields: tuple[str, ...], scanned: str | None) -> JSONResponse:
        """One write from the page: the store's own ``method`` with the body's ``fields`` (the
        tools' rules); a blocked write also names the scanner's findings on ``scanned``."""
        try:
            body = await json_body(request, *fields)
        except BadRequest as exc:
            return bad_request(exc)
        operation = getattr(config.store(), method)
        result = await run_in_threadpool(operation, *(body[name] for name in fields))
        if scanned is not None and _blocked(result):
            result["findings"] = scanner_findings(body[scanned])
        return result_response(result)

    async def add(request: Request) -> JSONResponse:
        return await write(request, "add", ("target", "content"), "content")

    async def replace(request: Request) -> JSONResponse:
        return await write(request, "replace", ("target", "old", "new"), "new")

    async def remove(request: Request) -> JSONResponse:
        return await write(request, "remove", ("target", "old"), None)

    return [
        Route("/memory", state, methods=["GET"]),
        Route("/memory/version", version, methods=["GET"]),
        Route("/memory/add", add, methods=["POST"]),
        Route("/memory/replace", replace, methods=["POST"]),
        Route("/memory/remove", remove, methods=["POST"]),
    ]
