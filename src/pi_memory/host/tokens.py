"""Token estimates, counted the way pi counts them, so a session compacts at the same point here
as in pi: characters as JavaScript counts them (UTF-16 code units) divided by 4, except where the
provider reported real usage — then the last good usage plus estimates for what came after it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from pi_memory.session.entries import Entry

from .context import ContextUsage

__all__ = [
    "IMAGE_CHARS",
    "ContextEstimate",
    "calculate_context_tokens",
    "compact_json",
    "context_usage",
    "estimate_context_tokens",
    "estimate_tokens",
    "js_len",
]

IMAGE_CHARS: Final = 4800


def js_len(text: str) -> int:
    """JavaScript's ``.length``: UTF-16 code units (an emoji counts 2)."""
    return len(text.encode("utf-16-le")) // 2


def _content_chars(content: Any) -> int:
    if isinstance(content, str):
        return js_len(content)
    chars = 0
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, Mapping):
            continue
        if block.get("type") == "text" and block.get("text"):
            chars += js_len(str(block["text"]))
        elif block.get("type") == "image":
            chars += IMAGE_CHARS
    return chars


def compact_json(value: Any) -> str:
    """``json.dumps`` without spaces, non-ASCII raw: what the estimates and transcripts count."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def estimate_tokens(message: Mapping[str, Any]) -> int:
    """pi's ``estimateTokens``: ``ceil(chars / 4)`` over what the model would read."""
    role = message.get("role")
    chars = 0
    if role == "system":
        chars = _content_chars(message.get("content"))
        sections = message.get("sections")
        if isinstance(sections, Mapping):
            chars += sum(js_len(s) for s in sections.values() if isinstance(s, str) and s)
        if message.get("toolsAdded"):
            chars += js_len(compact_json(message["toolsAdded"]))
    elif role in ("user", "custom", "toolResult"):
        chars = _content_chars(message.get("content"))
    elif role == "assistant":
        for block in message.get("content") or []:
            if not isinstance(block, Mapping):
                continue
            kind = block.get("type")
            if kind == "text":
                chars += js_len(str(block.get("text") or ""))
            elif kind == "thinking":
                chars += js_len(str(block.get("thinking") or ""))
            elif kind == "toolCall":
                chars += js_len(str(block.get("name") or "")) + js_len(compact_json(block.get("arguments", {})))
    elif role == "bashExecution":
        chars = js_len(str(message.get("command") or "")) + js_len(str(message.get("output") or ""))
    elif role in ("branchSummary", "compactionSummary"):
        chars = js_len(str(message.get("summary") or ""))
    return math.ceil(chars / 4)


def calculate_context_tokens(usage: Mapping[str, Any]) -> int:
    """``totalTokens``, else the sum of its parts (old files lack totalTokens)."""
    total = usage.get("totalTokens")
    if total:
        return int(total)
    return sum(int(usage.get(k) or 0) for k in ("input", "output", "cacheRead", "cacheWrite"))


def _usage(message: Mapping[str, Any]) -> Mapping[str, Any] | None:
    usage = message.get("usage")
    if (message.get("role") == "assistant" and message.get("stopReason") not in ("aborted", "error")
            and isinstance(usage, Mapping) and calculate_context_tokens(usage) > 0):
        return usage
    return None


@dataclass(frozen=True, slots=True)
class ContextEstimate:
    tokens: int
    usage_tokens: int
    trailing_tokens: int
    last_usage_index: int | None


def estimate_context_tokens(messages: Sequence[Mapping[str, Any]]) -> ContextEstimate:
    """The last good assistant usage plus estimates for the messages after it."""
    for i in range(len(messages) - 1, -1, -1):
        usage = _usage(messages[i])
        if usage is not None:
            used = calculate_context_tokens(usage)
            trailing = sum(estimate_tokens(m) for m in messages[i + 1:])
            return ContextEstimate(used + trailing, used, trailing, i)
    estimated = sum(estimate_tokens(m) for m in messages)
    return ContextEstimate(estimated, 0, estimated, None)


def context_usage(context_window: int, branch: Sequence[Entry]) -> ContextUsage:
    """``ctx.get_context_usage()``: the branch's last good reply's usage against the window;
    unknown tokens right after a compaction (until the next reply reports usage)."""
    for entry in reversed(branch):
        if entry.get("type") == "compaction":
            return ContextUsage(None, context_window, None)
        message = entry.get("message") if entry.get("type") == "message" else None
        if isinstance(message, Mapping) and message.get("role") == "assistant" and isinstance(
                message.get("usage"), Mapping) and message.get("stopReason") not in ("error", "aborted"):
            tokens = calculate_context_tokens(message["usage"])
            return ContextUsage(tokens, context_window, 100.0 * tokens / context_window if context_window else None)
    return ContextUsage(None, context_window, None)
