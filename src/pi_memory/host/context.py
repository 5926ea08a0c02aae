"""What handlers, tools and commands receive as ``ctx``: the session (read-only), the UI, the model.

A fresh context is built for every emit (pi's rule), but it reads the runtime live, so
``ctx.model`` or ``ctx.session_manager`` always reflect the current state. ``ui`` is whatever
the front end installed; print mode and tests use :class:`HeadlessUI`, which records calls and
answers dialogs with defaults (or queued answers), so a handler that asks never hangs.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pi_memory.providers import Model, ModelRegistry
from pi_memory.session import SessionManager, SessionTreeNode
from pi_memory.session.entries import Entry

from .types import AbortSignal, NotifyLevel

__all__ = [
    "UI",
    "ContextUsage",
    "ExtensionCommandContext",
    "ExtensionContext",
    "HeadlessUI",
    "ReadonlySessionManager",
    "RuntimeHost",
    "SwitchResult",
]


class UI(Protocol):
    """pi's ``ctx.ui`` subset: fire-and-forget notices, and dialogs that may be answered later."""

    has_ui: bool

    def notify(self, message: str, level: NotifyLevel = "info") -> None: ...

    def set_status(self, key: str, text: str | None) -> None: ...

    async def confirm(self, title: str, message: str, *, timeout: float | None = None) -> bool: ...

    async def select(self, title: str, options: Sequence[str], *, timeout: float | None = None) -> str | None: ...

    async def input(self, title: str, placeholder: str | None = None) -> str | None: ...


@dataclass
class HeadlessUI:
    """A UI without a user: records every call; dialogs return queued answers, else pi's defaults
    (``confirm`` False, ``select``/``input`` None)."""

    has_ui: bool = False
    calls: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    statuses: dict[str, str] = field(default_factory=dict)
    answers: deque[Any] = field(default_factory=deque)
    on_notify: Callable[[str, NotifyLevel], None] | None = None

    @property
    def notifications(self) -> list[tuple[str, str]]:
        return [(args[0], args[1]) for name, args in self.calls if name == "notify"]

    def notify(self, message: str, level: NotifyLevel = "info") -> None:
        self.calls.append(("notify", (message, level)))
        if self.on_notify is not None:
            self.on_notify(message, level)

    def set_status(self, key: str, text: str | None) -> None:
        self.calls.append(("set_status", (key, text)))
        if text is None:
            self.statuses.pop(key, None)
        else:
            self.statuses[key] = text

    def _answer(self, default: Any) -> Any:
        return self.answers.popleft() if self.answers else default

    async def confirm(self, title: str, message: str, *, timeout: float | None = None) -> bool:
        self.calls.append(("confirm", (title, message)))
        return bool(self._answer(False))

    async def select(self, title: str, options: Sequence[str], *, timeout: float | None = None) -> str | None:
        self.calls.append(("select", (title, tuple(options))))
        answer = self._answer(None)
        return answer if answer is None or answer in options else None

    async def input(self, title: str, placeholder: str | None = None) -> str | None:
        self.calls.append(("input", (title, placeholder)))
        answer = self._answer(None)
        return None if answer is None else str(answer)


class ReadonlySessionManager:
    """pi's ``ReadonlySessionManager``: the reading half of the live SessionManager."""

    def __init__(self, get: Callable[[], SessionManager]) -> None:
        self._get = get

    def get_cwd(self) -> str:
        return self._get().get_cwd()

    def get_session_dir(self) -> str:
        return self._get().get_session_dir()

    def get_session_id(self) -> str:
        return self._get().get_session_id()

    def get_session_file(self) -> str | None:
        return self._get().get_session_file()

    def get_leaf_id(self) -> str | None:
        return self._get().get_leaf_id()

    def get_leaf_entry(self) -> Entry | None:
        return self._get().get_leaf_entry()

    def get_entry(self, entry_id: str) -> Entry | None:
        return self._get().get_entry(entry_id)

    def get_label(self, entry_id: str) -> str | None:
        return self._get().get_label(entry_id)

    def get_branch(self, from_id: str | None = None) -> list[Entry]:
        return self._get().get_branch(from_id)

    def get_header(self) -> Entry | None:
        return self._get().get_header()

    def get_entries(self) -> list[Entry]:
        return self._get().get_entries()

    def get_tree(self) -> list[SessionTreeNode]:
        return self._get().get_tree()

    def get_session_name(self) -> str | None:
        return self._get().get_session_name()


