"""The ``pi`` object an extension receives: pi's ExtensionAPI in Python spelling, plus the guide
dialect of DESIGN.md §4 (``append_custom_entry``, ``append_custom_message_entry``,
``get_entries``, ``on("message:user", ...)``, tools as dicts).

Registration (``on``, ``register_tool``, ``register_command``) works while the extension loads and
later. Action methods need the runtime and raise if called while loading, as in pi: call them from
handlers, tools or commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from pi_memory.providers import Model
from pi_memory.session import UNSET, SessionManager
from pi_memory.session.entries import Entry

from .events import GUIDE_EVENTS, PI_EVENTS
from .runner import Extension, ExtensionRunner
from .types import CommandDefinition, ExecResult, Handler, call_listeners, result_field
from .wrapper import adapt_tool

__all__ = ["ApiHost", "EventBus", "ExtensionAPI", "RuntimeNotReadyError"]


class RuntimeNotReadyError(RuntimeError):
    """An action method was called while the extension was still loading."""


class ApiHost(Protocol):
    """What the ``pi`` object needs from the session runtime."""

    cwd: str
    session_manager: SessionManager

    def send_custom_message(self, message: Mapping[str, Any], trigger_turn: bool, deliver_as: str | None,
                            source: str) -> None: ...

    def send_user_message(self, content: Any, deliver_as: str | None, source: str) -> None: ...

    def get_active_tools(self) -> list[str]: ...

    def set_active_tools(self, names: Sequence[str]) -> None: ...

    def settings_dict(self) -> dict[str, Any]: ...

    async def set_model(self, model: Model) -> bool: ...

    def append_extension_entry(self, append: Callable[[SessionManager], str]) -> str: ...


class EventBus:
    """pi's ``pi.events``: a channel bus shared by all extensions (errors are swallowed per listener)."""

    def __init__(self) -> None:
        self._listeners: dict[str, list[Callable[[Any], Any]]] = {}

    def on(self, channel: str, listener: Callable[[Any], Any]) -> Callable[[], None]:
        self._listeners.setdefault(channel, []).append(listener)
        return lambda: self._listeners[channel].remove(listener)

    def emit(self, channel: str, data: Any = None) -> None:
        call_listeners(self._listeners.get(channel, ()), data)


