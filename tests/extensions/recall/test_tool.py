"""The ``search_memory`` tool (:mod:`pi_memory.extensions.recall.tool`): results bounded with their
ids kept, bad arguments as error results, and a call cancelled before it ran leaving no trace."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from recall_helpers import make_runtime, text_of, tool_results

from pi_memory.base.tools import OUTPUT_LIMIT_BYTES
from pi_memory.extensions.decay import ImportantMemoriesTool
from pi_memory.extensions.recall import SearchMemoryTool, recall_extension, search_result
from pi_memory.extensions.recall.tool import CANCELLED
from pi_memory.recall import Hit, RecallService, open_index

pytestmark = pytest.mark.anyio


def test_search_result_bounds_long_hits_and_keeps_their_ids() -> None:
    hits = [Hit(id=f"s:{n}", text=f"message {n} " + "x" * 20_000, similarity=0.5, score=1.0, role="user",
                timestamp="2025-01-01T00:00:00Z", session_id="s") for n in range(5)]
    result = search_result("x", hits)
    assert not result.is_error
    structured = result.structured_content
    assert structured is not None and structured["truncated"] is True
    assert [r["id"] for r in structured["results"]] == [h.id for h in hits]
    assert all(r["truncated"] is True and "[clipped" in r["text"] for r in structured["results"])
    assert len(json.dumps(structured, ensure_ascii=False, separators=(",", ":")).encode()) <= OUTPUT_LIMIT_BYTES
    assert len(result.text.encode()) <= OUTPUT_LIMIT_BYTES
    assert re.findall(r"^\[(s:\d)\] \(similarity: 0\.50\)", result.text, re.M) == [h.id for h in hits]
    assert search_result("x", []).text == "No matching messages in recall memory."


@pytest.mark.parametrize("args, error", [({"query": "  "}, "query must be a non-empty string"),
                                         ({"query": "x", "rank": "loudest"}, "rank")])
async def test_bad_arguments_are_error_results(tmp_path: Path, args: dict[str, Any], error: str) -> None:
    async def go() -> dict[str, Any]:
        rt, _ = await make_runtime(tmp_path, [{"tool_calls": [{"name": "search_memory", "arguments": args}]}, "ok"],
                                   lambda pi: recall_extension(pi, {"url": str(tmp_path / "r.db")}))
        await rt.prompt("search")
        (result,) = tool_results(rt.session_manager)
        await rt.shutdown()
        return result

    result = await go()
    assert result["isError"] is True and error in text_of(result)


@pytest.mark.parametrize("signal", [threading.Event(), SimpleNamespace(aborted=True)], ids=["event", "pi-signal"])
async def test_a_cancelled_recall_call_neither_searches_nor_counts_an_access(tmp_path: Path, signal: Any) -> None:
    """Accesses feed get_important_memories, so a call cancelled before it ran must leave none."""
    if isinstance(signal, threading.Event):
        signal.set()
    service = RecallService(open_index(str(tmp_path / "r.db")))
    service.index_messages([{"id": "s:1", "text": "The staging database moved to Frankfurt", "role": "user",
                             "timestamp": "2025-03-02T10:00:00Z", "session_id": "s"}])
    service.flush()
    lookups: list[int] = []

    def get_service() -> RecallService:
        lookups.append(1)
        return service

    tools = [SearchMemoryTool(get_service), ImportantMemoriesTool(get_service, lambda: 0.0001)]
    args = [{"query": "staging database"}, {"threshold": 0.0}]
    try:
        for tool, params in zip(tools, args, strict=True):
            result = await tool.execute("call-1", params, signal)
            assert result.is_error and result.structured_content == {"success": False, "error": CANCELLED}
            assert "Cancelled before running" in result.text
        assert lookups == [] and [s.access_count for s in service.index.access_stats()] == [0]

        result = await tools[0].execute("call-2", args[0], threading.Event())  # not set: runs as usual
        assert not result.is_error and result.structured_content["results"][0]["id"] == "s:1"
        assert [s.access_count for s in service.index.access_stats()] == [1]
    finally:
        service.close()
