"""Dispatch and composition: how handlers run and how their results combine (reference §3.3).

Rules shared by every event: extensions run in load order and each one's handlers in
registration order; every handler is awaited, one at a time; each emit gets a fresh ``ctx``; a
handler that raises is reported to the error listeners (the runtime shows it through
``ctx.ui``) and dispatch goes on. The one exception is ``tool_call``: an error there propagates
so the caller can block the tool (fail-safe). Event-specific combination rules live in the
``emit_*`` methods below, next to the event they serve.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import traceback
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pi_memory.backends import redact

from .events import BUILTIN_COMMANDS, SESSION_BEFORE_EVENTS, canonical_event
from .types import CommandDefinition, Event, ExtensionError, Handler, ToolDefinition, call_listeners, result_field
from .wrapper import positional_capacity

if TYPE_CHECKING:
    from .context import ExtensionContext

__all__ = ["Extension", "ExtensionRunner", "InputResult"]


_FAILED = object()  # a handler raised; its error is reported and dispatch goes on


@dataclass(slots=True)
class Extension:
    """One loaded extension: where it came from and what it registered."""

    path: str
    handlers: dict[str, list[Handler]] = field(default_factory=dict)
    tools: dict[str, ToolDefinition] = field(default_factory=dict)
    commands: dict[str, CommandDefinition] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class InputResult:
    """The combined ``input`` outcome: ``continue``, ``transform`` (with text/images) or ``handled``."""

    action: str
    text: str
    images: list[dict[str, Any]] | None = None


def adapt_handler(fn: Handler) -> Handler:
    """Let handlers take ``(event, ctx)``, ``(event)`` or nothing."""
    accepted, _ = positional_capacity(fn)
    if accepted is None or accepted >= 2:
        return fn
    if accepted == 1:
        return lambda event, ctx: fn(event)
    return lambda event, ctx: fn()


async def _call(handler: Handler, event: Event, ctx: Any) -> Any:
    result = handler(event, ctx)
    if inspect.isawaitable(result):
        result = await result
    return result


class ExtensionRunner:
    """Holds loaded extensions and their registrations; runs handlers by pi's rules."""

    def __init__(self) -> None:
        self.extensions: list[Extension] = []
        self.tools: dict[str, ToolDefinition] = {}
        self.commands: dict[str, CommandDefinition] = {}
        self.warnings: list[str] = []
        self.errors: list[ExtensionError] = []
        self._error_listeners: list[Callable[[ExtensionError], None]] = []
        self._warning_listeners: list[Callable[[str], None]] = []
        self._tool_listeners: list[Callable[[ToolDefinition], None]] = []
        self.context_factory: Callable[[], ExtensionContext] | None = None

    # --- registration ------------------------------------------------------------------------

    def add_extension(self, path: str) -> Extension:
        extension = Extension(path)
        self.extensions.append(extension)
        return extension

    def add_handler(self, extension: Extension, event: str, handler: Handler) -> None:
        if not callable(handler):
            raise TypeError(f"handler for {event!r} must be callable, got {type(handler).__name__}")
        extension.handlers.setdefault(canonical_event(event), []).append(adapt_handler(handler))

    def register_tool(self, extension: Extension, tool: ToolDefinition) -> bool:
        """First registration of a name wins; a later one is reported and ignored."""
        existing = self.tools.get(tool.name)
        if existing is not None:
            self.warn(f'Tool "{tool.name}" conflicts with {existing.source}; the one from {extension.path} '
                      "is ignored (first registration wins)")
            return False
        tool.source = extension.path
        extension.tools[tool.name] = tool
        self.tools[tool.name] = tool
        for listener in list(self._tool_listeners):
            listener(tool)
        return True

    def register_command(self, extension: Extension, command: CommandDefinition) -> bool:
        if command.name in BUILTIN_COMMANDS:
            self.warn(f'Command "/{command.name}" from {extension.path} conflicts with built-in command; skipped')
            return False
        existing = self.commands.get(command.name)
        if existing is not None:
            self.warn(f'Command "/{command.name}" conflicts with {existing.source}; the one from '
                      f"{extension.path} is ignored (first registration wins)")
            return False
        command.source = extension.path
        extension.commands[command.name] = command
        self.commands[command.name] = command
        return True

    # --- listeners ---------------------------------------------------------------------------

    def on_error(self, listener: Callable[[ExtensionError], None]) -> Callable[[], None]:
        self._error_listeners.append(listener)
        return lambda: self._error_listeners.remove(listener)

    def on_warning(self, listener: Callable[[str], None]) -> None:
        self._warning_listeners.append(listener)

    def on_tool_registered(self, listener: Callable[[ToolDefinition], None]) -> None:
        self._tool_listeners.append(listener)

    def emit_error(self, error: ExtensionError) -> None:
        self.errors.append(error)
        call_listeners(self._error_listeners, error)

    def warn(self, text: str) -> None:
        self.warnings.append(text)
        call_listeners(self._warning_listeners, text)

    def report(self, extension_path: str, event: str, exc: BaseException) -> None:
        # Scrubbed: a driver error escaping a handler may quote a DSN with its password.
        stack = redact("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
        self.emit_error(ExtensionError(extension_path, event, redact(str(exc)) or type(exc).__name__, stack))

    async def reported(self, extension_path: str, event: str, work: Awaitable[Any], failed: Any = None) -> Any:
        """``work``'s result, or ``failed`` once its error is reported to the error listeners: one
        extension's failure never stops the dispatch, turn or command it is part of."""
        try:
            return await work
        except Exception as exc:
            self.report(extension_path, event, exc)
            return failed

    # --- dispatch ----------------------------------------------------------------------------

    def has_handlers(self, event: str) -> bool:
        name = canonical_event(event)
        return any(ext.handlers.get(name) for ext in self.extensions)

    def _handlers(self, event: str) -> Iterator[tuple[Extension, Handler]]:
        """A snapshot, so handlers registered during dispatch wait for the next emit."""
        snapshot = [(ext, list(ext.handlers.get(event, ()))) for ext in self.extensions]
        for ext, handlers in snapshot:
            for handler in handlers:
                yield ext, handler

    async def _guarded(self, ext: Extension, name: str, handler: Handler, event: Event, ctx: Any) -> Any:
        """The handler's result, or ``_FAILED`` once its error is reported (dispatch goes on)."""
        return await self.reported(ext.path, name, _call(handler, event, ctx), _FAILED)

    def create_context(self) -> Any:
        return self.context_factory() if self.context_factory is not None else None

    async def emit(self, event: Event) -> Any:
        """Run every handler. For ``session_before_*``: ``{cancel: true}`` stops dispatch, otherwise
        the last truthy result wins. Other events ignore results."""
        name = event["type"]
        ctx = self.create_context()
        result: Any = None
        before = name in SESSION_BEFORE_EVENTS
        for ext, handler in self._handlers(name):
            value = await self._guarded(ext, name, handler, event, ctx)
            if value is _FAILED:
                continue
            if before and value:
                result = value
                if result_field(result, "cancel"):
                    return result
        return result

    async def emit_input(self, text: str, images: list[dict[str, Any]] | None, source: str) -> InputResult:
        """Transforms chain (omitted images keep the current ones); ``handled`` short-circuits."""
        ctx = self.create_context()
        current_text, current_images = text, images
        for ext, handler in self._handlers("input"):
            event = Event(type="input", text=current_text, images=current_images, source=source)
            value = await self._guarded(ext, "input", handler, event, ctx)
            if value is _FAILED:
                continue
            action = result_field(value, "action")
            if action == "handled":
                return InputResult("handled", current_text, current_images)
            if action == "transform":
                new_text = result_field(value, "text")
                current_text = new_text if isinstance(new_text, str) else current_text
                new_images = result_field(value, "images")
                current_images = new_images if new_images is not None else current_images
        changed = current_text != text or current_images is not images
        return InputResult("transform" if changed else "continue", current_text, current_images)

    async def emit_before_agent_start(
        self, prompt: str, images: list[dict[str, Any]] | None, system_prompt: str, ctx: Any = None
    ) -> tuple[list[dict[str, Any]], str | None]:
        """Messages accumulate; ``systemPrompt`` chains (empty string = not set). Returns
        ``(messages, system_prompt or None when no handler set one)``."""
        ctx = ctx if ctx is not None else self.create_context()
        messages: list[dict[str, Any]] = []
        current: str | None = None
        for ext, handler in self._handlers("before_agent_start"):
            event = Event(type="before_agent_start", prompt=prompt, images=images,
                          systemPrompt=current if current is not None else system_prompt)
            if ctx is not None:
                ctx._system_prompt_override = event["systemPrompt"]
            value = await self._guarded(ext, "before_agent_start", handler, event, ctx)
            if value is _FAILED:
                continue
            message = result_field(value, "message")
            if message:
                messages.append(dict(message))
            new_prompt = result_field(value, "systemPrompt")
            if isinstance(new_prompt, str) and new_prompt:
                current = new_prompt
        return messages, current

    async def emit_context(self, messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Handlers see a deep copy; a returned ``messages`` list (or in-place edits) chains."""
        ctx = self.create_context()
        current = copy.deepcopy(list(messages))
        for ext, handler in self._handlers("context"):
            visible = list(current)
            event = Event(type="context", messages=visible)
            value = await self._guarded(ext, "context", handler, event, ctx)
            if value is _FAILED:
                continue
            returned = result_field(value, "messages")
            if isinstance(returned, list):
                current = returned
            elif visible != current:
                current = visible
        return current

    async def run_command(self, name: str, args: str, context: Callable[[], Any]) -> bool:
        """``/name args``: the command's handler with a fresh ``context()``; its error is reported.
        False when there is no such command."""
        command = self.commands.get(name)
        if command is None:
            return False

        async def run() -> None:
            value = command.handler(args, context())
            if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):  # a Task too (ctx.compact())
                await value
        await self.reported(command.source, "command", run())
        return True

    async def emit_tool_call(self, event: Event) -> Any:
        """``{block: true}`` short-circuits. Errors are NOT caught: the caller blocks the tool."""
        ctx = self.create_context()
        result: Any = None
        for _ext, handler in self._handlers("tool_call"):
            value = await _call(handler, event, ctx)
            if value:
                result = value
                if result_field(value, "block"):
                    return result
        return result

    async def emit_tool_result(self, event: Event) -> dict[str, Any] | None:
        """Partial ``{content, details, structuredContent, isError}`` patches chain; each handler
        sees the latest values. None when no handler changed anything."""
        ctx = self.create_context()
        current = Event(event)
        modified = False
        for ext, handler in self._handlers("tool_result"):
            value = await self._guarded(ext, "tool_result", handler, Event(current), ctx)
            if value is _FAILED:
                continue
            if not value:
                continue
            for key in ("content", "details", "structuredContent", "isError"):
                patch = result_field(value, key)
                if patch is not None:
                    current[key] = patch
                    modified = True
                    if key == "content" and result_field(value, "structuredContent") is None:
                        current.pop("structuredContent", None)  # it may no longer match the content
        if not modified:
            return None
        return {k: current.get(k) for k in ("content", "details", "structuredContent", "isError")}

    async def emit_project_trust(self, cwd: str) -> Any:
        """The first handler that answers ``{trusted: bool, remember?}`` decides."""
        ctx = self.create_context()
        for ext, handler in self._handlers("project_trust"):
            value = await self._guarded(ext, "project_trust", handler, Event(type="project_trust", cwd=cwd), ctx)
            if value is _FAILED:
                continue
            if isinstance(result_field(value, "trusted"), bool):
                return value
        return None
