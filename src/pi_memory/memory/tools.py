"""The four LLM tools over a :class:`MemoryStore`: ``memory_add``, ``memory_replace``,
``memory_remove`` and ``memory_read`` (pi-memory's names, parameters and order).

Each tool is a plain object a host can register (pi's fields: ``name``, ``label``,
``description``, ``parameters``, ``prompt_snippet``, ``prompt_guidelines``, ``execute``) plus an
``output_schema`` for MCP-style structured results. ``execute`` runs the blocking store call in
a worker thread, so a store waiting on another process's lock never stalls the event loop.

    tools = create_memory_tools(MemoryStore("/tmp/mem"))
    result = await tools["memory_add"](target="user", content="Prefers tabs")
    result.structured_content["success"]   # True
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from pi_memory.base.tools import TRUNCATION_SCHEMA, ToolBase, ToolResult, aborted, tool_result
from pi_memory.memory import guidance
from pi_memory.memory.store import TARGETS, MemoryStore

LABEL = "Memory"

_Runner = Callable[[MemoryStore, str, dict[str, str]], dict[str, Any]]


# ----------------------------------------------------------------------------- schemas


def _string(description: str) -> dict[str, Any]:
    return {"type": "string", "description": description}


def _params(**props: dict[str, Any]) -> dict[str, Any]:
    properties = {"target": {**_string(guidance.TARGET_DESCRIPTION), "enum": list(TARGETS)}, **props}
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


_ENTRY_LIST = {"type": "array", "items": {"type": "string"}}

#: JSON Schema of ``structured_content``, shared by all four tools.
OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "success": {"type": "boolean"},
        "target": {"type": "string", "enum": list(TARGETS)},
        "entries": {**_ENTRY_LIST, "description": "Live entries (at most 100; see truncated/total)."},
        "entryCount": {"type": "integer", "description": "Number of live entries, never clipped."},
        "usage": {"type": "string", "description": "'<pct>% — <used>/<limit> chars', or '<used>/<limit>'."},
        "message": {"type": "string"},
        "warning": {"type": "string"},
        "replacedEntry": {"type": "string", "description": "The whole entry a replace overwrote."},
        "removedEntry": {"type": "string", "description": "The whole entry a remove deleted."},
        "error": {
            "anyOf": [
                {"type": "string"},
                {
                    "type": "object",
                    "properties": {
                        "type": {"const": "output_limit"},
                        "message": {"type": "string"},
                        "limitBytes": {"type": "integer"},
                        "resultBytes": {"type": "integer"},
                        "field": {"type": "string"},
                        "index": {"type": "integer"},
                        "recordBytes": {"type": "integer"},
                        "cause": {"type": "string"},
                    },
                    "required": ["type", "message", "limitBytes", "resultBytes"],
                },
            ]
        },
        "currentEntries": _ENTRY_LIST,
        "matches": _ENTRY_LIST,
        "driftBackup": {"type": "string"},
        "remediation": {"type": "string"},
        "retryable": {"type": "boolean", "description": "True when the store was busy; retry later."},
        **copy.deepcopy(TRUNCATION_SCHEMA),
    },
    "required": ["success"],
    "anyOf": [
        {
            "properties": {"success": {"const": True}},
            "required": ["success", "target", "entries", "entryCount", "usage"],
        },
        {"properties": {"success": {"const": False}}, "required": ["success", "error"]},
    ],
}


# ----------------------------------------------------------------------------- the tool


@dataclass(frozen=True)
class MemoryTool(ToolBase):
    """One memory tool bound to a store; ``await tool(target=..., ...)`` runs it."""

    name: str
    description: str
    parameters: dict[str, Any]
    prompt_snippet: str
    store: MemoryStore = field(repr=False)
    _run: _Runner = field(repr=False)
    prompt_guidelines: tuple[str, ...] = ()
    label: str = LABEL
    output_schema: dict[str, Any] = field(default_factory=lambda: copy.deepcopy(OUTPUT_SCHEMA), repr=False)
    #: pi's ``executionMode``: a host runs a batch holding a memory call one call at a time, so
    #: the writes land in the order the model asked for them (the store calls run in threads).
    execution_mode: str = "sequential"

    async def run(self, params: Mapping[str, Any], signal: Any = None) -> ToolResult:
        """Validate ``target``, run the store call in a worker thread, shape the result."""
        if aborted(signal):
            return tool_result({"success": False, "error": "Cancelled before running; nothing was changed."})
        return await asyncio.to_thread(self.run_sync, params)

    def run_sync(self, params: Mapping[str, Any]) -> ToolResult:
        """The same call in this thread: what a synchronous agent loop (or ``run`` in a worker) uses."""
        target = params.get("target")
        if not isinstance(target, str):
            got = "nothing" if target is None else f"a value of type {type(target).__name__}"
            return tool_result({"success": False, "error": f"Invalid target: expected 'memory' or 'user', got {got}."})
        args = {name: _as_text(params.get(name)) for name in self.parameters["properties"] if name != "target"}
        result = self._run(self.store, target, args)
        return tool_result(result, next_step=_next_step(self.name, result, target))

    async def __call__(self, **params: Any) -> ToolResult:
        return await self.execute(f"direct-{self.name}", params)

    def to_openai(self) -> dict[str, Any]:
        """The OpenAI (Chat Completions) function-tool definition."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }

    def to_openai_responses(self) -> dict[str, Any]:
        """The OpenAI Responses API function-tool definition (flat: no nested ``function``)."""
        return {"type": "function", "name": self.name, "description": self.description, "parameters": self.parameters}

    def to_anthropic(self) -> dict[str, Any]:
        """The Anthropic Messages API tool definition (``input_schema``)."""
        return {"name": self.name, "description": self.description, "input_schema": copy.deepcopy(self.parameters)}


