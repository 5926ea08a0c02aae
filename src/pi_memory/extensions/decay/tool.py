"""``get_important_memories(threshold=0.7, limit=10)``: the heaviest memories by the guide's weight.

``weight = min(exp(-rate · ageHours) + ln(accessCount + 1) / 10 + (0.2 if age < 24 h), 1.0)``

``accessCount`` is real: every hit ``search_memory`` returns bumps it (and the last-access time)
in the index. This tool only reads: counting its own answers as accesses would make whatever it
returned once heavier every time it is asked, whatever the conversation is about.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pi_memory.base.tools import TRUNCATION_SCHEMA, ToolResult, compact_json
from pi_memory.recall import ImportantMemory, RecallService

from ..recall.tool import RecallTool, bounded, failure

__all__ = ["OUTPUT_SCHEMA", "PARAMETERS", "ImportantMemoriesTool", "important_result", "render_memories"]

MAX_LIMIT = 100

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "threshold": {"type": "number", "description": "Minimum weight between 0 and 1 (default 0.7)."},
        "limit": {"type": "integer", "description": f"At most this many (default 10, at most {MAX_LIMIT})."},
    },
    "additionalProperties": False,
}

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "success": {"type": "boolean"},
        "threshold": {"type": "number"},
        "rate": {"type": "number", "description": "Decay rate per hour."},
        "count": {"type": "integer"},
        "memories": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "text": {"type": "string"},
                    "weight": {"type": "number"},
                    "accessCount": {"type": "integer"},
                    "lastAccess": {"type": ["string", "null"]},
                    "timestamp": {"type": "string"},
                    "role": {"type": "string"},
                    "sessionId": {"type": "string"},
                    "blocked": {"type": "array", "items": {"type": "string"}},
                    "truncated": {"type": "boolean", "const": True},
                },
                "required": ["id", "text", "weight", "accessCount"],
            },
        },
        "error": {"anyOf": [{"type": "string"}, {"type": "object"}]},
        **copy.deepcopy(TRUNCATION_SCHEMA),
    },
    "required": ["success"],
}

DESCRIPTION = (
    "The most important memories from past sessions: recent messages and those recalled often "
    "(weight = recency decay + ln(recalls + 1) / 10). Use it to get your bearings at the start of a task."
)


def memory_record(memory: ImportantMemory) -> dict[str, Any]:
    return memory.to_json()


def render_memories(result: Any) -> str:
    if not isinstance(result, Mapping):  # bound_result also sizes parts (a list) with this serializer
        return compact_json(result)
    if result.get("success") is False:
        error = result.get("error")
        return f"get_important_memories failed: {error.get('message') if isinstance(error, Mapping) else error}"
    memories = result.get("memories") or []
    if not memories:
        return f"No memories weigh {result.get('threshold', 0.7)} or more."
    parts = []
    for record in memories:
        recalls = int(record.get("accessCount", 0))
        head = f"[{record['id']}] (weight: {float(record['weight']):.2f}, recalled {recalls}×)"
        details = " · ".join(str(record[k]) for k in ("role", "timestamp") if record.get(k))
        parts.append(f"{head} {details}\n{record.get('text', '')}")
    text = "\n\n".join(parts)
    if result.get("truncated"):
        text += f"\n\n({result.get('total', len(memories))} memories; long ones were clipped — their ids are complete)"
    return text


def important_result(memories: Sequence[ImportantMemory], threshold: float, rate: float) -> ToolResult:
    result = {"success": True, "threshold": threshold, "rate": rate, "count": len(memories),
              "memories": [memory_record(m) for m in memories]}
    return bounded(result, render_memories)


class ImportantMemoriesTool(RecallTool):
    """``get_important_memories``; ``get_rate`` (the decay rate per hour) is read per call."""

    name = "get_important_memories"
    label = "Important memories"
    description = DESCRIPTION
    prompt_snippet = "List recent and often recalled memories."
    PARAMETERS = PARAMETERS
    OUTPUT_SCHEMA = OUTPUT_SCHEMA

    def __init__(self, get_service: Callable[[], RecallService | None], get_rate: Callable[[], float]) -> None:
        super().__init__(get_service)
        self.get_rate = get_rate

    async def query(self, service: RecallService, params: Mapping[str, Any]) -> ToolResult:
        threshold, limit = params.get("threshold", 0.7), params.get("limit", 10)
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not math.isfinite(threshold):
            return failure(f"threshold must be a number, got {threshold!r}")
        if isinstance(limit, bool) or not isinstance(limit, int):
            return failure(f"limit must be a whole number, got {limit!r}")
        rate = self.get_rate()
        limit = max(1, min(MAX_LIMIT, limit))
        memories = await self.ask(service.important_memories, float(threshold), limit, rate=rate)
        return important_result(memories, float(threshold), rate)
