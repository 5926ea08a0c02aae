"""The Recall page's data: the search ``search_memory`` runs, and ``get_important_memories``' ranking.

Both go through the same :class:`~pi_memory.recall.RecallService` the agent extensions share
(:mod:`pi_memory.extensions.recall.shared`), so the page shows what the model would get: the
same filters, the same hybrid order, and a message the threat scanner flags withheld as
``[BLOCKED: …]`` with the pattern ids (the page never receives its text). Two differences, on
purpose: a search from the page does not count as an access (a person browsing is not the agent
recalling, and accesses raise the decay weights), and each hit also carries what the page needs to
link it into its session (the entry id and the session file the index recorded).

Reads create nothing: a SQLite index that does not exist yet is reported as empty.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pi_memory.backends import redact
from pi_memory.recall.backfill import INDEXED_ROLES

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import BaseRoute

    from pi_memory.extensions.recall.settings import RecallSettings
    from pi_memory.recall import Hit, ImportantMemory, RecallService

__all__ = ["ROLES", "RecallAccess", "important_memories", "routes", "search"]

ROLES = INDEXED_ROLES
"""The roles recall indexes (the role filter's choices)."""
MAX_TOP_K = 50
"""As ``search_memory``'s ``topK``."""
MAX_LIMIT = 100
"""As ``get_important_memories``' ``limit``."""


class RecallQueryError(ValueError):
    """A filter the page sent cannot be used; the message names it (a 400 for the page)."""


class RecallAccess:
    """The shared recall service for the configured index, opened on first use.

    ``service()`` is None while a local SQLite index does not exist (the page then shows an empty
    index instead of creating the file). ``close()`` gives the service back.
    """

    def __init__(self, settings: RecallSettings) -> None:
        self.settings = settings
        self._service: RecallService | None = None
        self._lock = threading.Lock()

    @property
    def location(self) -> str:
        """The index's URL or path, without a password."""
        return redact(self.settings.location, self.settings.location)

    def missing(self) -> bool:
        """True when the index is a local file that is not there yet."""
        target = self.settings.location
        if "://" in target and not target.startswith("sqlite:///"):
            return False
        return not Path(target.removeprefix("sqlite://")).expanduser().exists()

    def service(self) -> RecallService | None:
        from pi_memory.extensions.recall.shared import acquire

        with self._lock:
            if self._service is None and not self.missing():
                self._service = acquire(self.settings)
            return self._service

    def close(self) -> None:
        from pi_memory.extensions.recall.shared import release

        with self._lock:
            if self._service is not None:
                release(self._service)
                self._service = None


def _entry_id(record_id: str, session_id: str, metadata: Mapping[str, Any]) -> str | None:
    """The session entry a record came from: ``metadata.entry_id``, else the id's tail
    (``<sessionId>:<entryId>``); None for v1 records (``<sessionId>:L<line>``), which have none."""
    given = metadata.get("entry_id")
    if isinstance(given, str) and given:
        return given
    prefix = f"{session_id}:"
    tail = record_id[len(prefix):] if record_id.startswith(prefix) else ""
    if not tail or (tail[:1] == "L" and tail[1:].isdigit()):
        return None
    return tail


def _hit_json(hit: Hit) -> dict[str, Any]:
    from pi_memory.extensions.recall.tool import hit_record

    record = hit_record(hit)  # what search_memory returns: id, similarity, role, timestamp, sessionId, text, blocked
    metadata = hit.metadata
    record["score"] = round(hit.score, 6)
    record["entryId"] = _entry_id(hit.id, hit.session_id, metadata)
    record["file"] = metadata.get("file") if isinstance(metadata.get("file"), str) else None
    for key in ("toolName", "customType"):
        if isinstance(metadata.get(key), str):
            record[key] = metadata[key]
    return record


def _moment(name: str, value: str | None) -> str | None:
    from pi_memory.recall.decay import index_time

    if value is None or not value.strip():
        return None
    try:
        return index_time(value)
    except ValueError:
        raise RecallQueryError(f"{name} must be an ISO date or time (e.g. 2025-03-02 or 2025-03-02T10:00Z), "
                               f"got {value!r}") from None


def search(
    service: RecallService | None,
    query: str,
    *,
    top_k: int = 10,
    roles: Sequence[str] = (),
    session_ids: Sequence[str] = (),
    since: str | None = None,
    until: str | None = None,
    rank: str = "relevance",
) -> dict[str, Any]:
    """``search_memory``'s search with the index's filters; each hit with its score and link.

    Raises :class:`RecallQueryError` for a filter that cannot be used (unknown role or rank, a
    date that is not ISO, an empty query).
    """
    from pi_memory.extensions.recall.settings import RANK_MODES
    from pi_memory.recall import Filters

    query = query.strip()
    if not query:
        raise RecallQueryError("query must not be empty")
    if rank not in RANK_MODES:
        raise RecallQueryError(f"rank must be one of {', '.join(RANK_MODES)}, got {rank!r}")
    unknown = [role for role in roles if role not in ROLES]
    if unknown:
        raise RecallQueryError(f"role must be one of {', '.join(ROLES)}, got {unknown[0]!r}")
    filters = Filters()
    if roles:
        filters["role"] = list(roles)
    ids = [s.strip() for s in session_ids if s.strip()]
    if ids:
        filters["session_id"] = ids
    start, end = _moment("since", since), _moment("until", until)
    if start:
        filters["since"] = start
    if end:
        filters["until"] = end
    top_k = max(1, min(MAX_TOP_K, top_k))
    applied = {"role": list(roles), "sessionId": ids, "since": start, "until": end}
    if service is None:
        return {"query": query, "rank": rank, "filters": applied, "count": 0, "hits": [], "indexed": False}
    hits = service.search(query, top_k, filters or None, rank=rank, track_access=False)
    return {"query": query, "rank": rank, "filters": applied, "count": len(hits), "indexed": True,
            "hits": [_hit_json(h) for h in hits]}


def important_memories(
    service: RecallService | None,
    *,
    threshold: float = 0.7,
    limit: int = 10,
    rate: float | None = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """``get_important_memories``' list, each memory with the terms of its decay weight.

    The ranking is the service's own (:meth:`RecallService.important_memories`); the terms come
    from :func:`pi_memory.recall.decay.importance_parts`, the function that weight is made by,
    at the same moment, so they add up to the weight shown.
    """
    from pi_memory.recall.decay import importance_parts

    limit = max(1, min(MAX_LIMIT, limit))
    if service is None:
        return {"threshold": threshold, "rate": rate, "count": 0, "memories": [], "indexed": False}
    decay = service.decay_rate if rate is None else rate
    moment = now or datetime.now(UTC)
    found: list[ImportantMemory] = service.important_memories(threshold, limit, now=moment, rate=decay)
    memories = []
    for memory in found:
        record = memory.to_json()
        record["parts"] = importance_parts(memory.timestamp, memory.access_count, rate=decay, now=moment).to_json()
        record["entryId"] = _entry_id(memory.id, memory.session_id, {})
        memories.append(record)
    return {"threshold": threshold, "rate": decay, "count": len(memories), "memories": memories, "indexed": True,
            "formula": "min(exp(-rate·ageHours) + ln(accessCount+1)/10 + (0.2 if age < 24 h), 1.0)"}


def status(access: RecallAccess) -> dict[str, Any]:
    """Where the index is and how many messages it holds (what ``recall status`` shows).

    ``damagedVectors`` is ``recall status``' ``damaged_vectors``: stored vectors searches leave out
    of the meaning half (absent where the backend does not count them, as there). When there are
    any, ``reindex`` is the command that repairs them.
    """
    from pi_memory.recall.vectors import reindex_command

    service = access.service()
    if service is None:
        return {"location": access.location, "exists": False, "count": 0, "roles": list(ROLES)}
    info = service.index.info()
    result = {"location": access.location, "exists": True, "count": info.get("count", 0),
              "backend": info.get("backend"), "embedder": info.get("embedder"), "roles": list(ROLES)}
    if "damaged_vectors" in info:
        result["damagedVectors"] = damaged = int(info["damaged_vectors"])
        if damaged:
            where = redact(str(info.get("location") or access.location), access.settings.location)
            result["reindex"] = reindex_command(where, str(info.get("embedder_in_use") or info.get("embedder")))
    return result


# --- HTTP --------------------------------------------------------------------------------------


def _number(request: Request, name: str, default: float) -> float:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise RecallQueryError(f"{name} must be a number, got {raw!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise RecallQueryError(f"{name} must be a finite number, got {raw!r}")
    return value


def _whole(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise RecallQueryError(f"{name} must be a whole number, got {raw!r}") from None


def routes(config: Any) -> list[BaseRoute]:
    """``GET /recall/status``, ``GET /recall/search``, ``GET /recall/important`` (mounted under ``/api``).

    ``config`` is the app's :class:`~pi_memory.ui.config.UiConfig`; its recall settings name the
    index. The service is opened on the first request and given back when the app stops.
    """
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from pi_memory.recall import RecallError

    settings = config.recall
    access = RecallAccess(settings)
    on_close = getattr(config, "on_close", None)
    if callable(on_close):  # the index is flushed and closed with the app
        on_close(access.close)

    def _error(exc: Exception) -> JSONResponse:
        if isinstance(exc, RecallQueryError):
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse({"error": redact(str(exc)), "index": access.location}, status_code=503)

    async def status_endpoint(request: Request) -> Response:
        try:
            return JSONResponse(await run_in_threadpool(status, access))
        except RecallError as exc:
            return _error(exc)

    async def search_endpoint(request: Request) -> Response:
        params = request.query_params
        try:
            top_k = _whole(request, "topK", 10)

            def run() -> dict[str, Any]:
                return search(access.service(), params.get("q", ""), top_k=top_k, roles=params.getlist("role"),
                              session_ids=params.getlist("session"), since=params.get("since"),
                              until=params.get("until"), rank=params.get("rank") or settings.rank)

            return JSONResponse(await run_in_threadpool(run))
        except (RecallQueryError, RecallError) as exc:
            return _error(exc)

    async def important_endpoint(request: Request) -> Response:
        try:
            threshold = _number(request, "threshold", 0.7)
            limit = _whole(request, "limit", 10)

            def run() -> dict[str, Any]:
                return important_memories(access.service(), threshold=threshold, limit=limit,
                                          rate=settings.decay_rate)

            return JSONResponse(await run_in_threadpool(run))
        except (RecallQueryError, RecallError) as exc:
            return _error(exc)

    return [
        Route("/recall/status", status_endpoint, methods=["GET"]),
        Route("/recall/search", search_endpoint, methods=["GET"]),
        Route("/recall/important", important_endpoint, methods=["GET"]),
    ]
