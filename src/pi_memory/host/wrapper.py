"""Tool adaptation: one internal shape for tools registered in any dialect, argument validation
with AJV-style scalar coercion, and one result shape for whatever ``execute`` returns.

pi validates a *clone* of the model's arguments against the tool's JSON Schema with AJV
(``coerceTypes``) before any ``tool_call`` handler sees them. We implement the subset our tools
use — ``type`` (one or a list), ``properties``, ``required``, ``enum``, ``const``, ``items``,
``additionalProperties: false`` — rather than pull in a validator for it.
"""

from __future__ import annotations

import copy
import inspect
import json
import math
from collections.abc import Callable, Mapping
from typing import Any

from pi_memory.base.tools import ToolResult

from .types import ToolDefinition, result_field

__all__ = ["adapt_tool", "normalize_result", "positional_capacity", "validate_arguments", "validation_message"]

_JSON_TYPES = ("object", "array", "string", "number", "integer", "boolean", "null")


# ----------------------------------------------------------------------------- validation


def _type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def _matches(value: Any, kind: str) -> bool:
    actual = _type_of(value)
    return actual == kind or (kind == "number" and actual == "integer")


_NO: Any = object()


def _coerce(value: Any, kind: str) -> Any:
    """AJV's ``coerceTypes`` for scalars; ``_NO`` when not coercible."""
    actual = _type_of(value)
    if kind in ("number", "integer"):
        number: float | None = None
        if actual == "boolean":
            number = 1.0 if value else 0.0
        elif actual == "null":
            number = 0.0
        elif actual == "string" and value.strip() != "":
            try:
                number = float(value)
            except ValueError:
                return _NO
        if number is None or not math.isfinite(number):
            return _NO
        if kind == "integer" and not number.is_integer():
            return _NO
        return int(number) if number.is_integer() else number
    if kind == "string":
        if actual == "boolean":
            return "true" if value else "false"
        if actual in ("integer", "number"):
            return str(int(value)) if float(value).is_integer() else repr(value)
        if actual == "null":
            return ""
        return _NO
    if kind == "boolean":
        if value in ("true", 1, "1") and actual != "boolean":
            return True
        if value in ("false", 0, "0", None) and actual != "boolean":
            return False
        return _NO
    if kind == "null" and value in ("", 0, False) and actual != "null":
        return None
    return _NO


def _check(value: Any, schema: Any, path: str, errors: list[str]) -> Any:
    """Validate ``value`` against ``schema``; returns the (possibly coerced) value."""
    if not isinstance(schema, Mapping):
        return value
    declared = schema.get("type")
    kinds = [declared] if isinstance(declared, str) else [k for k in declared or [] if isinstance(k, str)]
    kinds = [k for k in kinds if k in _JSON_TYPES]
    if kinds and not any(_matches(value, k) for k in kinds):
        for kind in kinds:
            coerced = _coerce(value, kind)
            if coerced is not _NO:
                value = coerced
                break
        else:
            errors.append(f"{path or 'root'}: must be {' or '.join(kinds)}")
            return value
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path or 'root'}: must be equal to constant {json.dumps(schema['const'])}")
    enum = schema.get("enum")
    if isinstance(enum, list) and value not in enum:
        errors.append(f"{path or 'root'}: must be equal to one of the allowed values: "
                      + ", ".join(json.dumps(v) for v in enum))
    if isinstance(value, dict):
        properties = schema.get("properties")
        properties = properties if isinstance(properties, Mapping) else {}
        for name in schema.get("required") or []:
            if name not in value:
                errors.append(f"{path or 'root'}: must have required property '{name}'")
        for name, sub in properties.items():
            if name in value:
                value[name] = _check(value[name], sub, f"{path}/{name}", errors)
        if schema.get("additionalProperties") is False:
            for name in value:
                if name not in properties:
                    errors.append(f"{path or 'root'}: must NOT have additional property '{name}'")
    elif isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        for i, item in enumerate(value):
            value[i] = _check(item, schema["items"], f"{path}/{i}", errors)
    return value


def validate_arguments(schema: Mapping[str, Any] | None, arguments: Any) -> tuple[Any, list[str]]:
    """Validate a deep copy of ``arguments``; returns ``(coerced_copy, errors)``."""
    value = copy.deepcopy(arguments) if arguments is not None else {}
    errors: list[str] = []
    if schema:
        value = _check(value, schema, "", errors)
    return value, errors


