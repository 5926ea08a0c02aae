"""A deterministic stand-in for an LLM, for tests and the offline demo.

It speaks the same event protocol as the real providers (text arrives word by word, tool-call
arguments as JSON pieces), so code under test exercises its streaming paths, yet every reply is
fixed in advance: a list consumed in order, or a function of the context. Nothing here is random;
tool-call ids are ``call_<turn>_<n>``.

A reply is a string, or a dict with any of ``text``, ``thinking``, ``tool_calls`` (a list of
``{"name", "arguments"}``; ``arguments`` may be a dict or raw JSON text, ``id`` optional),
``stop_reason`` ("stop", "length", "toolUse"), ``usage`` (``input``, ``output``, ``cacheRead``,
``cacheWrite``; estimated at 4 characters per token when absent) and ``error`` (the call fails
with that ``errorMessage``, after streaming any text given).
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
import math
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, Final, Literal, TypeAlias

from pi_memory.base import content_text

from ._builder import MessageBuilder
from .base import BaseProvider
from .types import SCRIPTED_API, Context, Model, ModelCost, StreamOptions

__all__ = ["SCRIPTED_API", "Reply", "ScriptFunction", "ScriptedProvider", "scripted_model"]


Reply: TypeAlias = str | Mapping[str, Any]
ScriptFunction: TypeAlias = Callable[[Context], Reply | Awaitable[Reply]]

_REPLY_KEYS: Final = frozenset({"text", "thinking", "tool_calls", "stop_reason", "usage", "error"})
_WORDS: Final = re.compile(r"\s*\S+\s*|\s+")
_ARG_PIECE: Final = 12


def scripted_model(model_id: str = "echo", context_window: int = 128_000) -> Model:
    """A model record for the scripted provider (free, labelled "scripted")."""
    return Model(id=model_id, name=f"Scripted ({model_id})", api=SCRIPTED_API, provider="scripted",
                 base_url="", context_window=context_window, max_tokens=16_384, cost=ModelCost())


def _estimate_tokens(chars: int) -> int:
    return math.ceil(chars / 4)


def _context_chars(context: Context) -> int:
    total = len(context.system_prompt or "")
    for message in context.messages:
        content = message.get("content")
        total += len(content_text(content))
        if isinstance(content, list):
            for block in content:
                if isinstance(block, Mapping) and block.get("type") == "thinking":
                    total += len(str(block.get("thinking", "")))
                elif isinstance(block, Mapping) and block.get("type") == "toolCall":
                    total += len(json.dumps(block.get("arguments", {})))
        for key in ("summary", "command", "output"):
            if isinstance(message.get(key), str):
                total += len(message[key])
    return total


def _pieces(text: str) -> list[str]:
    return _WORDS.findall(text) or ([text] if text else [])


class ScriptedProvider(BaseProvider):
    """Replies from a script. ``requests`` keeps a copy of every context it was asked with."""

    def __init__(self, script: Iterable[Reply] | ScriptFunction, *, delay: float = 0.0) -> None:
        self._function: ScriptFunction | None = script if callable(script) else None
        self._replies: list[Reply] = [] if callable(script) else list(script)
        self._delay = delay
        self.requests: list[Context] = []

    @classmethod
    def echo(cls) -> ScriptedProvider:
        """Answers every prompt with "You said: <last user text>" — the offline demo's model."""

        def reply(context: Context) -> Reply:
            for message in reversed(context.messages):
                if message.get("role") == "user":
                    return f"You said: {content_text(message.get('content'), ' ')}"
            return "Hello from the scripted provider."

        return cls(reply)

    @property
    def remaining(self) -> int:
        """Replies not used yet (0 for a function script, which never runs out)."""
        return 0 if self._function is not None else len(self._replies) - len(self.requests)

    async def _next_reply(self, context: Context) -> Reply | None:
        turn = len(self.requests)
        self.requests.append(copy.deepcopy(context))
        if self._function is not None:
            result = self._function(context)
            return await result if inspect.isawaitable(result) else result
        return self._replies[turn] if turn < len(self._replies) else None

    async def _pause(self) -> None:
        await asyncio.sleep(self._delay)

    async def _run(self, model: Model, context: Context, options: StreamOptions, out: MessageBuilder) -> None:
        reply = await self._next_reply(context)
        if reply is None:
            used = len(self._replies)
            out.fail("error", f"The scripted provider has no reply left: its script held {used} "
                              f"repl{'y' if used == 1 else 'ies'} and all were used. Give ScriptedProvider "
                              "more replies, or a function that computes them.")
            return
        spec: Mapping[str, Any] = {"text": reply} if isinstance(reply, str) else reply
        unknown = sorted(set(spec) - _REPLY_KEYS)
        if unknown:
            out.fail("error", f"Scripted reply has unknown keys {unknown}; allowed: {sorted(_REPLY_KEYS)}")
            return
        turn = len(self.requests)
        out.start()
        output_chars = 0
        blocks: tuple[tuple[str, Callable[[], int], Callable[[int, str], None]], ...] = (
            ("thinking", out.thinking_start, out.thinking_delta), ("text", out.text_start, out.text_delta))
        for key, open_block, delta in blocks:
            if spec.get(key):  # thinking first, then text, each streamed in pieces
                text = str(spec[key])
                index = open_block()
                for piece in _pieces(text):
                    await self._pause()
                    delta(index, piece)
                output_chars += len(text)
                out.end_block(index)
        calls = spec.get("tool_calls") or []
        for n, call in enumerate(calls, 1):
            raw = call.get("arguments", {})
            text = raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False)
            index = out.toolcall_start(str(call.get("id") or f"call_{turn}_{n}"), str(call.get("name", "")))
            for start in range(0, len(text), _ARG_PIECE):
                await self._pause()
                out.toolcall_delta(index, text[start:start + _ARG_PIECE])
            output_chars += len(text)
            out.end_block(index)
        usage = spec.get("usage") or {}
        out.set_usage(
            int(usage.get("input", _estimate_tokens(_context_chars(context)))),
            int(usage.get("output", _estimate_tokens(output_chars))),
            int(usage.get("cacheRead", 0)),
            int(usage.get("cacheWrite", 0)),
        )
        if spec.get("error"):
            out.fail("error", str(spec["error"]))
            return
        stop = spec.get("stop_reason") or ("toolUse" if calls else "stop")
        reasons: dict[str, Literal["stop", "length", "toolUse"]] = {
            "stop": "stop", "length": "length", "toolUse": "toolUse"}
        if stop in reasons:
            out.finish(reasons[stop])
        else:
            out.fail("error", f"Scripted stop_reason must be stop, length or toolUse, not {stop!r}; "
                              "use the 'error' key for failures")
