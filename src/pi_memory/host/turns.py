"""One agent run at a time, and the messages waiting for one (pi's AgentSession prompt/steer/followUp).

A run holds the runtime's run lock: it compacts first when the last reply passed the threshold,
records the model, takes the turn's system prompt and ``before_agent_start`` messages, runs the
loop, and afterwards compacts again (past the threshold) or, after a context overflow, compacts
and retries once. Messages extensions send while it runs wait in three queues: "steer" (after
the current tool), "followUp" (when the agent would stop) and "nextTurn" (with the next user
prompt). Triggered turns and scheduled compactions run as background tasks the runtime waits for.

Persistence follows pi: each message is written once its ``message_end`` has been dispatched
(user/assistant/toolResult → ``message`` entries, custom → ``custom_message``), then the guide
dialect's ``message`` / ``message:<role>`` events are emitted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from pi_memory.base import content_text
from pi_memory.providers import Model, Provider, StreamOptions, is_context_overflow
from pi_memory.session import SessionManager

from .agent import AgentRun, LoopConfig, custom_message, run_agent_loop, user_message
from .context import ExtensionContext, RuntimeHost
from .types import AbortSignal, Event, ExtensionError, ToolDefinition

if TYPE_CHECKING:
    from .compaction import Compactor
    from .runner import ExtensionRunner

__all__ = ["TurnHost", "Turns"]

StreamOptionsFactory = Callable[[AbortSignal | None], StreamOptions]


class TurnHost(RuntimeHost, Protocol):
    """What :class:`Turns` needs from its session runtime."""

    runner: ExtensionRunner
    compactor: Compactor
    max_turns: int

    def require_model(self) -> Model: ...

    def provider_for(self, model: Model) -> Provider: ...

    def compose_system_prompt(self) -> str: ...

    def active_tool_definitions(self) -> list[ToolDefinition]: ...

    async def dispatch(self, event: Event) -> Any: ...

    def announce(self, event: Event) -> None: ...

    async def append_host_entry(self, append: Callable[[SessionManager], str], reason: str, **payload: Any) -> str: ...

    async def prompt(self, text: str, *, source: str) -> AgentRun | None: ...


class _LoopHooks:
    """The agent loop's view of the runtime."""

    def __init__(self, turns: Turns) -> None:
        self._turns = turns
        self._host = turns.host

    async def emit(self, event: Event) -> None:
        await self._host.dispatch(event)
        if event["type"] == "message_end":
            await self._turns.persist(event["message"])

    def context_messages(self) -> list[dict[str, Any]]:
        messages = self._host.session_manager.build_session_context().messages
        dropped = self._turns.dropped
        return [m for m in messages if m not in dropped] if dropped else messages

    async def transform_context(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return await self._host.runner.emit_context(messages)

    async def tool_call(self, event: Event) -> Any:
        return await self._host.runner.emit_tool_call(event)

    async def tool_result(self, event: Event) -> dict[str, Any] | None:
        return await self._host.runner.emit_tool_result(event)

    def tool_context(self) -> Any:
        return ExtensionContext(self._host)

    def take_steering(self) -> list[dict[str, Any]]:
        queued, self._turns.steering = self._turns.steering, []
        return queued

    def take_follow_up(self) -> list[dict[str, Any]]:
        queued, self._turns.follow_up = self._turns.follow_up, []
        return queued


class Turns:
    """The run lock, the abort signal, the three queues and the background tasks of one runtime."""

    def __init__(self, host: TurnHost, stream_options: StreamOptionsFactory | None) -> None:
        self.host = host
        self.signal: AbortSignal | None = None
        #: The system prompt of the run in progress (with ``before_agent_start`` changes), else None.
        self.system_prompt: str | None = None
        self.steering: list[dict[str, Any]] = []
        self.follow_up: list[dict[str, Any]] = []
        self.next_turn: list[dict[str, Any]] = []
        self.dropped: list[dict[str, Any]] = []  # overflow errors: kept in the file, not in the context
        self._stream_options = stream_options or (lambda s: StreamOptions(signal=s))
        self._lock = asyncio.Lock()
        self._running = False
        self._background: set[asyncio.Task[Any]] = set()

    # --- state -------------------------------------------------------------------------------

    def is_idle(self) -> bool:
        return not self._running and not self._background

    def abort(self) -> None:
        if self.signal is not None:
            self.signal.set()

    def has_pending_messages(self) -> bool:
        return bool(self.steering or self.follow_up or self.next_turn)

    def clear_queues(self) -> None:
        self.steering, self.follow_up, self.next_turn = [], [], []

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        """Background work the runtime waits for (triggered turns, scheduled compactions)."""
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    def schedule_compact(self, custom_instructions: str | None, on_complete: Callable[[Any], Any] | None,
                         on_error: Callable[[BaseException], Any] | None) -> asyncio.Task[Any]:
        """``ctx.compact()``: once idle, compact in the background; a failure goes to ``on_error``,
        else to the UI."""
        async def run() -> Any:
            try:
                await self.wait_for_idle()
                entry = await self.host.compactor.compact(custom_instructions)
            except Exception as exc:
                if on_error is not None:
                    on_error(exc)
                else:
                    self.host.ui.notify(f"Compaction failed: {exc}", "error")
                return None
            if on_complete is not None:
                on_complete(entry)
            return entry
        return self.spawn(run())

    async def wait_for_idle(self) -> None:
        """Until no run and no background work remains (the calling task itself excepted)."""
        current = asyncio.current_task()
        while True:
            pending = [t for t in self._background if t is not current]
            if not pending and not self._running:
                return
            if pending:
                await asyncio.wait(pending)
            else:
                async with self._lock:
                    pass

    # --- messages from extensions ------------------------------------------------------------

    def send_custom_message(self, message: Mapping[str, Any], trigger_turn: bool, deliver_as: str | None,
                            source: str) -> None:
        """``pi.send_message``: queued while running (or for the next turn), a turn of its own with
        ``trigger_turn``, else written at once (front ends still see its start and end)."""
        msg = custom_message(message)
        if deliver_as == "nextTurn":
            self.next_turn.append(msg)
        elif self._running:
            (self.follow_up if deliver_as == "followUp" else self.steering).append(msg)
        elif trigger_turn:
            self.spawn(self.host.runner.reported(source, "send_message", self.run([msg])))
        else:
            self.host.session_manager.append_custom_message_entry(msg["customType"], msg["content"], msg["display"],
                                                                  msg.get("details"))
            for kind in ("message_start", "message_end"):
                self.host.announce(Event(type=kind, message=msg))

    def send_user_message(self, content: Any, deliver_as: str | None, source: str) -> None:
        """``pi.send_user_message``: steer/followUp while running (anything else is an error), else a prompt."""
        if self._running:
            if deliver_as not in ("steer", "followUp"):
                self.host.runner.emit_error(ExtensionError(source, "send_user_message",
                                                           "Agent is streaming: pass deliver_as 'steer' or 'followUp'"))
                return
            (self.follow_up if deliver_as == "followUp" else self.steering).append(user_message(content))
            return
        text = content if isinstance(content, str) else content_text(content)
        self.spawn(self.host.runner.reported(source, "send_user_message", self.host.prompt(text, source="extension")))

    # --- the run -----------------------------------------------------------------------------

    async def run(self, prompts: list[dict[str, Any]], *, prompt_text: str | None = None,
                  images: list[dict[str, Any]] | None = None) -> AgentRun:
        """Run the agent on ``prompts``; with ``prompt_text`` (a user prompt) ``before_agent_start``
        runs first and the next-turn queue joins after the prompt."""
        host = self.host
        model = host.require_model()
        async with self._lock:
            self._running = True
            self.signal = AbortSignal()
            try:
                await host.compactor.before_prompt()
                self._record_model(model)
                base = host.compose_system_prompt()
                self.system_prompt = base
                extra: list[dict[str, Any]] = []
                if prompt_text is not None:
                    messages, chained = await host.runner.emit_before_agent_start(
                        prompt_text, images, base, ExtensionContext(host))
                    self.system_prompt = chained or base
                    extra = [custom_message(m) for m in messages]
                queued, self.next_turn = self.next_turn, []
                all_prompts = prompts[:1] + queued + extra + prompts[1:] if prompt_text is not None else prompts
                config = LoopConfig(model, host.provider_for(model), self.system_prompt,
                                    host.active_tool_definitions(), host.max_turns, self._stream_options)
                hooks = _LoopHooks(self)
                run = await run_agent_loop(hooks, config, all_prompts, self.signal)
                last = run.last_assistant
                if (last is not None and last.get("stopReason") == "error"
                        and is_context_overflow(last, model.context_window)):
                    self.dropped.append(last)
                    if await host.compactor.auto("overflow"):
                        retry = await run_agent_loop(hooks, config, [], self.signal)
                        run.messages += retry.messages
                        run.stop = retry.stop
                elif last is not None and last.get("stopReason") != "aborted":
                    await host.compactor.if_over(last, "threshold")
                return run
            finally:
                self._running = False
                self.signal = None
                self.system_prompt = None
                self.dropped = []

    def _record_model(self, model: Model) -> None:
        sm = self.host.session_manager
        current = sm.build_session_context().model
        if not current or current.get("provider") != model.provider or current.get("modelId") != model.id:
            sm.append_model_change(model.provider, model.id)

    async def persist(self, message: dict[str, Any]) -> None:
        """Write a finished message, then emit the guide dialect's ``message`` events for it."""
        host = self.host
        role = message.get("role")
        if role in ("user", "assistant", "toolResult"):
            entry_id = await host.append_host_entry(lambda sm: sm.append_message(message), "message", message=message)
        elif role == "custom":
            entry_id = await host.append_host_entry(
                lambda sm: sm.append_custom_message_entry(str(message.get("customType", "")),
                                                          message.get("content") or "", bool(message.get("display")),
                                                          message.get("details")), "message", message=message)
        else:
            return
        payload = {"message": message, "role": role, "entryId": entry_id, "timestamp": message.get("timestamp"),
                   "text": content_text(message.get("content"))}
        await host.runner.emit(Event(type="message", **payload))
        if role in ("user", "assistant"):
            await host.runner.emit(Event(type=f"message:{role}", **payload))