def validation_message(tool_name: str, errors: list[str], arguments: Any) -> str:
    """The text the model gets back for invalid arguments (pi's wording)."""
    listed = "\n".join(f"  - {e}" for e in errors)
    received = json.dumps(arguments, indent=2, ensure_ascii=False, default=str)
    return f'Validation failed for tool "{tool_name}":\n{listed}\n\nReceived arguments:\n{received}'


# ----------------------------------------------------------------------------- adaptation


def positional_capacity(fn: Callable[..., Any]) -> tuple[int | None, int]:
    """(how many positional args ``fn`` accepts or None for *args, how many it requires)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None, 0
    accepted = required = 0
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            return None, required
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            accepted += 1
            if p.default is p.empty:
                required += 1
    return accepted, required


def _pi_style(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Call ``fn`` with as many of pi's ``(tool_call_id, params, signal, on_update, ctx)`` as it takes."""
    accepted, _ = positional_capacity(fn)

    def call(tool_call_id: str, params: Any, signal: Any = None, on_update: Any = None, ctx: Any = None) -> Any:
        args = (tool_call_id, params, signal, on_update, ctx)
        return fn(*(args if accepted is None else args[:accepted]))

    return call


def _guide_style(fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(tool_call_id: str, params: Any, signal: Any = None, on_update: Any = None, ctx: Any = None) -> Any:
        return fn(params)

    return call


def adapt_tool(tool: Any, source: str = "<inline>") -> ToolDefinition:
    """A :class:`ToolDefinition` from a ToolDefinition, a dict (pi or guide dialect), or an object
    with ``name``/``description``/``parameters``/``execute`` (e.g. a memory tool).

    A dict tool whose ``execute`` takes exactly one argument is the guide dialect: it is called
    with the arguments only. Everything else is called with pi's positional arguments.
    """
    if isinstance(tool, ToolDefinition):
        return tool
    name = result_field(tool, "name")
    execute = result_field(tool, "execute")
    if not isinstance(name, str) or not name:
        raise ValueError(f"a tool needs a non-empty string 'name' (got {name!r})")
    if not callable(execute):
        raise ValueError(f"tool {name!r} needs a callable 'execute'")
    parameters = result_field(tool, "parameters") or {"type": "object", "properties": {}}
    if not isinstance(parameters, Mapping):
        raise ValueError(f"tool {name!r}: 'parameters' must be a JSON Schema object")
    accepted, required = positional_capacity(execute)
    guide = isinstance(tool, Mapping) and accepted == 1 and required <= 1
    guidelines = result_field(tool, "promptGuidelines") or ()
    return ToolDefinition(
        name=name,
        description=str(result_field(tool, "description") or ""),
        parameters=dict(parameters),
        execute=_guide_style(execute) if guide else _pi_style(execute),
        label=str(result_field(tool, "label") or name),
        prompt_snippet=result_field(tool, "promptSnippet"),
        prompt_guidelines=tuple(str(g) for g in guidelines),
        output_schema=result_field(tool, "outputSchema"),
        source=source,
        execution_mode=_execution_mode(name, result_field(tool, "executionMode")),
    )


def _execution_mode(name: str, value: Any) -> str:
    if value is None:
        return "parallel"
    if value not in ("parallel", "sequential"):
        raise ValueError(f"tool {name!r}: 'executionMode' must be \"parallel\" or \"sequential\", got {value!r}")
    return str(value)


# ----------------------------------------------------------------------------- results


def _blocks(content: Any) -> list[dict[str, Any]]:
    if content is None:
        return []
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return [dict(b) if isinstance(b, Mapping) else {"type": "text", "text": str(b)} for b in content]
    return [{"type": "text", "text": str(content)}]


def normalize_result(value: Any) -> ToolResult:
    """Whatever ``execute`` returned → :class:`ToolResult`.

    Accepted: a ToolResult; pi's ``{content, details}`` (plus ``isError``/``is_error`` and
    ``structuredContent``/``structured_content``); a string (one text block); anything else JSON
    serialisable (its JSON as text, and as ``structured_content`` when it is an object).
    """
    if isinstance(value, ToolResult):
        return value
    if isinstance(value, Mapping) and "content" in value:
        structured = result_field(value, "structuredContent")
        return ToolResult(
            content=_blocks(value.get("content")),
            details=value.get("details"),
            structured_content=dict(structured) if isinstance(structured, Mapping) else None,
            is_error=bool(result_field(value, "isError", False)),
        )
    if isinstance(value, str):
        return ToolResult(content=_blocks(value))
    if value is None:
        return ToolResult(content=[])
    text = json.dumps(value, ensure_ascii=False, indent=2, default=str)
    return ToolResult(content=_blocks(text), structured_content=dict(value) if isinstance(value, Mapping) else None)
