"""Anthropic Messages through the official ``anthropic`` SDK, following pi-ai's adapter.

What matters for compatibility with pi sessions: thinking blocks keep their signatures (Anthropic
rejects replayed thinking without them, so unsigned thinking goes back as plain text), consecutive
tool results travel in one user message, tool-call ids from other providers are rewritten to
Anthropic's alphabet, and prompt caching is requested the way pi requests it (system prompt, last
tool, last user block) so costs match.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Mapping
from typing import Any, Final, Literal, cast

from ._builder import MessageBuilder
from ._errors import ProviderError
from .base import BaseProvider
from .convert import prepare_messages, system_prompt_text
from .types import ANTHROPIC_MESSAGES_API, Context, Model, StreamOptions, ThinkingLevel

__all__ = ["ANTHROPIC_MESSAGES_API", "AnthropicMessagesProvider", "build_request"]

_CACHE: Final = {"type": "ephemeral"}
_THINKING_BUDGETS: Final[dict[str, int]] = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384,
                                            "xhigh": 16384}
_MIN_ANSWER_TOKENS: Final = 1024
_NO_KEY: Final = "no-key"


def _tool_use_id(call_id: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_-]", "_", call_id)[:64]


def _image(block: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": block.get("mimeType"),
                                        "data": block.get("data")}}


def _result_content(content: list[Any]) -> str | list[dict[str, Any]]:
    if not any(b.get("type") == "image" for b in content):
        return "\n".join(b.get("text", "") for b in content if b.get("type") == "text")
    blocks = [_image(b) if b.get("type") == "image" else {"type": "text", "text": b.get("text", "")}
              for b in content]
    if not any(b["type"] == "text" for b in blocks):
        blocks.insert(0, {"type": "text", "text": "(see attached image)"})
    return blocks


def _tool_results(results: list[dict[str, Any]]) -> dict[str, Any]:
    """One user message for a run of tool results. Images of error results go after all of
    them: Anthropic accepts only text inside an error result."""
    blocks: list[dict[str, Any]] = []
    trailing: list[dict[str, Any]] = []
    for result in results:
        content = list(result.get("content") or [])
        if result.get("isError") and any(b.get("type") == "image" for b in content):
            images = [b for b in content if b.get("type") == "image"]
            content = [b for b in content if b.get("type") != "image"]
            content.append({"type": "text", "text": "(image attached after the tool results)"})
            trailing.append({"type": "text", "text": f"Images from the error result of tool call "
                                                     f"{result.get('toolCallId')} ({result.get('toolName')}):"})
            trailing += [_image(b) for b in images]
        blocks.append({"type": "tool_result", "tool_use_id": result.get("toolCallId"),
                       "content": _result_content(content), "is_error": bool(result.get("isError"))})
    return {"role": "user", "content": blocks + trailing}


def _assistant(message: Mapping[str, Any]) -> dict[str, Any] | None:
    blocks: list[dict[str, Any]] = []
    for block in message.get("content") or []:
        kind = block.get("type")
        if kind == "text" and str(block.get("text", "")).strip():
            blocks.append({"type": "text", "text": block["text"]})
        elif kind == "thinking":
            signature = str(block.get("thinkingSignature") or "")
            if block.get("redacted"):
                blocks.append({"type": "redacted_thinking", "data": signature})
            elif signature.strip():
                blocks.append({"type": "thinking", "thinking": block.get("thinking", ""), "signature": signature})
            elif str(block.get("thinking", "")).strip():
                blocks.append({"type": "text", "text": block["thinking"]})
        elif kind == "toolCall":
            blocks.append({"type": "tool_use", "id": block.get("id"), "name": block.get("name"),
                           "input": block.get("arguments") or {}})
    return {"role": "assistant", "content": blocks} if blocks else None


def _user(message: Mapping[str, Any]) -> dict[str, Any] | None:
    content = message.get("content")
    if isinstance(content, str):
        return {"role": "user", "content": content} if content.strip() else None
    blocks = [
        _image(b) if b.get("type") == "image" else {"type": "text", "text": b.get("text", "")}
        for b in (content if isinstance(content, list) else [])
        if b.get("type") == "image" or (b.get("type") == "text" and str(b.get("text", "")).strip())
    ]
    return {"role": "user", "content": blocks} if blocks else None


def convert_messages(model: Model, context: Context) -> list[dict[str, Any]]:
    """pi messages → Anthropic ``messages``, with the cache breakpoint on the last user block."""
    out: list[dict[str, Any]] = []
    messages = prepare_messages(context, model, _tool_use_id)
    i = 0
    while i < len(messages):
        role = messages[i]["role"]
        if role == "toolResult":
            run: list[dict[str, Any]] = []
            while i < len(messages) and messages[i]["role"] == "toolResult":
                run.append(messages[i])
                i += 1
            out.append(_tool_results(run))
            continue
        converted = _user(messages[i]) if role == "user" else _assistant(messages[i])
        if converted is not None:
            out.append(converted)
        i += 1
    if out and out[-1]["role"] == "user":
        last = out[-1]
        if isinstance(last["content"], str):
            last["content"] = [{"type": "text", "text": last["content"], "cache_control": dict(_CACHE)}]
        elif last["content"]:
            last["content"][-1]["cache_control"] = dict(_CACHE)
    return out


def _thinking_budget(model: Model, level: ThinkingLevel, max_tokens: int | None) -> tuple[int, int]:
    """(max_tokens, budget_tokens): thinking shares the output ceiling with the answer."""
    budget = _THINKING_BUDGETS.get(level, _THINKING_BUDGETS["medium"])
    ceiling = model.max_tokens if max_tokens is None else min(max_tokens + budget, model.max_tokens)
    return ceiling, min(budget, max(0, ceiling - _MIN_ANSWER_TOKENS))


def build_request(model: Model, context: Context, options: StreamOptions) -> dict[str, Any]:
    """The JSON body sent to ``/v1/messages``."""
    params: dict[str, Any] = {
        "model": model.id,
        "messages": convert_messages(model, context),
        "max_tokens": options.max_tokens or model.max_tokens,
        "stream": True,
    }
    system = system_prompt_text(context)
    if system:
        params["system"] = [{"type": "text", "text": system, "cache_control": dict(_CACHE)}]
    level = options.reasoning
    thinking = bool(model.reasoning and level and level != "off")
    if thinking and level is not None:
        params["max_tokens"], budget = _thinking_budget(model, level, options.max_tokens)
        params["thinking"] = {"type": "enabled", "budget_tokens": budget}
    elif model.reasoning and level == "off":
        params["thinking"] = {"type": "disabled"}
    if options.temperature is not None and not thinking:
        params["temperature"] = options.temperature
    if context.tools:
        tools: list[dict[str, Any]] = []
        for tool in context.tools:
            schema = tool["parameters"]
            input_schema: dict[str, Any] = {"type": "object", "properties": schema.get("properties", {}),
                                            "required": schema.get("required", [])}
            for key in ("additionalProperties", "$defs", "definitions"):
                if key in schema:
                    input_schema[key] = schema[key]
            tools.append({"name": tool["name"], "description": tool["description"], "input_schema": input_schema})
        tools[-1]["cache_control"] = dict(_CACHE)
        params["tools"] = tools
    return params


_STOP: Final[dict[str, Literal["stop", "length", "toolUse"]]] = {
    "end_turn": "stop", "stop_sequence": "stop", "pause_turn": "stop", "max_tokens": "length", "tool_use": "toolUse",
}


def _stop_problem(reason: str, details: Any) -> str:
    if reason == "refusal":
        explanation = details.get("explanation") if isinstance(details, Mapping) else None
        return str(explanation or "The model refused to complete the request")
    if reason == "sensitive":
        return "Provider stopped with: sensitive"
    return f"Unhandled stop reason: {reason}"


class AnthropicMessagesProvider(BaseProvider):
    """Streams from the Messages API at ``model.base_url`` (``https://api.anthropic.com``)."""

    api = ANTHROPIC_MESSAGES_API

    async def _run(self, model: Model, context: Context, options: StreamOptions, out: MessageBuilder) -> None:
        from anthropic import AsyncAnthropic

        params = build_request(model, context, options)
        extra: dict[str, Any] = {}
        if options.timeout is not None:
            extra["timeout"] = options.timeout
        async with AsyncAnthropic(api_key=options.api_key or _NO_KEY, base_url=model.base_url,
                                  default_headers={**model.headers, **(options.headers or {})},
                                  max_retries=options.max_retries, **extra) as client:
            # As with OpenAI, optional fields travel in extra_body: the wire gets exactly
            # build_request's JSON even where this SDK version no longer types a field.
            body = {k: v for k, v in params.items() if k not in ("model", "messages", "max_tokens", "stream")}
            stream = await client.messages.create(model=model.id, messages=params["messages"],
                                                  max_tokens=params["max_tokens"], stream=True, extra_body=body)
            out.start()
            await self._read(cast(AsyncIterator[Any], stream), out)

    async def _read(self, stream: AsyncIterator[Any], out: MessageBuilder) -> None:
        blocks: dict[int, int] = {}  # Anthropic block index -> our content index
        tokens = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}
        stop: str | None = None
        stop_details: Any = None

        def usage(raw: Any, only_present: bool) -> None:
            if not isinstance(raw, Mapping):
                return
            for ours, theirs in (("input", "input_tokens"), ("output", "output_tokens"),
                                 ("cacheRead", "cache_read_input_tokens"),
                                 ("cacheWrite", "cache_creation_input_tokens")):
                value = raw.get(theirs)
                if value is not None or not only_present:
                    tokens[ours] = int(value or 0)
            out.set_usage(tokens["input"], tokens["output"], tokens["cacheRead"], tokens["cacheWrite"])

        async for raw_event in stream:
            event = raw_event.to_dict(mode="json") if hasattr(raw_event, "to_dict") else raw_event
            kind = event.get("type")
            if kind == "message_start":
                usage((event.get("message") or {}).get("usage"), only_present=False)
            elif kind == "content_block_start":
                block = event.get("content_block") or {}
                index = self._open_block(out, block)
                if index is not None:
                    blocks[int(event.get("index", 0))] = index
            elif kind == "content_block_delta":
                index = blocks.get(int(event.get("index", 0)))
                if index is not None:
                    self._delta(out, index, event.get("delta") or {})
            elif kind == "content_block_stop":
                index = blocks.pop(int(event.get("index", 0)), None)
                if index is not None:
                    out.end_block(index)
            elif kind == "message_delta":
                delta = event.get("delta") or {}
                if delta.get("stop_reason"):
                    stop = str(delta["stop_reason"])
                    stop_details = delta.get("stop_details")
                usage(event.get("usage"), only_present=True)
        out.end_all()
        if stop is None:
            raise ProviderError("Anthropic stream ended without a stop reason")
        if stop in _STOP:
            out.finish(_STOP[stop])
        else:
            out.fail("error", _stop_problem(stop, stop_details))

    @staticmethod
    def _open_block(out: MessageBuilder, block: Mapping[str, Any]) -> int | None:
        kind = block.get("type")
        if kind == "text":
            return out.text_start(str(block.get("text") or ""))
        if kind == "thinking":
            return out.thinking_start(str(block.get("thinking") or ""), signature=str(block.get("signature") or ""))
        if kind == "redacted_thinking":
            return out.thinking_start("[Reasoning redacted]", signature=str(block.get("data") or ""), redacted=True)
        if kind == "tool_use":
            arguments = block.get("input")
            return out.toolcall_start(str(block.get("id") or ""), str(block.get("name") or ""),
                                      dict(arguments) if isinstance(arguments, Mapping) else {})
        return None  # server tools, citations...: not part of pi's message model

    @staticmethod
    def _delta(out: MessageBuilder, index: int, delta: Mapping[str, Any]) -> None:
        kind = delta.get("type")
        block_type = out.message["content"][index]["type"]
        if kind == "text_delta" and block_type == "text":
            out.text_delta(index, str(delta.get("text") or ""))
        elif kind == "thinking_delta" and block_type == "thinking":
            out.thinking_delta(index, str(delta.get("thinking") or ""))
        elif kind == "signature_delta" and block_type == "thinking":
            out.thinking_signature(index, str(delta.get("signature") or ""))
        elif kind == "input_json_delta" and block_type == "toolCall":
            out.toolcall_delta(index, str(delta.get("partial_json") or ""))
