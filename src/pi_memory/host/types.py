"""The extension API surface: events, handlers, tools, commands, errors.

Payloads keep pi's camelCase keys (they are pi's events and end up in pi's files); :class:`Event`
also answers snake_case attribute access (``event.tool_name`` reads ``"toolName"``) so Python
extensions read naturally. Handler results may be dicts in either spelling or plain objects.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, TypeVar

__all__ = [
    "AbortSignal",
    "CommandDefinition",
    "Event",
    "ExecResult",
    "ExtensionError",
    "Handler",
    "NotifyLevel",
    "ToolDefinition",
    "ToolExecute",
    "call_listeners",
    "camel",
    "result_field",
    "snake",
]

NotifyLevel = Literal["info", "warning", "error"]

T = TypeVar("T")

_CAMEL = re.compile(r"_([a-z0-9])")
_SNAKE = re.compile(r"(?<!^)([A-Z])")


def camel(name: str) -> str:
    """``tool_call_id`` → ``toolCallId``."""
    return _CAMEL.sub(lambda m: m.group(1).upper(), name)


def snake(name: str) -> str:
    """``toolCallId`` → ``tool_call_id``."""
    return _SNAKE.sub(lambda m: "_" + m.group(1).lower(), name)


class Event(dict[str, Any]):
    """An event payload: a dict with pi's keys, readable as attributes in either spelling."""

    def __getattr__(self, name: str) -> Any:
        for key in (name, camel(name)):
            if key in self:
                return self[key]
        raise AttributeError(f"event {self.get('type')!r} has no field {name!r}; fields: {', '.join(self)}")


_MISSING: Any = object()


def result_field(result: Any, name: str, default: Any = None) -> Any:
    """Read ``name`` (camelCase) from a handler result: a mapping in either spelling, or attributes."""
    if result is None:
        return default
    if isinstance(result, Mapping):
        for key in (name, snake(name)):
            if key in result:
                return result[key]
        return default
    for key in (snake(name), name):
        value = getattr(result, key, _MISSING)
        if value is not _MISSING:
            return value
    return default


Handler: TypeAlias = Callable[..., Any]
"""``handler(event, ctx)`` or ``handler(event)``; sync or async. The return value matters only
for the events that say so (see ``docs/extensions.md``)."""

ToolExecute: TypeAlias = Callable[..., Any]


class AbortSignal(asyncio.Event):
    """pi's AbortSignal as an :class:`asyncio.Event` (what providers and tools already accept)."""

    @property
    def aborted(self) -> bool:
        return self.is_set()

    def abort(self) -> None:
        self.set()


@dataclass(slots=True)
class ToolDefinition:
    """A tool as the host keeps it, whatever shape it was registered in (see ``wrapper.adapt_tool``).

    ``execute`` is always normalised to pi's ``(tool_call_id, params, signal, on_update, ctx)``.
    """

    name: str
    description: str
    parameters: dict[str, Any]
    execute: ToolExecute
    label: str = ""
    prompt_snippet: str | None = None
    prompt_guidelines: Sequence[str] = ()
    output_schema: dict[str, Any] | None = None
    source: str = "<inline>"
    #: pi's ``executionMode``: "sequential" makes every batch that calls this tool run one call at a time.
    execution_mode: str = "parallel"

    def info(self) -> dict[str, Any]:
        """``{name, description, parameters}``, what ``get_all_tools`` returns."""
        return {"name": self.name, "description": self.description, "parameters": self.parameters}


@dataclass(slots=True)
class CommandDefinition:
    """A slash command: ``/name args`` runs ``handler(args, ctx)``."""

    name: str
    handler: Callable[..., Any]
    description: str | None = None
    get_argument_completions: Callable[[str], Sequence[str] | None] | None = None
    source: str = "<inline>"


@dataclass(frozen=True, slots=True)
class ExtensionError:
    """A handler or extension failure, as pi reports it to error listeners."""

    extension_path: str
    event: str
    error: str
    stack: str | None = None


@dataclass(frozen=True, slots=True)
class ExecResult:
    """What ``pi.exec`` resolves to."""

    stdout: str
    stderr: str
    code: int
    killed: bool = False


def call_listeners(listeners: Iterable[Callable[[T], object]], value: T) -> None:
    """Call every listener with ``value``, in order, on a snapshot (a listener may unsubscribe
    itself). One that raises is skipped: a broken front end or subscriber must neither stop the
    dispatch it watches nor starve the listeners after it."""
    for listener in list(listeners):
        with contextlib.suppress(Exception):
            listener(value)
