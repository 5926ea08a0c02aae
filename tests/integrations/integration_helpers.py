"""Reading what the Anthropic SDK sent to the loopback server (tests/loopback.py, the ``server``
fixture): the ``tool_result`` blocks of the memory round trip and the ``system`` prompt."""

from __future__ import annotations

from typing import Any


def tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``tool_result`` blocks of a request's last user message."""
    last = request["messages"][-1]
    assert last["role"] == "user"
    return [block for block in last["content"] if block.get("type") == "tool_result"]


def result_text(block: dict[str, Any]) -> str:
    """A ``tool_result`` block's text, whether its content is a string or text blocks."""
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content or [])


def system_text(request: dict[str, Any]) -> str:
    system = request.get("system", "")
    return system if isinstance(system, str) else "".join(block.get("text", "") for block in system)

