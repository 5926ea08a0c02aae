"""``search_memory(query, topK=5)``: the model's way into every past message.

The text the model reads lists each hit as ``[id] (similarity: 0.92)`` (the guide's format)
with its role and time, then the message. The same hits come back as ``structured_content``
(``results``: id, text, similarity, role, timestamp, sessionId) for MCP-style clients. Both
views are bounded by :func:`pi_memory.base.tools.bound_result`: a long message is clipped
with a marker and ``truncated: true`` but keeps its id, so nothing is lost for good.

Hits have passed the threat scanner: a poisoned past message reads
``[BLOCKED: recalled message withheld, …]`` and carries ``blocked`` (the pattern ids).
"""

from __future__ import annotations

import abc
import asyncio
import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from pi_memory.backends import redact
from pi_memory.base.tools import (
    TRUNCATION_SCHEMA,
    ToolBase,
    ToolResult,
    aborted,
    bound_result,
    compact_json,
    is_output_limit,
    tool_result,
)
from pi_memory.recall import Hit, RecallService

from .settings import RANK_MODES

__all__ = ["CANCELLED", "MAX_TOP_K", "OUTPUT_SCHEMA", "PARAMETERS", "RecallTool", "SearchMemoryTool", "bounded",
           "render_hits", "search_result"]

MAX_TOP_K = 50

_T = TypeVar("_T")

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "What to look for, in your own words or the words likely used."},
        "topK": {"type": "integer", "description": f"How many messages to return (default 5, at most {MAX_TOP_K})."},
        "rank": {
            "type": "string",
            "enum": list(RANK_MODES),
            "description": "relevance (default); recency favours newer messages; importance favours recent and "
            "often recalled ones.",
        },
    },
    "required": ["query"],
    "additionalProperties": False,
}

_ERROR = {
    "anyOf": [
        {"type": "string"},
        {
            "type": "object",
            "properties": {"type": {"type": "string"}, "message": {"type": "string"}},
            "required": ["type", "message"],
        },
    ]
}

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "success": {"type": "boolean"},
        "query": {"type": "string"},
        "rank": {"type": "string", "enum": list(RANK_MODES)},
        "count": {"type": "integer", "description": "Hits found (before any clipping)."},
        "results": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "description": "<sessionId>:<entryId> of the message."},
                    "text": {"type": "string"},
                    "similarity": {"type": "number", "description": "Cosine of query and message, 0–1."},
                    "role": {"type": "string"},
                    "timestamp": {"type": "string"},
                    "sessionId": {"type": "string"},
                    "blocked": {"type": "array", "items": {"type": "string"},
                                "description": "Threat patterns that withheld the text."},
                    "truncated": {"type": "boolean", "const": True},
                },
                "required": ["id", "text", "similarity"],
            },
        },
        "error": _ERROR,
        **copy.deepcopy(TRUNCATION_SCHEMA),
    },
    "required": ["success"],
}

DESCRIPTION = (
    "Search every earlier message of every past session (user, assistant, tool results) by meaning "
    "and by words. Use it when the user refers to something discussed before that is not in this "
    "conversation. Returns the best matches with their similarity."
)


def hit_record(hit: Hit) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": hit.id,
        "similarity": round(hit.similarity, 4),
        "role": hit.role,
        "timestamp": hit.timestamp,
        "sessionId": hit.session_id,
        "text": hit.text,
    }
    blocked = hit.metadata.get("blocked")
    if blocked:
        record["blocked"] = list(blocked)
    return record


def render_hits(result: Any) -> str:
    """The text view: ``[id] (similarity: 0.92) role · time`` then the message, per hit."""
    if not isinstance(result, Mapping):  # bound_result also sizes parts (a list) with this serializer
        return compact_json(result)
    if result.get("success") is False:
        error = result.get("error")
        message = error.get("message") if isinstance(error, Mapping) else error
        return f"search_memory failed: {message}"
    results = result.get("results") or []
    if not results:
        return "No matching messages in recall memory."
    parts = []
    for record in results:
        head = f"[{record['id']}] (similarity: {float(record['similarity']):.2f})"
        details = " · ".join(str(record[k]) for k in ("role", "timestamp") if record.get(k))
        parts.append(f"{head} {details}\n{record.get('text', '')}" if details else f"{head}\n{record.get('text', '')}")
    text = "\n\n".join(parts)
    if result.get("truncated"):
        text += f"\n\n({result.get('total', len(results))} hit(s); long messages were clipped — their ids are complete)"
    return text


def search_result(query: str, hits: Sequence[Hit], rank: str = "relevance") -> ToolResult:
    """A bounded :class:`ToolResult` for ``hits`` (already guarded)."""
    result = {"success": True, "query": query, "rank": rank, "count": len(hits),
              "results": [hit_record(h) for h in hits]}
    return bounded(result, render_hits)


