"""Context-overflow detection (:mod:`pi_memory.providers.overflow`): every wording a provider uses."""

from __future__ import annotations

from typing import Any

import pytest

from pi_memory.providers import is_context_overflow


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
