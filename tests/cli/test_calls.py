"""Result lines of concurrent tool calls name their tool (:mod:`pi_memory.cli.calls`); a lone call's
line needs no label."""

from __future__ import annotations

from pi_memory.cli.calls import ConcurrentCalls


def call(call_id: str, name: str) -> dict[str, str]:
    return {"toolCallId": call_id, "toolName": name}


def test_a_lone_call_gets_no_label() -> None:
    calls = ConcurrentCalls()
    calls.started(call("1", "memory_read"))
    assert calls.ended(call("1", "memory_read")) == ""


def test_every_result_of_an_overlapping_batch_is_labelled_until_the_batch_is_done() -> None:
    calls = ConcurrentCalls()
    calls.started(call("1", "memory_read"))
    calls.started(call("2", "search_memory"))
    assert calls.ended(call("2", "search_memory")) == "search_memory: "
    assert calls.ended(call("1", "memory_read")) == "memory_read: "  # the last of the batch still says which
    calls.started(call("3", "memory_add"))
    assert calls.ended(call("3", "memory_add")) == ""  # a new batch of one