def _as_text(value: Any) -> str:
    """pi-memory's coercion: missing or null becomes "", anything else ``str(value)``."""
    return "" if value is None else value if isinstance(value, str) else str(value)


def _next_step(name: str, result: Mapping[str, Any], target: str) -> str:
    """What to do when a result is too large to return (used only for ``output_limit``)."""
    if name != "memory_read" and result.get("success") is True:
        return (
            f"The {name} call itself succeeded ({result.get('message', 'done')}); do not repeat it. "
            f"Keep {target} entries short so they can be read back."
        )
    return (
        f"An entry in {target} is too long to show. Remove or replace it by a substring you know "
        "(memory_remove / memory_replace), or ask the user to inspect the file with `pi-memory read`."
    )


def _add(store: MemoryStore, target: str, args: dict[str, str]) -> dict[str, Any]:
    return store.add(target, args["content"])


def _replace(store: MemoryStore, target: str, args: dict[str, str]) -> dict[str, Any]:
    return store.replace(target, args["oldText"], args["newContent"])


def _remove(store: MemoryStore, target: str, args: dict[str, str]) -> dict[str, Any]:
    return store.remove(target, args["oldText"])


def _read(store: MemoryStore, target: str, args: dict[str, str]) -> dict[str, Any]:
    return store.read(target)


# ----------------------------------------------------------------------------- tools


class MemoryTools(Sequence[MemoryTool]):
    """The four tools in order; also indexable by name (``tools["memory_read"]``)."""

    def __init__(self, tools: Sequence[MemoryTool]) -> None:
        self._tools = tuple(tools)

    @overload
    def __getitem__(self, key: int | str) -> MemoryTool: ...
    @overload
    def __getitem__(self, key: slice) -> Sequence[MemoryTool]: ...

    def __getitem__(self, key: int | str | slice) -> MemoryTool | Sequence[MemoryTool]:
        if isinstance(key, str):
            for tool in self._tools:
                if tool.name == key:
                    return tool
            raise KeyError(f"no memory tool named {key!r}; valid names: {', '.join(self.names)}")
        return self._tools[key]

    def __len__(self) -> int:
        return len(self._tools)

    def __iter__(self) -> Iterator[MemoryTool]:
        return iter(self._tools)

    def __repr__(self) -> str:
        return f"MemoryTools({list(self.names)})"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(tool.name for tool in self._tools)

    def to_openai(self) -> list[dict[str, Any]]:
        """Every tool as an OpenAI Chat Completions ``tools=`` entry."""
        return [tool.to_openai() for tool in self._tools]

    def to_openai_responses(self) -> list[dict[str, Any]]:
        """Every tool as an OpenAI Responses API ``tools=`` entry."""
        return [tool.to_openai_responses() for tool in self._tools]

    def to_anthropic(self) -> list[dict[str, Any]]:
        """Every tool as an Anthropic Messages API ``tools=`` entry."""
        return [tool.to_anthropic() for tool in self._tools]

    def call(self, name: str, arguments: str | Mapping[str, Any] | None = None) -> ToolResult:
        """Run tool ``name`` synchronously, for a hand-written agent loop.

        ``arguments`` is what the model sent: the JSON string of an OpenAI tool call, the ``input``
        dict of an Anthropic ``tool_use`` block, or ``None``. An unknown name or arguments that are
        not a JSON object come back as a failed result the model can read, never as an exception.
        """
        tool = next((t for t in self._tools if t.name == name), None)
        if tool is None:
            known = ", ".join(self.names)
            return tool_result({"success": False, "error": f"Unknown tool {name!r}. Available: {known}."})
        if isinstance(arguments, str | bytes):
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except ValueError as exc:
                return tool_result({"success": False, "error": f"Arguments are not valid JSON ({exc}); send an object "
                                    "such as {\"target\": \"memory\"}."})
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, Mapping):
            return tool_result({"success": False, "error": f"Arguments must be a JSON object, got "
                                f"{type(arguments).__name__}."})
        return tool.run_sync(arguments)


def create_memory_tools(store: MemoryStore) -> MemoryTools:
    """The four memory tools over ``store``, in pi-memory's order."""
    return MemoryTools(
        [
            MemoryTool(
                name="memory_add",
                description=guidance.ADD_DESCRIPTION,
                parameters=_params(content=_string(guidance.CONTENT_DESCRIPTION)),
                prompt_snippet=guidance.ADD_SNIPPET,
                prompt_guidelines=guidance.ADD_GUIDELINES,
                store=store,
                _run=_add,
            ),
            MemoryTool(
                name="memory_replace",
                description=guidance.REPLACE_DESCRIPTION,
                parameters=_params(
                    oldText=_string(guidance.OLD_TEXT_DESCRIPTION),
                    newContent=_string(guidance.NEW_CONTENT_DESCRIPTION),
                ),
                prompt_snippet=guidance.REPLACE_SNIPPET,
                store=store,
                _run=_replace,
            ),
            MemoryTool(
                name="memory_remove",
                description=guidance.REMOVE_DESCRIPTION,
                parameters=_params(oldText=_string(guidance.OLD_TEXT_DESCRIPTION)),
                prompt_snippet=guidance.REMOVE_SNIPPET,
                store=store,
                _run=_remove,
            ),
            MemoryTool(
                name="memory_read",
                description=guidance.READ_DESCRIPTION,
                parameters=_params(),
                prompt_snippet=guidance.READ_SNIPPET,
                store=store,
                _run=_read,
            ),
        ]
    )


__all__ = ["LABEL", "OUTPUT_SCHEMA", "MemoryTool", "MemoryTools", "ToolBase", "create_memory_tools"]
