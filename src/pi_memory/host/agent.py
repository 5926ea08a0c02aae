"""The agent loop: model call → tool calls → results → model call … until the model stops.

The loop owns no conversation state: each model call sees the session's context as it is at that
moment (``hooks.context_messages``), so whatever was persisted — by the loop or by an extension —
is what the model reads next, as after a reload. Every message passes through ``message_start`` /
``message_end`` (the runtime persists on ``message_end``, like pi). Nothing here raises for what
the provider or a tool does: provider failures are assistant messages with ``stopReason``
"error"/"aborted", tool failures are ``isError`` results.

Tool calls of one assistant message run as in pi's default "parallel" mode: each call is prepared
in order (``tool_execution_start``, argument validation, ``tool_call`` handlers), then the
prepared calls execute concurrently; ``tool_execution_end`` and the result messages follow in
the order of the calls, so the session reads the same whatever finished first. A batch runs one
call after another instead when ``LoopConfig.tool_execution`` is "sequential" or any of its tools
has ``execution_mode`` "sequential"; only then can a steering message skip the calls after the
current one (in parallel mode it is delivered once the batch is done).
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pi_memory.base.tools import ToolResult
from pi_memory.providers import Context, Model, Provider, StreamOptions, Tool

from .types import AbortSignal, Event, ToolDefinition, result_field
from .wrapper import normalize_result, validate_arguments, validation_message

__all__ = ["AgentHooks", "AgentRun", "LoopConfig", "custom_message", "now_ms", "run_agent_loop", "user_message"]

BLOCKED_TEXT = "Tool execution was blocked"
SKIPPED_TEXT = "Skipped due to queued user message."
ABORTED_TEXT = "Tool execution was aborted"


def now_ms() -> int:
    return int(time.time() * 1000)


def user_message(content: Any, images: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """A user message stamped now: text (with ``images`` after it) or a list of content blocks."""
    blocks = ([dict(b) for b in content] if isinstance(content, list)
              else [{"type": "text", "text": str(content)}, *(dict(i) for i in images or [])])
    return {"role": "user", "content": blocks, "timestamp": now_ms()}


def custom_message(spec: Any) -> dict[str, Any]:
    """A ``custom`` message stamped now from what an extension passed (``{customType, content,
    display, details?}`` in either spelling, or an object): the one shape ``send_message`` and
    ``before_agent_start`` results take. ``display`` defaults to True; a missing ``details`` stays out."""
    message: dict[str, Any] = {"role": "custom", "customType": result_field(spec, "customType", ""),
                               "content": result_field(spec, "content", ""),
                               "display": bool(result_field(spec, "display", True))}
    details = result_field(spec, "details")
    if details is not None:
        message["details"] = details
    message["timestamp"] = now_ms()
    return message


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
    tool_execution: str = "parallel"


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


@dataclass(slots=True)
class _Prepared:
    """A call that passed validation and the ``tool_call`` handlers, ready to execute."""

    call_id: str
    name: str
    tool: ToolDefinition
    args: dict[str, Any]


async def _prepare(hooks: AgentHooks, config: LoopConfig, call: Mapping[str, Any],
                   signal: AbortSignal | None) -> _Prepared | ToolResult:
    """Steps 2–4 of pi's pipeline; a :class:`ToolResult` means the call ends here (error)."""
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
    return _Prepared(call_id, name, tool, args)


async def _execute(hooks: AgentHooks, prepared: _Prepared, signal: AbortSignal | None) -> ToolResult:
    """Steps 5–7: ``execute`` (updates become ``tool_execution_update``), then ``tool_result``."""
    call_id, name, args = prepared.call_id, prepared.name, prepared.args
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
        value = prepared.tool.execute(call_id, args, signal, on_update_sync, hooks.tool_context())
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


async def _start(hooks: AgentHooks, call: Mapping[str, Any]) -> None:
    args = call.get("arguments") if isinstance(call.get("arguments"), Mapping) else {}
    await hooks.emit(Event(type="tool_execution_start", toolCallId=call.get("id"), toolName=call.get("name"),
                           args=copy.deepcopy(args)))


async def _end(hooks: AgentHooks, call: Mapping[str, Any], result: ToolResult) -> None:
    await hooks.emit(Event(type="tool_execution_end", toolCallId=call.get("id"), toolName=call.get("name"),
                           result=result, isError=result.is_error))


async def _finish(hooks: AgentHooks, run: AgentRun, call: Mapping[str, Any], result: ToolResult) -> dict[str, Any]:
    """``tool_execution_end``, then the result message (persisted on its ``message_end``)."""
    await _end(hooks, call, result)
    message = _tool_message(call, result)
    await _emit_message(hooks, run, message)
    return message


def _sequential(config: LoopConfig, calls: Sequence[Mapping[str, Any]]) -> bool:
    if config.tool_execution == "sequential":
        return True
    modes = {t.name: t.execution_mode for t in config.tools}
    return any(modes.get(str(c.get("name"))) == "sequential" for c in calls)


async def _run_sequential(hooks: AgentHooks, config: LoopConfig, run: AgentRun, calls: Sequence[Mapping[str, Any]],
                          signal: AbortSignal | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One call after another; a steering message skips the calls after the current one.
    Returns the result messages and the steering messages to deliver next."""
    results: list[dict[str, Any]] = []
    for n, call in enumerate(calls):
        await _start(hooks, call)
        prepared = await _prepare(hooks, config, call, signal)
        result = prepared if isinstance(prepared, ToolResult) else await _execute(hooks, prepared, signal)
        results.append(await _finish(hooks, run, call, result))
        steering = hooks.take_steering()
        if steering:
            for skipped in calls[n + 1:]:
                message = _tool_message(skipped, _error(SKIPPED_TEXT))
                await _emit_message(hooks, run, message)
                results.append(message)
            return results, steering
    return results, []


async def _run_parallel(hooks: AgentHooks, config: LoopConfig, run: AgentRun, calls: Sequence[Mapping[str, Any]],
                        signal: AbortSignal | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Prepare in order (a call that fails there ends at once), execute the rest concurrently,
    end them in call order, then emit every result message in call order; steering waits."""
    outcomes: list[ToolResult | asyncio.Task[ToolResult]] = []
    for call in calls:
        await _start(hooks, call)
        prepared = await _prepare(hooks, config, call, signal)
        if isinstance(prepared, ToolResult):
            await _end(hooks, call, prepared)
            outcomes.append(prepared)
        else:
            outcomes.append(asyncio.ensure_future(_execute(hooks, prepared, signal)))
    finished: list[ToolResult] = []
    for call, outcome in zip(calls, outcomes, strict=True):
        if isinstance(outcome, ToolResult):
            finished.append(outcome)
        else:
            finished.append(await outcome)
            await _end(hooks, call, finished[-1])
    results: list[dict[str, Any]] = []
    for call, result in zip(calls, finished, strict=True):
        message = _tool_message(call, result)
        await _emit_message(hooks, run, message)
        results.append(message)
    return results, hooks.take_steering()


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
        if calls:
            batch = _run_sequential if _sequential(config, calls) else _run_parallel
            results, steering = await batch(hooks, config, run, calls, signal)
            if steering:
                pending = steering
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