def bounded(result: dict[str, Any], render: Callable[[dict[str, Any]], str]) -> ToolResult:
    """``result`` bounded twice — as structured content and as the text ``render`` makes of it —
    so neither view overflows; over the limit either way is an error result."""
    structured = bound_result(result)
    text_view = bound_result(result, serialize=render)
    return ToolResult(content=[{"type": "text", "text": render(text_view)}], structured_content=structured,
                      is_error=is_output_limit(structured) or is_output_limit(text_view))


def failure(message: str) -> ToolResult:
    return tool_result({"success": False, "error": message})


#: What a call cancelled before it ran reads (the memory tools' wording: the call did nothing).
CANCELLED = "Cancelled before running; nothing was searched and no access was recorded."


class RecallTool(ToolBase):
    """A tool over the recall service — what ``search_memory`` and ``get_important_memories`` share.

    The service is looked up per call, in a worker thread: the extensions open it at
    ``session_start``, while the MCP server opens it on the first call (which blocks while the
    embedding table loads). No service is a failed result; so is an error the query raises (a
    down database, a mismatched embedder): the model is told and the session goes on.

    Subclasses set the host-facing fields as class attributes (``PARAMETERS`` and
    ``OUTPUT_SCHEMA`` are copied per instance, so a host may edit its copy) and implement
    :meth:`query`. A call whose abort signal is set returns :data:`CANCELLED` without searching,
    as the memory tools do.
    """

    name: str
    label: str
    description: str
    prompt_snippet: str
    PARAMETERS: dict[str, Any]
    OUTPUT_SCHEMA: dict[str, Any]
    #: What the model reads when there is no recall service.
    unavailable = "recall memory is not available in this session"

    def __init__(self, get_service: Callable[[], RecallService | None]) -> None:
        self.get_service = get_service
        self.parameters: dict[str, Any] = copy.deepcopy(self.PARAMETERS)
        self.output_schema: dict[str, Any] = copy.deepcopy(self.OUTPUT_SCHEMA)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"

    async def run(self, params: Mapping[str, Any], signal: Any = None) -> ToolResult:
        # A cancelled call must not search: every hit counts as an access, and accesses raise the
        # weights get_important_memories ranks by. Checked again after the service lookup, which
        # can block for seconds (the first call loads the embedding table).
        if aborted(signal):
            return failure(CANCELLED)
        service = await asyncio.to_thread(self.get_service)
        if service is None:
            return failure(self.unavailable)
        if aborted(signal):
            return failure(CANCELLED)
        try:
            return await self.query(service, params)
        except _ServiceFailed as failed:  # a down database or a mismatched embedder: tell the model, keep going
            return failure(redact(f"{type(failed.cause).__name__}: {failed.cause}"))

    @abc.abstractmethod
    async def query(self, service: RecallService, params: Mapping[str, Any]) -> ToolResult:
        """Validate ``params`` (a failed result names the bad one) and ask ``service`` via :meth:`ask`."""

    @staticmethod
    async def ask(call: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """Run a blocking service call in a worker thread; what it raises becomes the failed result."""
        try:
            return await asyncio.to_thread(call, *args, **kwargs)
        except Exception as exc:
            raise _ServiceFailed(exc) from exc


class _ServiceFailed(Exception):
    def __init__(self, cause: Exception) -> None:
        super().__init__(str(cause))
        self.cause = cause


class SearchMemoryTool(RecallTool):
    """``search_memory``; ``default_rank`` (read per call) is the ``rank`` when the model names none."""

    name = "search_memory"
    label = "Recall"
    description = DESCRIPTION
    prompt_snippet = "Find what was said in earlier sessions."
    PARAMETERS = PARAMETERS
    OUTPUT_SCHEMA = OUTPUT_SCHEMA
    unavailable = "recall memory is not available in this session (see the pi-memory-recall settings)"

    def __init__(self, get_service: Callable[[], RecallService | None],
                 default_rank: Callable[[], str] = lambda: "relevance") -> None:
        super().__init__(get_service)
        self.default_rank = default_rank

    async def query(self, service: RecallService, params: Mapping[str, Any]) -> ToolResult:
        query = params.get("query")
        if not isinstance(query, str) or not query.strip():
            return failure("query must be a non-empty string")
        top_k = params.get("topK", 5)
        if not isinstance(top_k, int) or isinstance(top_k, bool):
            return failure(f"topK must be a whole number, got {top_k!r}")
        top_k = max(1, min(MAX_TOP_K, top_k))
        rank = params.get("rank") or self.default_rank()
        if rank not in RANK_MODES:
            return failure(f"rank must be one of {', '.join(RANK_MODES)}, got {rank!r}")
        hits = await self.ask(service.search, query.strip(), top_k, None, rank=rank)
        return search_result(query.strip(), hits, rank)