@dataclass(frozen=True, slots=True)
class ContextUsage:
    """``ctx.get_context_usage()``: tokens is None right after a compaction, until the next reply."""

    tokens: int | None
    context_window: int
    percent: float | None


class RuntimeHost(Protocol):
    """What a context needs from the session runtime (implemented by ``SessionRuntime``)."""

    cwd: str
    ui: UI
    model_registry: ModelRegistry
    model: Model | None
    project_trusted: bool
    session_manager: SessionManager

    @property
    def signal(self) -> AbortSignal | None: ...

    def base_system_prompt(self) -> str: ...

    def is_idle(self) -> bool: ...

    def abort(self) -> None: ...

    def has_pending_messages(self) -> bool: ...

    def context_usage(self) -> ContextUsage | None: ...

    def schedule_compact(self, custom_instructions: str | None, on_complete: Callable[[Any], Any] | None,
                         on_error: Callable[[BaseException], Any] | None) -> asyncio.Task[Any]: ...

    async def shutdown(self) -> None: ...


class ExtensionContext:
    """``ctx`` for event handlers and tools."""

    def __init__(self, host: RuntimeHost) -> None:
        self._host = host
        self._system_prompt_override: str | None = None
        self.session_manager = ReadonlySessionManager(lambda: host.session_manager)

    @property
    def cwd(self) -> str:
        return self._host.cwd

    @property
    def ui(self) -> UI:
        return self._host.ui

    @property
    def has_ui(self) -> bool:
        return bool(getattr(self._host.ui, "has_ui", False))

    @property
    def model_registry(self) -> ModelRegistry:
        return self._host.model_registry

    @property
    def model(self) -> Model | None:
        return self._host.model

    @property
    def signal(self) -> AbortSignal | None:
        """Set while the agent runs; aborted by ``ctx.abort()``, Ctrl+C, or ``runtime.abort()``."""
        return self._host.signal

    def is_project_trusted(self) -> bool:
        return self._host.project_trusted

    def get_system_prompt(self) -> str:
        """The system prompt of this turn, including ``before_agent_start`` changes so far."""
        return self._system_prompt_override or self._host.base_system_prompt()

    def is_idle(self) -> bool:
        return self._host.is_idle()

    def abort(self) -> None:
        self._host.abort()

    def has_pending_messages(self) -> bool:
        return self._host.has_pending_messages()

    def get_context_usage(self) -> ContextUsage | None:
        return self._host.context_usage()

    def compact(self, custom_instructions: str | None = None, *, on_complete: Callable[[Any], Any] | None = None,
                on_error: Callable[[BaseException], Any] | None = None) -> asyncio.Task[Any]:
        """Start a compaction (fire and forget, like pi); await the task to wait for it."""
        return self._host.schedule_compact(custom_instructions, on_complete, on_error)

    async def shutdown(self) -> None:
        await self._host.shutdown()


@dataclass(frozen=True, slots=True)
class SwitchResult:
    """Outcome of new/resume/fork/tree: ``cancelled`` by a handler; ``editor_text`` is the text of a
    user message the user branched away from (to edit and send again)."""

    cancelled: bool
    editor_text: str | None = None


class CommandHost(RuntimeHost, Protocol):
    async def wait_for_idle(self) -> None: ...

    async def new_session(self) -> SwitchResult: ...

    async def fork(self, entry_id: str) -> SwitchResult: ...

    async def navigate_tree(self, target_id: str, *, summarize: bool = False) -> SwitchResult: ...

    async def resume(self, path: str) -> SwitchResult: ...

    async def reload(self) -> None: ...


class ExtensionCommandContext(ExtensionContext):
    """``ctx`` for command handlers: adds session control. Each action returns ``{"cancelled": bool}``
    (don't call these from event handlers: they wait for the agent to be idle)."""

    def __init__(self, host: CommandHost) -> None:
        super().__init__(host)
        self._commands = host

    async def wait_for_idle(self) -> None:
        await self._commands.wait_for_idle()

    async def new_session(self) -> SwitchResult:
        return await self._commands.new_session()

    async def fork(self, entry_id: str) -> SwitchResult:
        return await self._commands.fork(entry_id)

    async def navigate_tree(self, target_id: str, *, summarize: bool = False) -> SwitchResult:
        return await self._commands.navigate_tree(target_id, summarize=summarize)

    async def switch_session(self, path: str) -> SwitchResult:
        return await self._commands.resume(path)

    async def reload(self) -> None:
        await self._commands.reload()
