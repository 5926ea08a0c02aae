"""What a summary is made of (:mod:`pi_memory.host.summary`): the conversation serialised for the
summarising model, as pi 1.6.0 serialises it."""

from __future__ import annotations

from host_helpers import asst, result, user

from pi_memory.host.summary import serialize_conversation


def test_serialization_truncates_tool_results() -> None:
    text = serialize_conversation([user("hi"), asst("ok", [{"id": "1", "name": "read", "arguments": {"path": "a"}}]),
                                   result("1", "x" * 2500)])
    assert text.startswith('[User]: hi\n\n[Assistant]: ok\n\n[Assistant tool calls]: read(path="a")\n\n[Tool result]: ')
    assert text.endswith("\n\n[... 500 more characters truncated]")
