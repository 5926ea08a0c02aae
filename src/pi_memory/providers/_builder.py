"""Builds one assistant message while a provider streams, and emits pi's events for it.

Every provider goes through this class so that the final message always has pi's key order
(``role, content, api, provider, model, usage, stopReason, timestamp[, errorMessage]``), usage is
always complete with its cost, and the event sequence is the same whichever wire format fed it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal, cast

from ._json import parse_partial_arguments, parse_tool_arguments
from .types import (
    AssistantMessage,
    AssistantMessageEvent,
    Model,
    TextContent,
    ThinkingContent,
    ToolCall,
    Usage,
)

Emit = Callable[[AssistantMessageEvent], None]

# Partial arguments are re-parsed on every delta for live previews; past this size the preview
# only refreshes at the end, so a huge argument stream stays linear.
_PREVIEW_LIMIT = 64 * 1024


def empty_usage() -> Usage:
    return {
        "input": 0,
        "output": 0,
        "cacheRead": 0,
        "cacheWrite": 0,
        "totalTokens": 0,
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
    }


def make_usage(model: Model, input: int, output: int, cache_read: int = 0, cache_write: int = 0) -> Usage:
    """Usage with ``totalTokens`` and dollar cost from the model's per-million prices.

    The arithmetic follows pi's ``calculateCost`` operation for operation, so the floats (and the
    digits written to session files) are identical.
    """
    usage = empty_usage()
    usage["input"] = input
    usage["output"] = output
    usage["cacheRead"] = cache_read
    usage["cacheWrite"] = cache_write
    usage["totalTokens"] = input + output + cache_read + cache_write
    cost = usage["cost"]
    cost["input"] = (model.cost.input / 1_000_000) * input
    cost["output"] = (model.cost.output / 1_000_000) * output
    cost["cacheRead"] = (model.cost.cache_read / 1_000_000) * cache_read
    cost["cacheWrite"] = (model.cost.cache_write / 1_000_000) * cache_write
    cost["total"] = cost["input"] + cost["output"] + cost["cacheRead"] + cost["cacheWrite"]
    return usage


class MessageBuilder:
    """The assistant message under construction plus the event stream that describes it."""

    def __init__(self, model: Model, emit: Emit) -> None:
        self.model = model
        self._emit = emit
        self.started = False
        self.ended = False
        self.message: AssistantMessage = {
            "role": "assistant",
            "content": [],
            "api": model.api,
            "provider": model.provider,
            "model": model.id,
            "usage": empty_usage(),
            "stopReason": "pending",
            "timestamp": int(time.time() * 1000),
        }
        self._open: set[int] = set()
        self._args_text: dict[int, str] = {}

    # --- lifecycle ---------------------------------------------------------------------------

    def start(self) -> None:
        if not self.started:
            self.started = True
            self._emit({"type": "start", "partial": self.message})

    def set_usage(self, input: int, output: int, cache_read: int = 0, cache_write: int = 0) -> None:
        self.message["usage"] = make_usage(self.model, input, output, cache_read, cache_write)

    def end_all(self) -> None:
        """Close every open block, in content order (what pi's OpenAI adapter does at the end)."""
        for index in sorted(self._open):
            self.end_block(index)

    def finish(self, reason: Literal["stop", "length", "toolUse"]) -> AssistantMessage:
        self.start()
        self.end_all()
        self.message["stopReason"] = reason
        self.ended = True
        self._emit({"type": "done", "reason": reason, "message": self.message})
        return self.message

    def fail(self, reason: Literal["error", "aborted"], error_message: str) -> AssistantMessage:
        """End with an error: blocks stay as far as they got, ``errorMessage`` goes last."""
        self.message["stopReason"] = reason
        self.message.pop("errorMessage", None)
        self.message["errorMessage"] = error_message
        self.ended = True
        self._emit({"type": "error", "reason": reason, "error": self.message})
        return self.message

    # --- blocks ------------------------------------------------------------------------------

    def _push(self, block: TextContent | ThinkingContent | ToolCall) -> int:
        self.message["content"].append(block)
        index = len(self.message["content"]) - 1
        self._open.add(index)
        return index

    def text_start(self, text: str = "") -> int:
        index = self._push({"type": "text", "text": text})
        self._emit({"type": "text_start", "contentIndex": index, "partial": self.message})
        return index

    def text_delta(self, index: int, delta: str) -> None:
        block = cast(TextContent, self.message["content"][index])
        block["text"] += delta
        self._emit({"type": "text_delta", "contentIndex": index, "delta": delta, "partial": self.message})

    def thinking_start(self, thinking: str = "", signature: str | None = None, redacted: bool = False) -> int:
        block: ThinkingContent = {"type": "thinking", "thinking": thinking}
        if signature is not None:
            block["thinkingSignature"] = signature
        if redacted:
            block["redacted"] = True
        index = self._push(block)
        self._emit({"type": "thinking_start", "contentIndex": index, "partial": self.message})
        return index

    def thinking_delta(self, index: int, delta: str) -> None:
        block = cast(ThinkingContent, self.message["content"][index])
        block["thinking"] += delta
        self._emit({"type": "thinking_delta", "contentIndex": index, "delta": delta, "partial": self.message})

    def thinking_signature(self, index: int, piece: str) -> None:
        block = cast(ThinkingContent, self.message["content"][index])
        block["thinkingSignature"] = block.get("thinkingSignature", "") + piece

    def toolcall_start(self, call_id: str, name: str, arguments: dict[str, Any] | None = None) -> int:
        block: ToolCall = {"type": "toolCall", "id": call_id, "name": name, "arguments": arguments or {}}
        index = self._push(block)
        self._args_text[index] = ""
        self._emit({"type": "toolcall_start", "contentIndex": index, "partial": self.message})
        return index

    def toolcall_delta(self, index: int, delta: str) -> None:
        """Append raw argument JSON; ``arguments`` shows the best parse of the text so far."""
        text = self._args_text.get(index, "") + delta
        self._args_text[index] = text
        block = cast(ToolCall, self.message["content"][index])
        if delta and len(text) <= _PREVIEW_LIMIT:
            block["arguments"] = parse_partial_arguments(text)
        self._emit({"type": "toolcall_delta", "contentIndex": index, "delta": delta, "partial": self.message})

    def tool_block(self, index: int) -> ToolCall:
        return cast(ToolCall, self.message["content"][index])

    def end_block(self, index: int) -> None:
        if index not in self._open:
            return
        self._open.discard(index)
        block = self.message["content"][index]
        if block["type"] == "text":
            self._emit({"type": "text_end", "contentIndex": index, "content": block["text"],
                        "partial": self.message})
        elif block["type"] == "thinking":
            self._emit({"type": "thinking_end", "contentIndex": index, "content": block["thinking"],
                        "partial": self.message})
        else:
            text = self._args_text.pop(index, "")
            if text.strip():
                arguments, problem = parse_tool_arguments(text)
                block["arguments"] = arguments
                if problem is not None:
                    cast(dict[str, Any], block)["argumentsError"] = problem
            self._emit({"type": "toolcall_end", "contentIndex": index, "toolCall": block,
                        "partial": self.message})
