"""Context-overflow detection, and the message preparation both SDK providers share."""

from __future__ import annotations

from typing import Any

import pytest

from pi_memory.providers import Context, Model, is_context_overflow, prepare_messages, system_prompt_text


def failed(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [], "stopReason": "error", "errorMessage": text,
            "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}}


@pytest.mark.parametrize("text", [
    "400 invalid_request_error: prompt is too long: 213462 tokens > 200000 maximum",
    '413 {"error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}',
    "400 invalid_request_error: Your input exceeds the context window of this model.",
    "400: This model's maximum context length is 8192 tokens. However, you requested 9000 tokens",
    "400: Input length (265330) exceeds model's maximum context length (262144).",
    "400: the request exceeds the available context size, try increasing it",
    "500: prompt too long; exceeded max context length by 1200 tokens",
    "400: tokens to keep from the initial prompt is greater than the context length",
    "Unhandled stop reason: model_context_window_exceeded",
    "400 invalid_request_error: bad [context_length_exceeded]",
    "413 status code (no body)",
])
def test_overflow_wordings(text: str) -> None:
    assert is_context_overflow(failed(text))


@pytest.mark.parametrize("text", [
    "429 rate_limit_error: Rate limit exceeded: too many tokens per minute",
    "401 authentication_error: invalid x-api-key",
    "Connection error: All connection attempts failed",
    "529 overloaded_error: Overloaded",
])
def test_not_overflow(text: str) -> None:
    assert not is_context_overflow(failed(text))


def test_silent_overflow_needs_the_context_window() -> None:
    ok = {"stopReason": "stop", "usage": {"input": 150_000, "output": 10, "cacheRead": 60_000}}
    assert not is_context_overflow(ok)
    assert is_context_overflow(ok, context_window=200_000)
    assert not is_context_overflow(ok, context_window=300_000)
    filled = {"stopReason": "length", "usage": {"input": 127_000, "output": 0, "cacheRead": 1000}}
    assert is_context_overflow(filled, context_window=128_000)
    assert not is_context_overflow({"stopReason": "aborted", "errorMessage": "prompt is too long"})


MODEL = Model(id="m", name="m", api="openai-completions", provider="p", base_url="http://x", input=("text",))


def test_text_only_models_get_image_placeholders() -> None:
    image = {"type": "image", "data": "AA", "mimeType": "image/png"}
    out = prepare_messages(Context(messages=[
        {"role": "user", "content": [{"type": "text", "text": "see"}, image, image], "timestamp": 1},
        {"role": "toolResult", "toolCallId": "c", "toolName": "t", "content": [image], "isError": False,
         "timestamp": 2},
    ]), MODEL)
    assert out[0]["content"] == [{"type": "text", "text": "see"},
                                 {"type": "text", "text": "(image omitted: model does not support images)"}]
    assert out[1]["content"] == [{"type": "text", "text": "(tool image omitted: model does not support images)"}]


def test_foreign_thinking_is_dropped_and_ids_renamed_consistently() -> None:
    foreign = {"role": "assistant", "api": "anthropic-messages", "provider": "anthropic", "model": "claude",
               "stopReason": "toolUse", "timestamp": 1, "content": [
                   {"type": "thinking", "thinking": "secret", "thinkingSignature": "sig"},
                   {"type": "text", "text": "hi", "textSignature": "t"},
                   {"type": "toolCall", "id": "a|b", "name": "t", "arguments": {}, "thoughtSignature": "g"}]}
    result = {"role": "toolResult", "toolCallId": "a|b", "toolName": "t", "content": [], "isError": False,
              "timestamp": 2}
    out = prepare_messages(Context(messages=[foreign, result]), MODEL, lambda i: i.replace("|", "_"))
    assert out[0]["content"] == [{"type": "text", "text": "hi"},
                                 {"type": "toolCall", "id": "a_b", "name": "t", "arguments": {}}]
    assert out[1]["toolCallId"] == "a_b"
    assert foreign["content"][2]["id"] == "a|b"  # the session's own dicts are never modified


def test_system_prompt_from_system_messages() -> None:
    messages = [{"role": "system", "content": "Base.", "sections": {"mem": "MEMORY: tea"}, "timestamp": 1},
                {"role": "user", "content": "hi", "timestamp": 2},
                {"role": "system", "content": "Also this.", "timestamp": 3}]
    assert system_prompt_text(Context(messages=messages)) == "Base.\n\nAlso this.\n\nMEMORY: tea"
    assert system_prompt_text(Context(system_prompt="Explicit", messages=messages)) == "Explicit"
    assert [m["role"] for m in prepare_messages(Context(messages=messages), MODEL)] == ["user"]
