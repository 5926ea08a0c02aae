"""The agent loop: model call → tool calls → results → model call … until the model stops.

The loop owns no conversation state: each model call sees the session's context as it is at that
moment (``hooks.context_messages``), so whatever was persisted — by the loop or by an extension —
is what the model reads next, as after a reload. Every message passes through ``message_start`` /
``message_end`` (the runtime persists on ``message_end``, like pi). Nothing here raises for what
the provider or a tool does: provider failures are assistant messages with ``stopReason``
"error"/"aborted", tool failures are ``isError`` results.

Tool calls of one assistant message run one after another, in order (pi runs them in parallel
and orders the results; sequential execution keeps handler and session order trivially equal).
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pi_memory.memory.results import ToolResult
from pi_memory.providers import Context, Model, Provider, StreamOptions, Tool

from .types import AbortSignal, Event, ToolDefinition, result_field
from .wrapper import normalize_result, validate_arguments, validation_message

__all__ = ["AgentHooks", "AgentRun", "LoopConfig", "now_ms", "run_agent_loop"]

BLOCKED_TEXT = "Tool execution was blocked"
SKIPPED_TEXT = "Skipped due to queued user message."
ABORTED_TEXT = "Tool execution was aborted"


def now_ms() -> int:
    return int(time.time() * 1000)


class AgentHooks(Protocol):
    """How the loop talks to its session runtime."""

    async def emit(self, event: Event) -> None:
        """Lifecycle events (extensions, listeners; ``message_end`` also persists)."""

    def context_messages(self) -> list[dict[str, Any]]:
        """The session's context now (pi's ``buildSessionContext().messages``)."""

    async def transform_context(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The ``context`` event."""

    async def tool_call(self, event: Event) -> Any:
        """The ``tool_call`` event; may raise (the call is then blocked with the error text)."""

    async def tool_result(self, event: Event) -> dict[str, Any] | None:
        """The ``tool_result`` event: a patch or None."""

    def tool_context(self) -> Any:
        """The ``ctx`` passed to ``execute``."""

    def take_steering(self) -> list[dict[str, Any]]:
        """Messages queued to interrupt after the current tool."""

    def take_follow_up(self) -> list[dict[str, Any]]:
        """Messages queued for when the agent would stop."""


@dataclass(slots=True)
class LoopConfig:
    """One run's fixed inputs."""

    model: Model
    provider: Provider
    system_prompt: str
    tools: Sequence[ToolDefinition]
    max_turns: int = 50
    options: Callable[[AbortSignal | None], StreamOptions] = field(default=lambda s: StreamOptions(signal=s))


