"""Is this assistant message a "context too long" failure? (pi-ai's ``isContextOverflow``.)

The host compacts and retries once when it is, so false positives cost a needless compaction and
false negatives leave the user stuck; hence one pattern per known server wording rather than a
loose "too long" match, and rate-limit wordings are excluded first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

__all__ = ["is_context_overflow"]

_OVERFLOW: Final = [
    re.compile(p, re.I)
    for p in (
        r"prompt (?:is )?too long",  # Anthropic: "prompt is too long: 213462 tokens > 200000 maximum"
        r"request_too_large",  # Anthropic 413 (request bytes)
        r"model_context_window_exceeded",  # Anthropic / z.ai stop reason surfaced as an error
        r"exceeds the context window",  # OpenAI
        r"maximum context length is \d+ tokens",  # OpenAI classic wording, OpenRouter, vLLM
        r"exceeds (?:the )?(?:model'?s )?maximum context length",  # LiteLLM, other proxies
        r"context[_ ]length[_ ]exceeded",  # OpenAI error code
        r"context window exceeded",  # LiteLLM pre-call check
        r"exceeds the available context size",  # llama.cpp server
        r"greater than the context length",  # LM Studio
        r"prompt too long; exceeded (?:max )?context length",  # Ollama
        r"input (?:length|tokens?) .*exceeds? .*(?:context|maximum)",  # vLLM / TGI variants
        r"input token count.*exceeds the maximum",  # Gemini behind a proxy
        r"maximum prompt length is \d+",  # xAI
        r"reduce the length of the messages",  # Groq
        r"is longer than the model'?s context length",  # Together
        r"too large for model with \d+ maximum context length",  # Mistral
        r"exceeded model token limit",  # Kimi
        r"context window exceeds limit",  # MiniMax
        r"too many tokens",
        r"token limit exceeded",
        r"^413(?:\s|:|$)",  # HTTP 413 at the start of our own error text
    )
]
_NOT_OVERFLOW: Final = [re.compile(p, re.I) for p in (r"rate limit", r"too many requests", r"throttl")]


def is_context_overflow(message: Mapping[str, Any], context_window: int | None = None) -> bool:
    """True when the message failed (or silently truncated) because the input was too long.

    With ``context_window`` given, a successful reply whose input usage exceeds the window also
    counts, for servers that accept oversized input without complaint.
    """
    stop = message.get("stopReason")
    error = message.get("errorMessage")
    if (stop == "error" and isinstance(error, str) and error
            and not any(p.search(error) for p in _NOT_OVERFLOW) and any(p.search(error) for p in _OVERFLOW)):
        return True
    if context_window and stop in ("stop", "length"):
        usage = message.get("usage")
        if isinstance(usage, Mapping):
            used = int(usage.get("input", 0) or 0) + int(usage.get("cacheRead", 0) or 0)
            if stop == "stop" and used > context_window:
                return True
            if stop == "length" and not usage.get("output") and used >= context_window * 0.99:
                return True
    return False
