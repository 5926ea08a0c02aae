"""Bounded structured results (DESIGN.md §5.8): 12 KiB, 100 records, ids kept, output_limit."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pi_memory.base.tools import (
    MAX_RECORDS,
    OUTPUT_LIMIT_BYTES,
    ToolBase,
    ToolResult,
    aborted,
    bound_result,
    compact_json,
    is_output_limit,
    pretty_json,
    tool_result,
)


def nbytes(value: Any) -> int:
    return len(compact_json(value).encode("utf-8"))


def read_result(entries: list[str]) -> dict[str, Any]:
    return {
        "success": True,
        "target": "memory",
        "entries": entries,
        "usage": "1% — 10/2,200 chars",
        "entryCount": len(entries),
    }


def test_small_result_is_returned_unchanged() -> None:
    result = read_result(["a", "b"])
    assert bound_result(result) == result
    assert bound_result(result) is not result


def test_record_cap_keeps_first_hundred_and_reports_total() -> None:
    entries = [f"fact {i}" for i in range(150)]
    out = bound_result(read_result(entries))
    assert out["entries"] == entries[:MAX_RECORDS]
    assert out["truncated"] is True
    assert out["truncatedKeys"] == ["entries"]
    assert out["total"] == 150
    assert out["entryCount"] == 150


def test_exactly_hundred_records_is_not_truncated() -> None:
    out = bound_result(read_result([f"fact {i}" for i in range(100)]))
    assert "truncated" not in out and "total" not in out


def test_byte_bound_drops_whole_trailing_entries_never_cuts_one() -> None:
    entries = [f"{i:03d} " + "é" * 150 for i in range(90)]  # ~300 bytes each
    out = bound_result(read_result(entries))
    kept = out["entries"]
    assert 0 < len(kept) < 90
    assert kept == entries[: len(kept)]
    assert out["truncated"] is True and out["total"] == 90
    assert nbytes(out) <= OUTPUT_LIMIT_BYTES
    # one more whole entry would not have fitted
    assert nbytes({**out, "entries": entries[: len(kept) + 1]}) > OUTPUT_LIMIT_BYTES


def test_one_oversized_entry_without_id_is_a_typed_output_limit_error() -> None:
    result = {**read_result(["x" * 20_480]), "message": "Entry added."}
    out = bound_result(result, next_step="Do this next.")
    assert out["success"] is False
    error = out["error"]
    assert error["type"] == "output_limit"
    assert error["limitBytes"] == 12_288
    assert error["resultBytes"] == nbytes(result)
    assert error["field"] == "entries"
    assert error["index"] == 0
    assert error["recordBytes"] == 20_482
    assert error["message"].endswith("Do this next.")
    assert "entries" not in out
    # short scalars survive so the caller still knows what happened
    assert out["target"] == "memory" and out["entryCount"] == 1 and out["message"] == "Entry added."
    assert is_output_limit(out)


def test_an_oversized_entry_in_the_middle_is_an_error_not_a_silent_gap() -> None:
    out = bound_result(read_result(["small", "y" * 20_000, "also small"]))
    assert out["error"]["type"] == "output_limit"
    assert out["error"]["index"] == 1


def test_failed_result_keeps_its_short_error_as_cause() -> None:
    result = {
        "success": False,
        "error": "Memory at 9/10 chars. Adding this entry would exceed the limit.",
        "currentEntries": ["z" * 13_000],
        "usage": "9/10",
    }
    out = bound_result(result)
    assert out["error"]["cause"] == result["error"]
    assert out["error"]["field"] == "currentEntries"
    assert out["usage"] == "9/10"


def test_oversized_scalars_give_an_output_limit_without_a_field() -> None:
    out = bound_result({"success": False, "error": "e" * 20_000})
    assert out["error"]["type"] == "output_limit"
    assert "field" not in out["error"] and "cause" not in out["error"]


def test_records_with_ids_keep_their_ids_when_clipped() -> None:
    records = [{"id": f"m{i}", "text": "w" * 1_000, "score": 0.5} for i in range(30)]
    out = bound_result({"success": True, "results": records})
    assert nbytes(out) <= OUTPUT_LIMIT_BYTES
    assert [r["id"] for r in out["results"]] == [f"m{i}" for i in range(30)]
    first = out["results"][0]
    assert first["truncated"] is True
    assert first["score"] == 0.5
    assert first["text"].startswith("w" * 100)
    assert first["text"].endswith(f"… [clipped {1_000 - first['text'].index('…'):,} chars]")
    assert out["truncated"] is True and out["total"] == 30


def test_too_many_id_records_keep_a_prefix_with_ids() -> None:
    records = [{"id": f"id-{i:05d}", "text": "t"} for i in range(3_000)]
    out = bound_result({"success": True, "results": records})
    assert len(out["results"]) == MAX_RECORDS
    assert out["total"] == 3_000
    tiny = bound_result({"success": True, "results": records}, limit_bytes=600)
    assert 0 < len(tiny["results"]) < MAX_RECORDS
    assert all(r["id"] == f"id-{i:05d}" for i, r in enumerate(tiny["results"]))
    assert nbytes(tiny) <= 600


def test_incoming_flag_keys_are_recomputed_not_trusted() -> None:
    out = bound_result({**read_result(["a"]), "truncated": True, "total": 99})
    assert "truncated" not in out and "total" not in out


def test_bytes_not_characters_are_counted() -> None:
    entries = ["😀" * 100 for _ in range(40)]  # 400 bytes, 100 code points each
    out = bound_result(read_result(entries))
    assert nbytes(out) <= OUTPUT_LIMIT_BYTES
    assert len(out["entries"]) < 40


def test_tool_result_text_is_bounded_pretty_json_independently() -> None:
    entries = [f"{i:03d} " + "a" * 110 for i in range(100)]  # fits compact, not pretty
    result = read_result(entries)
    res = tool_result(result)
    assert res.structured_content is not None
    assert "truncated" not in res.structured_content
    text_view = json.loads(res.text)
    assert len(res.text.encode("utf-8")) <= OUTPUT_LIMIT_BYTES
    assert text_view["truncated"] is True and text_view["total"] == 100
    assert res.content == [{"type": "text", "text": pretty_json(text_view)}]
    assert res.is_error is False


def test_tool_result_keeps_success_true_substring_for_extraction() -> None:
    res = tool_result(read_result(["a"]))
    assert '"success": true' in res.text
    assert json.loads(res.text) == res.structured_content


@pytest.mark.parametrize(
    ("result", "failed", "expected"),
    [
        ({"success": True}, None, False),
        ({"success": False, "error": "x"}, None, True),
        ({"success": True}, True, True),
        (read_result(["q" * 20_000]), None, True),
    ],
)
def test_is_error(result: dict[str, Any], failed: bool | None, expected: bool) -> None:
    assert tool_result(result, failed=failed).is_error is expected


def test_to_mcp_wire_shape() -> None:
    res = tool_result({"success": True})
    assert res.to_mcp() == {
        "content": [{"type": "text", "text": '{\n  "success": true\n}'}],
        "isError": False,
        "structuredContent": {"success": True},
    }
    assert ToolResult(content=[]).text == ""
    assert ToolResult(content=[]).details is None


class _Echo(ToolBase):
    """The smallest tool: reports what ``run`` was handed."""

    async def run(self, params: Any, signal: Any = None) -> ToolResult:
        return tool_result({"success": True, "params": dict(params), "aborted": aborted(signal)})


class _Signal:
    def __init__(self, value: object) -> None:
        self.aborted = value


@pytest.mark.anyio
async def test_execute_has_pis_signature_and_hands_run_the_arguments_and_the_signal() -> None:
    import asyncio
    import threading

    tool = _Echo()
    assert (await tool.execute("call-1", None)).structured_content == {"success": True, "params": {}, "aborted": False}
    event = asyncio.Event()
    event.set()
    for signal, expected in [
        (_Signal(True), True), (_Signal(False), False), (_Signal("yes"), False),  # only a real True aborts
        (event, True), (asyncio.Event(), False), (threading.Event(), False), (object(), False),
    ]:
        result = await tool.execute("call-2", {"q": 1}, signal, None, None)
        assert result.structured_content == {"success": True, "params": {"q": 1}, "aborted": expected}, signal