@dataclass(slots=True)
class AgentRun:
    """What a run produced. ``stop`` is the last assistant stopReason, or "turn_limit"."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    stop: str = "stop"

    @property
    def last_assistant(self) -> dict[str, Any] | None:
        return next((m for m in reversed(self.messages) if m.get("role") == "assistant"), None)


def _tool_message(call: Mapping[str, Any], result: ToolResult) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "toolResult", "toolCallId": call.get("id"), "toolName": call.get("name"),
                               "content": result.content}
    details = result.details if result.details is not None else result.structured_content
    if details is not None:
        message["details"] = details
    message["isError"] = result.is_error
    message["timestamp"] = now_ms()
    return message


def _error(text: str) -> ToolResult:
    return ToolResult(content=[{"type": "text", "text": text}], details={}, is_error=True)


async def _emit_message(hooks: AgentHooks, run: AgentRun, message: dict[str, Any]) -> None:
    await hooks.emit(Event(type="message_start", message=message))
    await hooks.emit(Event(type="message_end", message=message))
    run.messages.append(message)


async def _stream(hooks: AgentHooks, config: LoopConfig, signal: AbortSignal | None) -> dict[str, Any]:
    messages = await hooks.transform_context(hooks.context_messages())
    tools: list[Tool] = [{"name": t.name, "description": t.description, "parameters": t.parameters}
                         for t in config.tools]
    context = Context(system_prompt=config.system_prompt, messages=messages, tools=tools)
    final: dict[str, Any] | None = None
    started = False
    async for event in config.provider.stream(config.model, context, config.options(signal)):
        kind = event["type"]
        if event["type"] == "done":
            final = dict(event["message"])
            break
        if event["type"] == "error":
            final = dict(event["error"])
            break
        partial: Any = event.get("partial")
        if not started:
            started = True
            await hooks.emit(Event(type="message_start", message=partial))
        if kind != "start":
            await hooks.emit(Event(type="message_update", message=partial, assistantMessageEvent=event))
    if final is None:
        final = {"role": "assistant", "content": [], "api": config.model.api, "provider": config.model.provider,
                 "model": config.model.id, "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0,
                                                     "totalTokens": 0, "cost": {"input": 0, "output": 0,
                                                                                "cacheRead": 0, "cacheWrite": 0,
                                                                                "total": 0}},
                 "stopReason": "error", "timestamp": now_ms(), "errorMessage": "Provider stream ended without a result"}
    if not started:
        await hooks.emit(Event(type="message_start", message=final))
    await hooks.emit(Event(type="message_end", message=final))
    return final


async def _run_tool(hooks: AgentHooks, config: LoopConfig, call: Mapping[str, Any],
                    signal: AbortSignal | None) -> ToolResult:
    call_id, name = str(call.get("id")), str(call.get("name"))
    raw_args = call.get("arguments") if isinstance(call.get("arguments"), Mapping) else {}
    tool = next((t for t in config.tools if t.name == name), None)
    if tool is None:
        return _error(f"Tool {name} not found")
    args, errors = validate_arguments(tool.parameters, raw_args)
    if errors:
        return _error(validation_message(name, errors, raw_args))
    try:
        decision = await hooks.tool_call(Event(type="tool_call", toolCallId=call_id, toolName=name, input=args))
    except Exception as exc:  # fail-safe: a broken policy blocks the call
        return _error(str(exc) or type(exc).__name__)
    if result_field(decision, "block"):
        return _error(str(result_field(decision, "reason") or BLOCKED_TEXT))
    if signal is not None and signal.is_set():
        return _error(ABORTED_TEXT)

    async def on_update(partial: Any) -> None:
        await hooks.emit(Event(type="tool_execution_update", toolCallId=call_id, toolName=name, args=args,
                               partialResult=partial))

    def on_update_sync(partial: Any) -> asyncio.Future[None]:
        """pi's ``onUpdate`` is fire-and-forget; the returned future may be awaited or ignored."""
        return asyncio.ensure_future(on_update(partial))

    errored = False
    try:
        value = tool.execute(call_id, args, signal, on_update_sync, hooks.tool_context())
        if inspect.isawaitable(value):
            value = await value
        result = normalize_result(value)
    except Exception as exc:
        result, errored = _error(str(exc) or type(exc).__name__), True
    patch = await hooks.tool_result(Event(
        type="tool_result", toolCallId=call_id, toolName=name, input=args, content=result.content,
        details=None if errored else result.details, structuredContent=result.structured_content,
        isError=result.is_error))
    if patch:
        result = ToolResult(
            content=list(patch["content"]) if patch.get("content") is not None else result.content,
            details=patch.get("details") if patch.get("details") is not None else result.details,
            structured_content=patch.get("structuredContent"),
            is_error=bool(patch["isError"]) if patch.get("isError") is not None else result.is_error)
    return result


async def run_agent_loop(hooks: AgentHooks, config: LoopConfig, prompts: Sequence[dict[str, Any]],
                         signal: AbortSignal | None = None) -> AgentRun:
    """Run until the model stops, the run is aborted, or ``max_turns`` model calls were made."""
    run = AgentRun()
    await hooks.emit(Event(type="agent_start"))
    pending = list(prompts)
    turn = 0
    while True:
        await hooks.emit(Event(type="turn_start", turnIndex=turn, timestamp=now_ms()))
        for message in pending:
            await _emit_message(hooks, run, message)
        pending = []
        assistant = await _stream(hooks, config, signal)
        run.messages.append(assistant)
        run.stop = str(assistant.get("stopReason"))
        calls = [b for b in assistant.get("content") or [] if isinstance(b, Mapping) and b.get("type") == "toolCall"]
        if assistant.get("stopReason") in ("error", "aborted"):
            calls = []
        results: list[dict[str, Any]] = []
        for n, call in enumerate(calls):
            args = call.get("arguments") if isinstance(call.get("arguments"), Mapping) else {}
            await hooks.emit(Event(type="tool_execution_start", toolCallId=call.get("id"), toolName=call.get("name"),
                                   args=copy.deepcopy(args)))
            result = await _run_tool(hooks, config, call, signal)
            await hooks.emit(Event(type="tool_execution_end", toolCallId=call.get("id"), toolName=call.get("name"),
                                   result=result, isError=result.is_error))
            message = _tool_message(call, result)
            await _emit_message(hooks, run, message)
            results.append(message)
            steering = hooks.take_steering()
            if steering:
                for skipped in calls[n + 1:]:
                    message = _tool_message(skipped, _error(SKIPPED_TEXT))
                    await _emit_message(hooks, run, message)
                    results.append(message)
                pending = steering
                break
        await hooks.emit(Event(type="turn_end", turnIndex=turn, message=assistant, toolResults=results))
        turn += 1
        aborted = signal is not None and signal.is_set()
        if aborted or assistant.get("stopReason") in ("error", "aborted"):
            break
        if not calls and not pending:
            pending = hooks.take_follow_up()
            if not pending:
                break
        if turn >= config.max_turns:
            run.stop = "turn_limit"
            break
    await hooks.emit(Event(type="agent_end", messages=list(run.messages)))
    return run