class ExtensionAPI:
    """The ``pi`` object, one per extension."""

    def __init__(self, runner: ExtensionRunner, extension: Extension, events: EventBus,
                 host: ApiHost | None = None) -> None:
        self._runner = runner
        self._extension = extension
        self._host = host
        self.events = events

    def _bind(self, host: ApiHost) -> None:
        self._host = host

    @property
    def _live(self) -> ApiHost:
        if self._host is None:
            raise RuntimeNotReadyError(
                "Extension runtime not initialized: action methods (append_entry, send_message, ...) cannot run "
                "while the extension loads. Call them from an event handler, a tool or a command.")
        return self._host

    @property
    def extension_path(self) -> str:
        return self._extension.path

    # --- registration ------------------------------------------------------------------------

    def on(self, event: str, handler: Handler | None = None) -> Any:
        """Subscribe ``handler(event, ctx)`` (or ``handler(event)``); without a handler, a decorator."""
        if event not in PI_EVENTS and event not in GUIDE_EVENTS:
            self._runner.warn(f"{self._extension.path}: unknown event {event!r}; the handler will never run")
        if handler is None:
            def decorate(fn: Handler) -> Handler:
                self._runner.add_handler(self._extension, event, fn)
                return fn
            return decorate
        self._runner.add_handler(self._extension, event, handler)
        return handler

    def register_tool(self, tool: Any) -> None:
        """A ToolDefinition, a dict (``{name, description, parameters, execute, ...}``) or an object
        with those attributes. The tool becomes active at once; the first registration of a name wins."""
        definition = adapt_tool(tool, self._extension.path)
        self._runner.register_tool(self._extension, definition)

    def register_command(self, name: str, options: Mapping[str, Any] | Handler | None = None, *,
                         handler: Handler | None = None, description: str | None = None,
                         get_argument_completions: Callable[[str], Sequence[str] | None] | None = None) -> None:
        """``register_command("deploy", {"description": ..., "handler": fn})`` or keyword arguments;
        ``/deploy args`` then runs ``handler(args, ctx)``."""
        if callable(options):
            handler, options = options, None
        if options is not None:
            handler = handler or result_field(options, "handler")
            description = description or result_field(options, "description")
            get_argument_completions = get_argument_completions or result_field(options, "getArgumentCompletions")
        if not callable(handler):
            raise ValueError(f"command {name!r} needs a callable handler")
        self._runner.register_command(self._extension, CommandDefinition(
            name=name.lstrip("/"), handler=handler, description=description,
            get_argument_completions=get_argument_completions))

    # --- writing to the session --------------------------------------------------------------

    def append_entry(self, custom_type: str, data: Any = UNSET) -> None:
        """A ``custom`` entry (extension state; the LLM never sees it)."""
        self.append_custom_entry(custom_type, data)

    def send_message(self, message: Mapping[str, Any], options: Mapping[str, Any] | None = None, *,
                     trigger_turn: bool | None = None, deliver_as: str | None = None) -> None:
        """A custom message the LLM sees (``{customType, content, display, details?}``).

        Idle: written at once, or with ``trigger_turn`` it starts a turn. While the agent runs:
        ``deliver_as`` "steer" (default: after the current tool), "followUp" (when the agent would
        stop) or "nextTurn" (after the next user prompt). Failures go to the error listeners.
        """
        if options is not None:
            trigger_turn = trigger_turn if trigger_turn is not None else result_field(options, "triggerTurn")
            deliver_as = deliver_as or result_field(options, "deliverAs")
        self._live.send_custom_message(message, bool(trigger_turn), deliver_as, self._extension.path)

    def send_user_message(self, content: Any, options: Mapping[str, Any] | None = None, *,
                          deliver_as: str | None = None) -> None:
        """A real user message; always triggers a turn (queued as steer/followUp while streaming)."""
        if options is not None:
            deliver_as = deliver_as or result_field(options, "deliverAs")
        self._live.send_user_message(content, deliver_as, self._extension.path)

    def set_session_name(self, name: str) -> None:
        host = self._live
        host.append_extension_entry(lambda sm: sm.append_session_info(name))

    def get_session_name(self) -> str | None:
        return self._live.session_manager.get_session_name()

    def set_label(self, entry_id: str, label: str | None) -> None:
        """Label an entry (None clears); raises if the entry does not exist."""
        host = self._live
        host.append_extension_entry(lambda sm: sm.append_label_change(entry_id, label))

    # --- tools, commands, settings, model ----------------------------------------------------

    def get_active_tools(self) -> list[str]:
        return self._live.get_active_tools()

    def set_active_tools(self, names: Sequence[str]) -> None:
        self._live.set_active_tools(names)

    def get_all_tools(self) -> list[dict[str, Any]]:
        return [tool.info() for tool in self._runner.tools.values()]

    def get_commands(self) -> list[dict[str, Any]]:
        return [{"name": c.name, "description": c.description, "source": "extension", "path": c.source}
                for c in self._runner.commands.values()]

    def get_settings(self) -> dict[str, Any]:
        """The effective settings (a copy): global, agent config dir, and project when trusted."""
        return self._live.settings_dict()

    async def set_model(self, model: Model) -> bool:
        """Switch model; False when it has no API key."""
        return await self._live.set_model(model)

    async def exec(self, command: str, args: Sequence[str] = (), *, signal: asyncio.Event | None = None,
                   timeout: float | None = None, cwd: str | None = None) -> ExecResult:
        """Run a program (no shell); ``killed`` is True when the timeout or signal stopped it."""
        proc = await asyncio.create_subprocess_exec(
            command, *args, cwd=cwd or self._live.cwd, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=os.environ.copy())
        communicate = asyncio.ensure_future(proc.communicate())
        waiters: set[asyncio.Future[Any]] = {communicate}
        stop = asyncio.ensure_future(signal.wait()) if signal is not None else None
        if stop is not None:
            waiters.add(stop)
        done, _ = await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        killed = communicate not in done
        if killed:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        if stop is not None:
            stop.cancel()
        stdout, stderr = await communicate
        return ExecResult(stdout.decode(errors="replace"), stderr.decode(errors="replace"),
                          proc.returncode if proc.returncode is not None else -1, killed)

    # --- the guide dialect -------------------------------------------------------------------

    def append_custom_entry(self, custom_type: str, data: Any = UNSET) -> str:
        """Guide dialect: a ``custom`` entry (never sent to the LLM); returns its id."""
        return self._live.append_extension_entry(lambda sm: sm.append_custom_entry(custom_type, data))

    def append_custom_message_entry(self, custom_type: str, content: str | Sequence[Mapping[str, Any]],
                                    display: bool, details: Any = None) -> str:
        """Guide dialect: a ``custom_message`` entry, sent to the LLM as a user message from the next
        model call on (the agent rebuilds its context from the session); ``details`` is never sent."""
        return self._live.append_extension_entry(
            lambda sm: sm.append_custom_message_entry(custom_type, content, display, details))

    def get_entries(self) -> list[Entry]:
        """Guide dialect: every entry of the session (all branches, file order, no header)."""
        return self._live.session_manager.get_entries()

    def get_branch(self) -> list[Entry]:
        """The current path, root first (usually what state rebuilding wants)."""
        return self._live.session_manager.get_branch()
