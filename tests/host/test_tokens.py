"""host/tokens.py: the context usage ``ctx.get_context_usage()`` reports, from the branch as it is."""

from __future__ import annotations

from typing import Any

from pi_memory.host import ContextUsage
from pi_memory.host.tokens import context_usage


def reply(total: int, stop: str = "stop") -> dict[str, Any]:
    return {"type": "message", "id": f"r{total}", "message": {"role": "assistant", "content": [], "stopReason": stop,
                                                             "usage": {"totalTokens": total}}}


def test_the_last_good_reply_counts() -> None:
    assert context_usage(1000, []) == ContextUsage(None, 1000, None)
    assert context_usage(1000, [reply(250)]) == ContextUsage(250, 1000, 25.0)
    # A failed or aborted reply reports no usable usage: the one before it still counts.
    failed = [reply(250), reply(900, "error"), reply(800, "aborted")]
    assert context_usage(1000, failed) == ContextUsage(250, 1000, 25.0)
    assert context_usage(0, [reply(10)]) == ContextUsage(10, 0, None)


def test_unknown_right_after_a_compaction() -> None:
    compaction = {"type": "compaction", "id": "c", "summary": "s"}
    assert context_usage(1000, [reply(250), compaction]) == ContextUsage(None, 1000, None)
    assert context_usage(1000, [reply(250), compaction, reply(100)]) == ContextUsage(100, 1000, 10.0)
