"""A small, session-less agent that may only touch memory.

Dreaming and background extraction both ask a model to review text and call the four memory
tools. They need the host's agent loop (argument validation, tool results, the turn cap) but not
a session file, extensions or a system prompt built from SYSTEM.md — so this runs
:func:`~pi_memory.host.run_agent_loop` over a private message list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pi_memory.host import AbortSignal, Event, LoopConfig, adapt_tool, run_agent_loop
from pi_memory.host.agent import now_ms
from pi_memory.memory import MemoryStore, create_memory_tools
from pi_memory.providers import Model, Provider, StreamOptions

__all__ = ["MemoryAction", "MemoryAgentRun", "run_memory_agent"]

Listener = Callable[[Event], None]


@dataclass(frozen=True)
class MemoryAction:
    """One memory tool call and what the store answered (``result`` is the structured result)."""

    tool: str
    args: dict[str, Any]
    result: dict[str, Any]

    @property
    def succeeded(self) -> bool:
        return bool(self.result.get("success"))

    @property
    def duplicate(self) -> bool:
        """A successful add of an entry that was already there (nothing was written)."""
        return self.tool == "memory_add" and str(self.result.get("message", "")).startswith("Entry already exists")

    @property
    def changes_memory(self) -> bool:
        return (self.succeeded and not self.duplicate
                and self.tool in ("memory_add", "memory_replace", "memory_remove"))


@dataclass
class MemoryAgentRun:
    """What happened: the stop reason, model turns used, every memory call, the final text."""

    stop: str = "stop"
    turns: int = 0
    actions: list[MemoryAction] = field(default_factory=list)
    final_text: str = ""
    error: str | None = None

    @property
    def failed(self) -> bool:
        """The model could not be reached or refused (an aborted run is not a failure of the model)."""
        return self.stop == "error"


class _Hooks:
    def __init__(self, run: MemoryAgentRun, listener: Listener | None) -> None:
        self.messages: list[dict[str, Any]] = []
        self.args: dict[str, dict[str, Any]] = {}
        self.run = run
        self.listener = listener

    async def emit(self, event: Event) -> None:
        kind = event["type"]
        if kind == "message_end":
            self.messages.append(event["message"])
        elif kind == "turn_end":
            self.run.turns += 1
        elif kind == "tool_execution_start":
            self.args[str(event["toolCallId"])] = dict(event.get("args") or {})
        elif kind == "tool_execution_end":
            result = event["result"]
            structured = result.structured_content if isinstance(result.structured_content, Mapping) else {}
            args = self.args.pop(str(event["toolCallId"]), {})
            self.run.actions.append(MemoryAction(str(event["toolName"]), args, dict(structured)))
        if self.listener is not None:
            self.listener(event)

    def context_messages(self) -> list[dict[str, Any]]:
        return list(self.messages)

    async def transform_context(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return messages

    async def tool_call(self, event: Event) -> Any:
        return None

    async def tool_result(self, event: Event) -> dict[str, Any] | None:
        return None

    def tool_context(self) -> Any:
        return None

    def take_steering(self) -> list[dict[str, Any]]:
        return []

    def take_follow_up(self) -> list[dict[str, Any]]:
        return []


async def run_memory_agent(*, model: Model, provider: Provider, store: MemoryStore, system_prompt: str,
                           prompt: str, max_turns: int, signal: AbortSignal | None = None,
                           listener: Listener | None = None) -> MemoryAgentRun:
    """Ask ``model`` to work through ``prompt`` with the four memory tools over ``store``.

    At most ``max_turns`` model calls; ``signal`` stops the run between steps. Provider failures
    come back as ``stop == "error"`` with ``error`` set, never as exceptions.
    """
    run = MemoryAgentRun()
    tools = [adapt_tool(tool, "pi-memory") for tool in create_memory_tools(store)]
    config = LoopConfig(model, provider, system_prompt, tools, max_turns, lambda s: StreamOptions(signal=s))
    user = {"role": "user", "content": [{"type": "text", "text": prompt}], "timestamp": now_ms()}
    result = await run_agent_loop(_Hooks(run, listener), config, [user], signal)
    run.stop = result.stop
    last = result.last_assistant or {}
    run.final_text = "\n".join(b.get("text", "") for b in last.get("content") or [] if b.get("type") == "text")
    if run.stop == "error":
        run.error = str(last.get("errorMessage") or "the model call failed")
    return run
