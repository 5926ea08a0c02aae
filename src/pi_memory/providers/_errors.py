"""Turn whatever a provider call raised into the one-line ``errorMessage`` pi records.

The text has to serve two readers: a person (what went wrong, what to change) and
:func:`is_context_overflow` (the server's own wording must survive, status first).
"""

from __future__ import annotations

import json
import re
from typing import Any

_MAX = 4000


class ProviderError(Exception):
    """A failure a provider detected itself (bad stop reason, missing finish_reason, ...)."""


def _clip(text: str) -> str:
    return text if len(text) <= _MAX else f"{text[:_MAX]}... [truncated {len(text) - _MAX} chars]"


def _http_text(status: int, body: Any) -> str:
    if body is None or body == "" or body == {}:
        return f"{status} status code (no body)"
    if isinstance(body, dict):
        nested = body.get("error")
        inner: dict[str, Any] = nested if isinstance(nested, dict) else body
        message = inner.get("message")
        if isinstance(message, str) and message:
            label = inner.get("type")
            code = inner.get("code")
            text = f"{status} {label}: {message}" if isinstance(label, str) and label else f"{status}: {message}"
            if isinstance(code, str) and code and code not in text:
                text += f" [{code}]"
            return text
        return f"{status}: {json.dumps(body, ensure_ascii=False)}"
    return f"{status}: {body}"


def _cause_detail(exc: BaseException) -> str | None:
    deepest: BaseException | None = None
    current = exc.__cause__ or exc.__context__
    for _ in range(5):
        if current is None:
            break
        deepest = current
        current = current.__cause__ or current.__context__
    if deepest is None:
        return None
    return str(deepest).strip() or type(deepest).__name__


_CONNECTION_WORDS = ("Connection error", "Request timed out")  # what the openai and anthropic SDKs say
_HOST_WORDING = re.compile(r"(?:Connection to \S+ failed|Request to \S+ timed out)\b")


def is_connection_error(message: str) -> bool:
    """True for an ``errorMessage`` that says the endpoint could not be reached (refused, DNS, timeout).

    Besides the classic SDK wording, anthropic 2.x says "Connection to HOST failed: ..." and
    "Request to HOST timed out ...", which sessions written by other programs may carry."""
    if any(words in message for words in _CONNECTION_WORDS):
        return True
    return _HOST_WORDING.match(message) is not None


def _sdk_kind(exc: BaseException) -> str | None:
    """``"timeout"`` or ``"connection"`` for the SDKs' connection errors (both SDKs name the
    classes alike; matched by name so neither SDK has to be importable)."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    if "APITimeoutError" in names:
        return "timeout"
    return "connection" if "APIConnectionError" in names else None


def _with_kind(exc: BaseException, message: str) -> str:
    """Lead a connection failure with the words every reader of ``errorMessage`` looks for,
    whatever the SDK release worded it as (newer ones name the host and the reason instead)."""
    kind = _sdk_kind(exc)
    if kind == "timeout" and not message.startswith(_CONNECTION_WORDS[1]):
        return f"{_CONNECTION_WORDS[1]}: {message}"
    if kind == "connection" and not message.startswith(_CONNECTION_WORDS[0]):
        return f"{_CONNECTION_WORDS[0]}: {message}"
    return message


def _url(exc: BaseException) -> str | None:
    """The URL the SDK was calling (its errors carry the ``httpx.Request``), if known."""
    url = getattr(getattr(exc, "request", None), "url", None)
    return str(url) if url is not None else None


def describe_error(exc: BaseException) -> str:
    """``errorMessage`` text for an exception raised while talking to a provider.

    A connection failure or a 404 names the URL it tried, because the usual cause is an endpoint
    setting (``baseUrl``, ``OPENAI_BASE_URL``, ``--base-url``) pointing at the wrong place.
    """
    status = getattr(exc, "status_code", None)
    url = _url(exc)
    if isinstance(status, int):
        text = _http_text(status, getattr(exc, "body", None))
        return _clip(f"{text} ({url})" if status == 404 and url else text)
    if isinstance(exc, ProviderError):
        return _clip(str(exc))
    if isinstance(exc, json.JSONDecodeError):
        return _clip(f"Malformed JSON from provider: {exc}")
    message = _with_kind(exc, str(exc).strip().rstrip(".") or type(exc).__name__)
    if url and url not in message:
        message = f"{message} to {url}"
    detail = _cause_detail(exc)
    if detail and detail not in message:
        message = f"{message}: {detail}"
    return _clip(message)
