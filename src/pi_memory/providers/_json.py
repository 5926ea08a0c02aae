"""Tool-call arguments arrive as JSON text in pieces; these read them without ever raising.

While streaming, :func:`parse_partial_arguments` shows the best object the text so far allows
(for live previews). At the end, :func:`parse_tool_arguments` parses the whole text once; text
that is not a JSON object yields ``{}`` plus a description that keeps what the model sent, so the
tool layer can tell the model exactly what was wrong (pi's ``argumentsError``).
"""

from __future__ import annotations

import json
import re
from typing import Any

_CLOSERS = {"{": "}", "[": "]"}
_BAD_ESCAPE = re.compile(r'\\(?!["\\/bfnrtu])|\\u(?![0-9a-fA-F]{4})')


def _loads(text: str) -> Any:
    # strict=False accepts raw control characters inside strings, a common model slip.
    return json.loads(text, strict=False)


def parse_tool_arguments(text: str) -> tuple[dict[str, Any], str | None]:
    """The final arguments object and, if the text was not a JSON object, why not."""
    if not text.strip():
        return {}, None
    try:
        value = _loads(text)
    except ValueError as first:
        try:
            value = _loads(_BAD_ESCAPE.sub(r"\\\\", text))
        except ValueError:
            return {}, f"{first}\n\nReceived arguments:\n{text}"
    if not isinstance(value, dict):
        return {}, f"Tool arguments must be a JSON object\n\nReceived arguments:\n{text}"
    return value, None


def parse_partial_arguments(text: str) -> dict[str, Any]:
    """The object an unfinished JSON text describes so far; ``{}`` when there is none yet."""
    try:
        value = _loads(text)
    except ValueError:
        value = _complete(text)
    return value if isinstance(value, dict) else {}


def _complete(text: str) -> Any:
    """Close what is open; if that is not valid, cut back to the last complete member."""
    stack: list[str] = []
    cuts: list[tuple[int, str]] = []  # (prefix length, closers needed there)
    in_string = False
    escape_at = -1
    for i, char in enumerate(text):
        if in_string:
            if escape_at >= 0:
                if (i - escape_at == 1 and char != "u") or i - escape_at == 5:
                    escape_at = -1
            elif char == "\\":
                escape_at = i
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in _CLOSERS:
            stack.append(_CLOSERS[char])
            cuts.append((i + 1, "".join(reversed(stack))))
        elif char in "}]" and stack:
            stack.pop()
        elif char == "," and stack:
            cuts.append((i, "".join(reversed(stack))))
    tail = text
    if in_string:
        if escape_at >= 0:
            tail = tail[:escape_at]
        tail += '"'
    attempts = [(tail, "".join(reversed(stack)))]
    attempts += [(text[:length], closers) for length, closers in reversed(cuts[-3:])]
    for prefix, closers in attempts:
        try:
            return _loads(prefix + closers)
        except ValueError:
            continue
    return {}
