"""OpenAI Chat Completions, and every server that imitates it (Ollama, vLLM, llama.cpp server,
LM Studio, OpenRouter), through the official ``openai`` SDK.

Follows pi-ai's ``openai-completions`` adapter: the same message conversion, the same reading of
the streamed chunks (reasoning fields as thinking, tool-call deltas matched by index or id, usage
from the final chunk or from the choice), and the same stop-reason mapping. Two deliberate
tolerances: a reply with tool calls counts as ``toolUse`` even if the server said
``finish_reason: "stop"`` (older Ollama and llama.cpp builds do), and servers that never send
usage leave it at zero instead of failing.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Mapping
from typing import Any, Final, Literal, cast

from ._builder import MessageBuilder
from ._errors import ProviderError
from .base import BaseProvider
from .convert import prepare_messages, system_prompt_text
from .types import OPENAI_COMPLETIONS_API, Context, Model, StreamOptions

__all__ = ["OPENAI_COMPLETIONS_API", "OpenAICompletionsProvider", "build_request"]

_REASONING_FIELDS: Final = ("reasoning_content", "reasoning", "reasoning_text")
_NO_KEY: Final = "no-key"  # the SDK insists on a key; keyless local servers ignore this one


def _is_openai(model: Model) -> bool:
    return model.provider == "openai" or "api.openai.com" in model.base_url


def _is_openrouter(model: Model) -> bool:
    return model.provider == "openrouter" or "openrouter.ai" in model.base_url


def _compat(model: Model, key: str, default: Any) -> Any:
    value = model.compat.get(key)
    return default if value is None else value


# --- request ---------------------------------------------------------------------------------


def _call_id(model: Model) -> Any:
    def normalize(call_id: str) -> str:
        # OpenAI Responses ids look like "call_x|very-long-item-id"; Chat Completions wants <= 40.
        if "|" in call_id:
            call_id = re.sub(r"[^a-zA-Z0-9_-]", "_", call_id.split("|", 1)[0])
            return call_id[:40]
        return call_id[:40] if _is_openai(model) else call_id

    return normalize


def _image_part(block: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": f"data:{block.get('mimeType')};base64,{block.get('data')}"}}


def _user(message: Mapping[str, Any]) -> dict[str, Any] | None:
    content = message.get("content")
    if isinstance(content, str):
        return {"role": "user", "content": content}
    parts: list[dict[str, Any]] = []
    for block in content if isinstance(content, list) else []:
        if block.get("type") == "text" and block.get("text"):
            parts.append({"type": "text", "text": block["text"]})
        elif block.get("type") == "image":
            parts.append(_image_part(block))
    return {"role": "user", "content": parts} if parts else None


def _assistant(message: Mapping[str, Any]) -> dict[str, Any] | None:
    blocks = message.get("content") or []
    text = "".join(b["text"] for b in blocks if b.get("type") == "text" and str(b.get("text", "")).strip())
    result: dict[str, Any] = {"role": "assistant", "content": text or None}
    thinking = [b for b in blocks if b.get("type") == "thinking" and str(b.get("thinking", "")).strip()]
    # llama.cpp (gpt-oss) and others want their reasoning back in the field it came from.
    field = thinking[0].get("thinkingSignature") if thinking else None
    if field in _REASONING_FIELDS:
        result[str(field)] = "\n".join(b["thinking"] for b in thinking)
    calls = [b for b in blocks if b.get("type") == "toolCall"]
    if calls:
        result["tool_calls"] = [
            {"id": c.get("id"), "type": "function",
             "function": {"name": c.get("name"),
                          "arguments": json.dumps(c.get("arguments") or {}, ensure_ascii=False,
                                                  separators=(",", ":"))}}
            for c in calls
        ]
    if not text and not calls:
        return None  # an empty turn (e.g. aborted before any output) is rejected by most servers
    return result


def _tool_text(message: Mapping[str, Any]) -> str:
    content = message.get("content") or []
    text = "\n".join(b.get("text", "") for b in content if b.get("type") == "text")
    if text.strip():
        return text
    return "(see attached image)" if any(b.get("type") == "image" for b in content) else "(no tool output)"


def convert_messages(model: Model, context: Context) -> list[dict[str, Any]]:
    """pi messages → Chat Completions ``messages`` (system prompt first)."""
    out: list[dict[str, Any]] = []
    system = system_prompt_text(context)
    if system:
        role = "developer" if model.reasoning and _compat(model, "supportsDeveloperRole", _is_openai(model)) \
            else "system"
        out.append({"role": role, "content": system})
    messages = prepare_messages(context, model, _call_id(model))
    i = 0
    while i < len(messages):
        message = messages[i]
        role = message["role"]
        if role == "user":
            converted = _user(message)
            if converted is not None:
                out.append(converted)
        elif role == "assistant":
            converted = _assistant(message)
            if converted is not None:
                out.append(converted)
        elif role == "toolResult":
            images: list[dict[str, Any]] = []
            while i < len(messages) and messages[i]["role"] == "toolResult":
                result = messages[i]
                out.append({"role": "tool", "content": _tool_text(result), "tool_call_id": result.get("toolCallId")})
                if "image" in model.input:
                    images += [_image_part(b) for b in result.get("content") or [] if b.get("type") == "image"]
                i += 1
            if images:
                out.append({"role": "user",
                            "content": [{"type": "text", "text": "Attached image(s) from tool result:"}, *images]})
            continue
        i += 1
    return out


def build_request(model: Model, context: Context, options: StreamOptions) -> dict[str, Any]:
    """The JSON body sent to ``/chat/completions`` (minus what the SDK adds)."""
    params: dict[str, Any] = {"model": model.id, "messages": convert_messages(model, context), "stream": True}
    if _compat(model, "supportsUsageInStreaming", True):
        params["stream_options"] = {"include_usage": True}
    if _is_openai(model):
        params["store"] = False
    if options.max_tokens:
        default_field = "max_completion_tokens" if _is_openai(model) else "max_tokens"
        params[str(_compat(model, "maxTokensField", default_field))] = options.max_tokens
    if options.temperature is not None:
        params["temperature"] = options.temperature
    if context.tools:
        params["tools"] = [
            {"type": "function",
             "function": {"name": t["name"], "description": t["description"], "parameters": t["parameters"]}}
            for t in context.tools
        ]
    level = options.reasoning
    if model.reasoning and level and level != "off":
        if _is_openrouter(model):
            params["reasoning"] = {"effort": level}
        else:
            params["reasoning_effort"] = level
    return params


# --- response --------------------------------------------------------------------------------


def _usage(out: MessageBuilder, raw: Mapping[str, Any]) -> None:
    prompt = int(raw.get("prompt_tokens") or 0)
    details = raw.get("prompt_tokens_details") or {}
    cache_read = int(details.get("cached_tokens") or raw.get("prompt_cache_hit_tokens")
                     or raw.get("cached_tokens") or 0)
    cache_write = int(details.get("cache_write_tokens") or 0)
    out.set_usage(max(0, prompt - cache_read - cache_write), int(raw.get("completion_tokens") or 0),
                  cache_read, cache_write)


def _stop_reason(reason: str) -> tuple[Literal["stop", "length", "toolUse"] | None, str | None]:
    if reason in ("stop", "end"):
        return "stop", None
    if reason == "length":
        return "length", None
    if reason in ("tool_calls", "function_call"):
        return "toolUse", None
    return None, f"Provider finish_reason: {reason}"


class _ToolCalls:
    """Matches streamed tool-call fragments to blocks: by ``index`` when given, else by ``id``."""

    def __init__(self, out: MessageBuilder) -> None:
        self.out = out
        self.by_index: dict[int, int] = {}
        self.by_id: dict[str, int] = {}

    def feed(self, fragment: Mapping[str, Any]) -> None:
        stream_index = fragment.get("index")
        call_id = fragment.get("id") or ""
        function = fragment.get("function") or {}
        name = function.get("name") or ""
        block_index = self.by_index.get(stream_index) if isinstance(stream_index, int) else None
        if block_index is None and call_id:
            block_index = self.by_id.get(call_id)
        if block_index is None:
            block_index = self.out.toolcall_start(call_id, name)
        if isinstance(stream_index, int):
            self.by_index.setdefault(stream_index, block_index)
        block = self.out.tool_block(block_index)
        if call_id:
            self.by_id[call_id] = block_index
            if not block["id"]:
                block["id"] = call_id
        if name and not block["name"]:
            block["name"] = name
        self.out.toolcall_delta(block_index, function.get("arguments") or "")


class OpenAICompletionsProvider(BaseProvider):
    """Streams from any Chat Completions endpoint at ``model.base_url``."""

    api = OPENAI_COMPLETIONS_API

    async def _run(self, model: Model, context: Context, options: StreamOptions, out: MessageBuilder) -> None:
        from openai import AsyncOpenAI

        params = build_request(model, context, options)
        headers = {**model.headers, **(options.headers or {})}
        extra: dict[str, Any] = {}
        if options.timeout is not None:
            extra["timeout"] = options.timeout
        async with AsyncOpenAI(api_key=options.api_key or _NO_KEY, base_url=model.base_url,
                               default_headers=headers, max_retries=options.max_retries, **extra) as client:
            # Everything but the essentials goes through extra_body, so the wire carries exactly
            # build_request's fields, including ones the SDK does not type (OpenRouter's reasoning).
            body = {k: v for k, v in params.items() if k not in ("model", "messages", "stream")}
            stream = await client.chat.completions.create(
                model=model.id, messages=params["messages"], stream=True, extra_body=body)
            out.start()
            await self._read(cast(AsyncIterator[Any], stream), out)

    async def _read(self, stream: AsyncIterator[Any], out: MessageBuilder) -> None:
        text_index: int | None = None
        thinking_index: int | None = None
        calls = _ToolCalls(out)
        finish: str | None = None
        async for chunk in stream:
            data = chunk.to_dict(mode="json") if hasattr(chunk, "to_dict") else chunk
            if not isinstance(data, Mapping):
                continue
            choices = data.get("choices") or []
            choice = choices[0] if choices and isinstance(choices[0], Mapping) else {}
            usage = data.get("usage") or choice.get("usage")
            if isinstance(usage, Mapping):
                _usage(out, usage)
            if choice.get("finish_reason"):
                finish = str(choice["finish_reason"])
            delta = choice.get("delta") or {}
            # Reasoning first: some proxies put reasoning and answer in one delta.
            field = next((f for f in _REASONING_FIELDS if isinstance(delta.get(f), str) and delta[f]), None)
            if field is not None:
                if thinking_index is None:
                    thinking_index = out.thinking_start(signature=field)
                out.thinking_delta(thinking_index, delta[field])
            if isinstance(delta.get("content"), str) and delta["content"]:
                if text_index is None:
                    text_index = out.text_start()
                out.text_delta(text_index, delta["content"])
            for fragment in delta.get("tool_calls") or []:
                if isinstance(fragment, Mapping):
                    calls.feed(fragment)
        out.end_all()
        if finish is None:
            raise ProviderError("Stream ended without finish_reason")
        reason, problem = _stop_reason(finish)
        if reason is None:
            out.fail("error", problem or f"Provider finish_reason: {finish}")
            return
        if reason == "stop" and any(b["type"] == "toolCall" for b in out.message["content"]):
            reason = "toolUse"
        out.finish(reason)
