"""Tool adaptation (:mod:`pi_memory.host.wrapper`): pi's and the guide's tool shapes become one
:class:`~pi_memory.host.ToolDefinition`, arguments are checked (and coerced) against the JSON
Schema as pi's validator does, and whatever ``execute`` returns becomes a ToolResult."""

from __future__ import annotations

from typing import Any

import pytest

from pi_memory.base.tools import ToolResult
from pi_memory.host.wrapper import (
    adapt_tool,
    normalize_result,
    positional_capacity,
    validate_arguments,
    validation_message,
)

SCHEMA = {
    "type": "object",
    "properties": {"query": {"type": "string"}, "topK": {"type": "integer"},
                   "mode": {"enum": ["fast", "deep"]}, "tags": {"type": "array", "items": {"type": "string"}}},
    "required": ["query"],
    "additionalProperties": False,
}


def test_execution_mode_is_checked() -> None:
    assert adapt_tool({"name": "t", "execute": lambda a: "x"}).execution_mode == "parallel"
    assert adapt_tool({"name": "t", "execute": lambda a: "x", "executionMode": "sequential"}).execution_mode \
        == "sequential"
    with pytest.raises(ValueError, match="'executionMode' must be"):
        adapt_tool({"name": "t", "execute": lambda a: "x", "executionMode": "serial"})


def test_valid_arguments_are_coerced_on_a_copy_the_model_never_sees_changed() -> None:
    given = {"query": "tea", "topK": "5", "tags": ["a", 1]}
    value, errors = validate_arguments(SCHEMA, given)
    assert errors == []
    assert value == {"query": "tea", "topK": 5, "tags": ["a", "1"]}
    assert given == {"query": "tea", "topK": "5", "tags": ["a", 1]}


def test_invalid_arguments_list_every_problem_in_pis_words() -> None:
    _, errors = validate_arguments(SCHEMA, {"topK": [], "mode": "slow", "extra": 1})
    assert errors == [
        "root: must have required property 'query'",
        "/topK: must be integer",
        "/mode: must be equal to one of the allowed values: \"fast\", \"deep\"",
        "root: must NOT have additional property 'extra'",
    ]
    message = validation_message("search", errors[:1], {"topK": []})
    assert message.startswith('Validation failed for tool "search":\n  - root: must have required property')
    assert message.endswith('Received arguments:\n{\n  "topK": []\n}')
    assert validate_arguments(None, None) == ({}, [])


def test_positional_capacity_tells_pi_style_from_guide_style_execute() -> None:
    def pi_style(tool_call_id: str, params: Any, signal: Any = None, on_update: Any = None, ctx: Any = None) -> None:
        return None

    assert positional_capacity(pi_style) == (5, 2)
    assert positional_capacity(lambda args: None) == (1, 1)
    assert positional_capacity(lambda *args: None) == (None, 0)


@pytest.mark.parametrize(("returned", "text", "structured", "is_error"), [
    ("plain text", "plain text", None, False),
    ({"content": [{"type": "text", "text": "t"}], "isError": True}, "t", None, True),
    ({"content": "s", "structuredContent": {"a": 1}}, "s", {"a": 1}, False),
    ({"found": 2}, '{\n  "found": 2\n}', {"found": 2}, False),
    (None, "", None, False),
])
def test_whatever_execute_returns_becomes_a_tool_result(returned: Any, text: str, structured: Any,
                                                       is_error: bool) -> None:
    result = normalize_result(returned)
    assert (result.text, result.structured_content, result.is_error) == (text, structured, is_error)
    same = ToolResult(content=[{"type": "text", "text": "x"}])
    assert normalize_result(same) is same
