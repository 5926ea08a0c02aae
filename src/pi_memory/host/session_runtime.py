"""The session runtime (pi's AgentSession): one session, its extensions, model and settings, and
the user actions that drive them — prompt, /new, /resume, /fork, /tree, /compact, /reload, exit.

Lifecycle (reference §3.8, pi 1.6.0): startup loads the non-project extensions, decides project
trust (``project_trust``), loads project extensions when trusted, then ``session_start``
{reason:"startup"}. /new, /resume, /fork and /reload tear the extension runtime down
(``session_shutdown``) and build a fresh one on the new session (``session_start`` with the
reason and ``previousSessionFile``), so extensions rebuild state in one place.

Persistence follows pi: the runtime writes each message when its ``message_end`` has been
dispatched (user/assistant/toolResult → ``message`` entries, custom → ``custom_message``), and the
session manager writes the file lazily. Guide-dialect events are emitted around those writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pi_memory.providers import (
    Model,
    ModelRegistry,
    Provider,
    StreamOptions,
    is_context_overflow,
)
from pi_memory.providers.convert import content_text
from pi_memory.session import SessionManager
from pi_memory.session.entries import Entry

from . import compaction as compaction_mod
from .agent import AgentRun, LoopConfig, now_ms, run_agent_loop
from .api import EventBus, ExtensionAPI
from .compaction import CompactionError, CompactionSettings, calculate_context_tokens, prepare_compaction
from .context import UI, ContextUsage, ExtensionCommandContext, ExtensionContext, HeadlessUI, SwitchResult
from .loader import (
    ExtensionSource,
    disabled_sources,
    discover_dir,
    entry_point_sources,
    load_extensions,
    settings_sources,
)
from .paths import agent_dir, project_config_dir
from .runner import ExtensionRunner
from .settings import Settings, load_settings
from .trust import ProjectTrustStore, TrustAnswer, resolve_project_trusted
from .types import AbortSignal, Event, ExtensionError, ToolDefinition, result_field

__all__ = ["DEFAULT_SYSTEM_PROMPT", "NoModelError", "SessionRuntime"]

DEFAULT_SYSTEM_PROMPT = (
    "You are a helpful assistant running in pi-memory. Use the available tools when they help, "
    "and answer concisely."
)

Listener = Callable[[Event], None]


class NoModelError(RuntimeError):
    """No model is configured; the message says how to configure one."""


class _LoopHooks:
    """The agent loop's view of the runtime."""

    def __init__(self, runtime: SessionRuntime) -> None:
        self._rt = runtime

    async def emit(self, event: Event) -> None:
        await self._rt._dispatch(event)
        if event["type"] == "message_end":
            await self._rt._persist(event["message"])

    def context_messages(self) -> list[dict[str, Any]]:
        messages = self._rt.session_manager.build_session_context().messages
        dropped = self._rt._dropped
        return [m for m in messages if m not in dropped] if dropped else messages

    async def transform_context(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return await self._rt.runner.emit_context(messages)

    async def tool_call(self, event: Event) -> Any:
        return await self._rt.runner.emit_tool_call(event)

    async def tool_result(self, event: Event) -> dict[str, Any] | None:
        return await self._rt.runner.emit_tool_result(event)

    def tool_context(self) -> Any:
        return ExtensionContext(self._rt)

    def take_steering(self) -> list[dict[str, Any]]:
        queued, self._rt._steering = self._rt._steering, []
        return queued

    def take_follow_up(self) -> list[dict[str, Any]]:
        queued, self._rt._follow_up = self._rt._follow_up, []
        return queued


def tool_sections(tools: Sequence[ToolDefinition]) -> list[str]:
    """The "Available tools" and "Guidelines" sections of the system prompt, in pi 1.6.0's shape.

    One ``- name: snippet`` line per active tool that has a ``promptSnippet`` (pi leaves the others
    out: their description already reaches the model with the tool itself); each guideline once,
    trimmed, as ``- rule``; empty sections are left out.
    """
    listed = [f"- {t.name}: {t.prompt_snippet.strip()}" for t in tools if t.prompt_snippet and t.prompt_snippet.strip()]
    rules = list(dict.fromkeys(g.strip() for t in tools for g in t.prompt_guidelines if g.strip()))
    sections = []
    if listed:
        sections.append("Available tools:\n" + "\n".join(listed))
    if rules:
        sections.append("Guidelines:\n" + "\n".join(f"- {rule}" for rule in rules))
    return sections


class SessionRuntime:
    """Build with :meth:`create`; then :meth:`prompt`, and the session actions."""

    def __init__(self, *, cwd: str, session_manager: SessionManager, registry: ModelRegistry, ui: UI,
                 settings: Settings, cli_sources: Sequence[ExtensionSource], provider: Provider | None,
                 system_prompt: str | None, max_turns: int, use_entry_points: bool, discover: bool,
                 settings_extensions: bool, trust_store: ProjectTrustStore | None,
                 stream_options: Callable[[AbortSignal | None], StreamOptions] | None) -> None:
        self.cwd = cwd
        self.session_manager = session_manager
        self.model_registry = registry
        self.ui = ui
        self.settings = settings
        self.model: Model | None = None
        self.signal: AbortSignal | None = None
        self.project_trusted = False
        self.runner = ExtensionRunner()
        self.events = EventBus()
        self.max_turns = max_turns
        self._cli_sources = list(cli_sources)
        self._provider = provider
        self._system_prompt = system_prompt
        self._use_entry_points = use_entry_points
        self._discover = discover
        self._settings_extensions = settings_extensions
        self._trust_store = trust_store
        self._configure_registry: Callable[[ModelRegistry], None] | None = None
        self._stream_options = stream_options
        self._listeners: list[Listener] = []
        self._active_tools: list[str] = []
        self._steering: list[dict[str, Any]] = []
        self._follow_up: list[dict[str, Any]] = []
        self._next_turn: list[dict[str, Any]] = []
        self._run_lock = asyncio.Lock()
        self._running = False
        self._background: set[asyncio.Task[Any]] = set()
        self._saving = False
        self._turn_system_prompt: str | None = None
        self._dropped: list[dict[str, Any]] = []  # overflow errors: kept in the file, not in the context
        self._closed = False

    # --- construction ------------------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        *,
        cwd: str | None = None,
        session_manager: SessionManager | None = None,
        extensions: Iterable[str | ExtensionSource] = (),
        factories: Iterable[Callable[..., Any]] = (),
        tools: Iterable[Any] = (),
        model: Model | str | None = None,
        registry: ModelRegistry | None = None,
        provider: Provider | None = None,
        ui: UI | None = None,
        trust: bool | None = None,
        system_prompt: str | None = None,
        max_turns: int = 50,
        use_entry_points: bool = True,
        discover: bool = True,
        settings_extensions: bool = True,
        trust_store: ProjectTrustStore | None = None,
        stream_options: Callable[[AbortSignal | None], StreamOptions] | None = None,
        configure_registry: Callable[[ModelRegistry], None] | None = None,
    ) -> SessionRuntime:
        """Start a runtime: extensions loaded, trust decided, ``session_start`` emitted.

        ``extensions`` are ``-e`` sources; ``factories`` are in-process ``extension(pi, config)``
        callables; ``tools`` are registered as if by an extension. ``provider`` answers every model
        call (tests, the scripted provider); without it the registry's provider for the model's API
        is used. ``use_entry_points``, ``discover`` and ``settings_extensions`` switch off the
        installed, auto-discovered and settings-listed extensions (all three off is pi's
        ``--no-extensions``: only ``extensions``/``factories``/``tools`` load).
        ``configure_registry`` is applied to every model registry the runtime builds from settings
        (at start and on /reload): how ``--base-url``/``--api-key`` outlive a reload.
        """
        cwd = os.path.abspath(cwd or (session_manager.get_cwd() if session_manager else os.getcwd()))
        sm = session_manager if session_manager is not None else SessionManager.create(cwd)
        settings = load_settings(cwd, project_trusted=False)
        sources = [s if isinstance(s, ExtensionSource) else ExtensionSource(s, "cli") for s in extensions]
        tool_list = list(tools)
        if tool_list:
            def register_tools(pi: ExtensionAPI) -> None:
                for tool in tool_list:
                    pi.register_tool(tool)
            sources.append(ExtensionSource("<sdk:tools>", "sdk", factory=register_tools))
        sources += [ExtensionSource(f"<inline:{n}>", "sdk", factory=f) for n, f in enumerate(factories)]
        runtime = cls(cwd=cwd, session_manager=sm, registry=registry or ModelRegistry(settings.merged),
                      ui=ui or HeadlessUI(), settings=settings, cli_sources=sources, provider=provider,
                      system_prompt=system_prompt, max_turns=max_turns, use_entry_points=use_entry_points,
                      discover=discover, settings_extensions=settings_extensions, trust_store=trust_store,
                      stream_options=stream_options)
        runtime._configure_registry = configure_registry
        own_registry = registry is None
        await runtime._build_runtime(trust_override=trust, first=True)
        if own_registry:
            runtime.model_registry = runtime._settings_registry()
        runtime._choose_model(model)
        await runtime._start("startup", None)
        return runtime

    def _settings_registry(self) -> ModelRegistry:
        """A registry from the current settings, with the command line's overrides applied."""
        registry = ModelRegistry(self.settings.merged)
        if self._configure_registry is not None:
            self._configure_registry(registry)
        return registry

    def _choose_model(self, requested: Model | str | None) -> None:
        if isinstance(requested, Model):
            self.model = requested
            return
        if isinstance(requested, str):
            self.model = self.model_registry.resolve(requested)
            return
        restored = self._session_model()
        self.model = restored or self.model_registry.default_model()

    def _session_model(self) -> Model | None:
        ref = self.session_manager.build_session_context().model
        if not ref or not ref.get("provider") or not ref.get("modelId"):
            return None
        return self.model_registry.find(str(ref["provider"]), str(ref["modelId"]))

    async def _build_runtime(self, *, trust_override: bool | None, first: bool) -> None:
        """A fresh runner with every extension loaded (trust decided on first build)."""
        runner = ExtensionRunner()
        runner.context_factory = lambda: ExtensionContext(self)
        runner.on_error(self._report_error)
        runner.on_warning(lambda text: self.ui.notify(text, "warning"))
        runner.on_tool_registered(self._tool_registered)
        self.runner = runner
        self.events = EventBus()
        self._active_tools = []
        seen: set[str] = set()
        untrusted = load_settings(self.cwd, project_trusted=False)
        sources = list(self._cli_sources)
        if self._use_entry_points:
            sources += entry_point_sources(disabled_sources(untrusted, ["config", "global"]))
        if self._settings_extensions:
            sources += settings_sources(untrusted, ["config", "global"])
        if self._discover:
            sources += discover_dir(agent_dir() / "extensions", "discovered:global")
        apis = await load_extensions(sources, runner, self.events, seen)
        for api in apis:
            api._bind(self)
        if first:
            self.project_trusted = await resolve_project_trusted(
                self.cwd, store=self._trust_store or ProjectTrustStore(), override=trust_override,
                default=_default_trust(untrusted), extension_hook=self._trust_hook,
                ask_user=self._ask_trust if getattr(self.ui, "has_ui", False) else None)
        self.settings = load_settings(self.cwd, project_trusted=self.project_trusted)
        for warning in self.settings.warnings:
            self.ui.notify(warning, "warning")
        if self.project_trusted:
            project = settings_sources(self.settings, ["project"]) if self._settings_extensions else []
            if self._discover:
                project += discover_dir(project_config_dir(self.cwd) / "extensions", "discovered:project")
            for api in await load_extensions(project, runner, self.events, seen):
                api._bind(self)

    async def _trust_hook(self, cwd: str) -> TrustAnswer | None:
        answer = await self.runner.emit_project_trust(cwd)
        if answer is None:
            return None
        return TrustAnswer(bool(result_field(answer, "trusted")), bool(result_field(answer, "remember", False)))

    async def _ask_trust(self, cwd: str) -> TrustAnswer | None:
        ok = await self.ui.confirm("Trust this project?",
                                   f"{cwd} has a .pi/ folder that can configure and extend the agent.")
        return TrustAnswer(ok, remember=True)

    def _tool_registered(self, tool: ToolDefinition) -> None:
        if tool.name not in self._active_tools:
            self._active_tools.append(tool.name)

    def _report_error(self, error: ExtensionError) -> None:
        self.ui.notify(f"Extension error ({error.event}) in {error.extension_path}: {error.error}", "error")

    async def _start(self, reason: str, previous_file: str | None) -> None:
        event = Event(type="session_start", reason=reason)
        if previous_file is not None:
            event["previousSessionFile"] = previous_file
        await self._dispatch(event)
        created = reason == "new" or (reason == "startup" and self.session_manager.get_entry_count() == 0)
        await self._dispatch(Event(type="session:created" if created else "session:loaded", reason=reason,
                                   sessionFile=self.session_manager.get_session_file()))

    # --- events and persistence --------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Every event (agent and session) for front ends, before extension handlers run."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    async def _dispatch(self, event: Event) -> Any:
        for listener in list(self._listeners):
            with contextlib.suppress(Exception):
                listener(event)
        return await self.runner.emit(event)

    async def _host_append(self, append: Callable[[SessionManager], str], reason: str, **payload: Any) -> str:
        """Append an entry the host writes, after ``session:saving`` (whose handlers may append first)."""
        if not self._saving and self.runner.has_handlers("session:saving"):
            self._saving = True
            try:
                await self.runner.emit(Event(type="session:saving", reason=reason,
                                             sessionFile=self.session_manager.get_session_file(), **payload))
            finally:
                self._saving = False
        return append(self.session_manager)

    def append_extension_entry(self, append: Callable[[SessionManager], str]) -> str:
        return append(self.session_manager)

    async def _persist(self, message: dict[str, Any]) -> None:
        role = message.get("role")
        if role in ("user", "assistant", "toolResult"):
            entry_id = await self._host_append(lambda sm: sm.append_message(message), "message", message=message)
        elif role == "custom":
            entry_id = await self._host_append(
                lambda sm: sm.append_custom_message_entry(str(message.get("customType", "")),
                                                          message.get("content") or "", bool(message.get("display")),
                                                          message.get("details")), "message", message=message)
        else:
            return
        payload = {"message": message, "role": role, "entryId": entry_id, "timestamp": message.get("timestamp"),
                   "text": content_text(message.get("content"))}
        await self.runner.emit(Event(type="message", **payload))
        if role in ("user", "assistant"):
            await self.runner.emit(Event(type=f"message:{role}", **payload))

    # --- the RuntimeHost / ApiHost protocols -------------------------------------------------

    def base_system_prompt(self) -> str:
        """The prompt without ``before_agent_start`` changes: SYSTEM.md (project when trusted, else
        the agent dir) or the default, APPEND_SYSTEM.md, then the active tools' snippets and guidelines."""
        if self._turn_system_prompt is not None:
            return self._turn_system_prompt
        return self._compose_system_prompt()

    def _compose_system_prompt(self) -> str:
        dirs = ([project_config_dir(self.cwd)] if self.project_trusted else []) + [agent_dir()]
        base = self._system_prompt or _first_file(dirs, "SYSTEM.md") or DEFAULT_SYSTEM_PROMPT
        parts = [base.strip()]
        appended = _first_file(dirs, "APPEND_SYSTEM.md")
        if appended:
            parts.append(appended.strip())
        parts += tool_sections(self.active_tool_definitions())
        return "\n\n".join(parts)

    def is_idle(self) -> bool:
        return not self._running and not self._background

    def abort(self) -> None:
        if self.signal is not None:
            self.signal.set()

    def has_pending_messages(self) -> bool:
        return bool(self._steering or self._follow_up or self._next_turn)

    def context_usage(self) -> ContextUsage | None:
        if self.model is None:
            return None
        window = self.model.context_window
        for entry in reversed(self.session_manager.get_branch()):
            if entry.get("type") == "compaction":
                return ContextUsage(None, window, None)
            message = entry.get("message") if entry.get("type") == "message" else None
            if isinstance(message, Mapping) and message.get("role") == "assistant" and isinstance(
                    message.get("usage"), Mapping) and message.get("stopReason") not in ("error", "aborted"):
                tokens = calculate_context_tokens(message["usage"])
                return ContextUsage(tokens, window, 100.0 * tokens / window if window else None)
        return ContextUsage(None, window, None)

    def schedule_compact(self, custom_instructions: str | None, on_complete: Callable[[Any], Any] | None,
                         on_error: Callable[[BaseException], Any] | None) -> asyncio.Task[Any]:
        async def run() -> Any:
            try:
                await self.wait_for_idle()
                entry = await self.compact(custom_instructions)
            except Exception as exc:
                if on_error is not None:
                    on_error(exc)
                else:
                    self.ui.notify(f"Compaction failed: {exc}", "error")
                return None
            if on_complete is not None:
                on_complete(entry)
            return entry
        return self._spawn(run())

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def wait_for_idle(self) -> None:
        """Until no run and no background work (triggered turns, scheduled compactions) remains."""
        current = asyncio.current_task()
        while True:
            pending = [t for t in self._background if t is not current]
            if not pending and not self._running:
                return
            if pending:
                await asyncio.wait(pending)
            else:
                async with self._run_lock:
                    pass

    def settings_dict(self) -> dict[str, Any]:
        import copy
        return copy.deepcopy(self.settings.merged)

    def get_active_tools(self) -> list[str]:
        return list(self._active_tools)

    def set_active_tools(self, names: Sequence[str]) -> None:
        unknown = [n for n in names if n not in self.runner.tools]
        if unknown:
            self.ui.notify(f"Unknown tools ignored: {', '.join(unknown)}", "warning")
        self._active_tools = [n for n in dict.fromkeys(names) if n in self.runner.tools]

    def active_tool_definitions(self) -> list[ToolDefinition]:
        return [self.runner.tools[n] for n in self._active_tools if n in self.runner.tools]

    def send_custom_message(self, message: Mapping[str, Any], trigger_turn: bool, deliver_as: str | None,
                            source: str) -> None:
        msg: dict[str, Any] = {"role": "custom", "customType": result_field(message, "customType", ""),
                               "content": result_field(message, "content", ""),
                               "display": bool(result_field(message, "display", True))}
        details = result_field(message, "details")
        if details is not None:
            msg["details"] = details
        msg["timestamp"] = now_ms()
        if deliver_as == "nextTurn":
            self._next_turn.append(msg)
        elif self._running:
            (self._follow_up if deliver_as == "followUp" else self._steering).append(msg)
        elif trigger_turn:
            self._spawn(self._guarded(source, "send_message", self._run_agent([msg])))
        else:
            self.session_manager.append_custom_message_entry(msg["customType"], msg["content"], msg["display"],
                                                             details)
            for kind in ("message_start", "message_end"):
                for listener in list(self._listeners):
                    with contextlib.suppress(Exception):
                        listener(Event(type=kind, message=msg))

    def send_user_message(self, content: Any, deliver_as: str | None, source: str) -> None:
        if self._running:
            if deliver_as not in ("steer", "followUp"):
                self.runner.emit_error(ExtensionError(source, "send_user_message",
                                                      "Agent is streaming: pass deliver_as 'steer' or 'followUp'"))
                return
            message = {"role": "user", "content": _user_content(content, None), "timestamp": now_ms()}
            (self._follow_up if deliver_as == "followUp" else self._steering).append(message)
            return
        text = content if isinstance(content, str) else content_text(content)
        self._spawn(self._guarded(source, "send_user_message", self.prompt(text, source="extension")))

    async def _guarded(self, source: str, event: str, coro: Any) -> Any:
        try:
            return await coro
        except Exception as exc:
            self.runner.report(source, event, exc)
            return None

    # --- prompting ---------------------------------------------------------------------------

    async def prompt(self, text: str, images: Sequence[Mapping[str, Any]] | None = None, *,
                     source: str = "interactive") -> AgentRun | None:
        """Run one user prompt: extension command, ``input``, ``before_agent_start``, the agent loop,
        then auto-compaction. None when a command or an ``input`` handler took the input."""
        if source != "extension" and text.startswith("/"):
            name, _, args = text[1:].partition(" ")
            command = self.runner.commands.get(name)
            if command is not None:
                await self.run_command(name, args.strip())
                return None
        result = await self.runner.emit_input(text, [dict(i) for i in images] if images else None, source)
        if result.action == "handled":
            return None
        user = {"role": "user", "content": _user_content(result.text, result.images), "timestamp": now_ms()}
        return await self._run_agent([user], prompt_text=result.text, images=result.images)

    async def run_command(self, name: str, args: str) -> bool:
        """Run extension command ``/name``; False when there is no such command."""
        command = self.runner.commands.get(name)
        if command is None:
            return False
        try:
            value = command.handler(args, ExtensionCommandContext(self))
            if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
                await value
        except Exception as exc:
            self.runner.report(command.source, "command", exc)
        return True

    def _require_model(self) -> Model:
        if self.model is None:
            raise NoModelError(
                "No model configured. Pass --model provider/id (e.g. --model openai/gpt-4.1, or --model "
                "scripted/echo offline), or set defaultProvider and defaultModel in ~/.pi/agent/settings.json.")
        return self.model

    async def _run_agent(self, prompts: list[dict[str, Any]], *, prompt_text: str | None = None,
                         images: list[dict[str, Any]] | None = None) -> AgentRun:
        model = self._require_model()
        async with self._run_lock:
            self._running = True
            self.signal = AbortSignal()
            try:
                await self._compact_before_prompt()
                self._record_model(model)
                base = self._compose_system_prompt()
                self._turn_system_prompt = base
                extra: list[dict[str, Any]] = []
                if prompt_text is not None:
                    messages, chained = await self.runner.emit_before_agent_start(
                        prompt_text, images, base, ExtensionContext(self))
                    self._turn_system_prompt = chained or base
                    extra = [self._custom(m) for m in messages]
                queued, self._next_turn = self._next_turn, []
                all_prompts = prompts[:1] + queued + extra + prompts[1:] if prompt_text is not None else prompts
                config = LoopConfig(model, self._provider_for(model), self._turn_system_prompt,
                                    self.active_tool_definitions(), self.max_turns,
                                    self._stream_options or (lambda s: StreamOptions(signal=s)))
                hooks = _LoopHooks(self)
                run = await run_agent_loop(hooks, config, all_prompts, self.signal)
                last = run.last_assistant
                if (last is not None and last.get("stopReason") == "error"
                        and is_context_overflow(last, model.context_window)):
                    self._dropped.append(last)
                    if await self._auto_compact("overflow"):
                        retry = await run_agent_loop(hooks, config, [], self.signal)
                        run.messages += retry.messages
                        run.stop = retry.stop
                elif last is not None and last.get("stopReason") != "aborted":
                    await self._compact_if_over(last, "threshold")
                return run
            finally:
                self._running = False
                self.signal = None
                self._turn_system_prompt = None
                self._dropped = []

    @staticmethod
    def _custom(message: Mapping[str, Any]) -> dict[str, Any]:
        out = {"role": "custom", "customType": result_field(message, "customType", ""),
               "content": result_field(message, "content", ""),
               "display": bool(result_field(message, "display", True))}
        details = result_field(message, "details")
        if details is not None:
            out["details"] = details
        out["timestamp"] = now_ms()
        return out

    def _provider_for(self, model: Model) -> Provider:
        return self._provider if self._provider is not None else self.model_registry.get_provider(model)

    def _record_model(self, model: Model) -> None:
        current = self.session_manager.build_session_context().model
        if not current or current.get("provider") != model.provider or current.get("modelId") != model.id:
            self.session_manager.append_model_change(model.provider, model.id)

    async def set_model(self, model: Model, source: str = "set") -> bool:
        """Switch model (``model_select``); False when the model has no API key."""
        if self._provider is None and self.model_registry.auth_problem(model):
            return False
        previous = self.model
        if previous is not None and previous.ref == model.ref:
            return True
        self.model = model
        await self._host_append(lambda sm: sm.append_model_change(model.provider, model.id), "model_change")
        event = Event(type="model_select", model=model, source=source)
        if previous is not None:
            event["previousModel"] = previous
        await self._dispatch(event)
        return True

    async def set_session_name(self, name: str) -> None:
        """/name: a ``session_info`` entry (shown by pi's /resume)."""
        await self._host_append(lambda sm: sm.append_session_info(name), "session_info")

    # --- compaction --------------------------------------------------------------------------

    @property
    def compaction_settings(self) -> CompactionSettings:
        return CompactionSettings.from_settings(self.settings.merged)

    async def _compact_before_prompt(self) -> None:
        for entry in reversed(self.session_manager.get_branch()):
            if entry.get("type") == "compaction":
                return
            message = entry.get("message") if entry.get("type") == "message" else None
            if isinstance(message, Mapping) and message.get("role") == "assistant":
                await self._compact_if_over(message, "threshold")
                return

    async def _compact_if_over(self, message: Mapping[str, Any], reason: str) -> None:
        usage = message.get("usage")
        if self.model is None or not isinstance(usage, Mapping):
            return
        if compaction_mod.should_compact(calculate_context_tokens(usage), self.model.context_window,
                                         self.compaction_settings):
            await self._auto_compact(reason)

    async def _auto_compact(self, reason: str) -> bool:
        if not self.compaction_settings.enabled:
            return False
        for listener in list(self._listeners):
            with contextlib.suppress(Exception):
                listener(Event(type="auto_compaction_start", reason=reason))
        try:
            entry = await self.compact(auto=True)
        except CompactionError as exc:
            self.ui.notify(f"Auto-compaction ({reason}) failed: {exc}", "error")
            entry = None
        for listener in list(self._listeners):
            with contextlib.suppress(Exception):
                listener(Event(type="auto_compaction_end", reason=reason, result=entry, aborted=entry is None))
        return entry is not None

    async def compact(self, custom_instructions: str | None = None, *, auto: bool = False) -> Entry | None:
        """Compact the current branch (``session_before_compact`` → entry → ``session_compact``).

        Raises :class:`CompactionError` ("Already compacted", "Nothing to compact (session too
        small)", "Compaction cancelled", or the provider's failure). An automatic compaction that a
        handler cancels returns None.
        """
        path = self.session_manager.get_branch()
        if path and path[-1].get("type") == "compaction":
            raise CompactionError("Already compacted")
        preparation = prepare_compaction(path, self.compaction_settings)
        if preparation is None:
            raise CompactionError("Nothing to compact (session too small)")
        signal = self.signal or AbortSignal()
        result = await self.runner.emit(Event(type="session_before_compact", preparation=preparation.to_event(),
                                              branchEntries=path, customInstructions=custom_instructions,
                                              signal=signal))
        if result_field(result, "cancel"):
            if auto:
                return None
            raise CompactionError("Compaction cancelled")
        supplied = result_field(result, "compaction")
        if supplied:
            summary = str(result_field(supplied, "summary", ""))
            first_kept = result_field(supplied, "firstKeptEntryId", preparation.first_kept_entry_id)
            tokens_before = int(result_field(supplied, "tokensBefore", preparation.tokens_before))
            details, from_hook = result_field(supplied, "details"), True
        else:
            model = self._require_model()
            made = await compaction_mod.compact(preparation, self._provider_for(model), model, custom_instructions,
                                                signal)
            summary, first_kept, tokens_before = made.summary, made.first_kept_entry_id, made.tokens_before
            details, from_hook = made.details, False
        entry_id = await self._host_append(
            lambda sm: sm.append_compaction(summary, first_kept, tokens_before, details, from_hook), "compaction")
        entry = self.session_manager.get_entry(entry_id)
        await self._dispatch(Event(type="session_compact", compactionEntry=entry, fromExtension=from_hook))
        return entry

    # --- session actions ---------------------------------------------------------------------

    async def _replace(self, reason: str, swap: Callable[[], None]) -> None:
        previous = self.session_manager.get_session_file()
        await self._dispatch(Event(type="session_shutdown", reason=reason))
        swap()
        self._steering, self._follow_up, self._next_turn = [], [], []
        await self._build_runtime(trust_override=None, first=False)
        await self._start(reason, previous)

    async def new_session(self) -> SwitchResult:
        """/new: a fresh session in the same directory."""
        self.abort()
        await self.wait_for_idle()
        result = await self.runner.emit(Event(type="session_before_switch", reason="new"))
        if result_field(result, "cancel"):
            return SwitchResult(True)
        def swap() -> None:
            self.session_manager.new_session()
        await self._replace("new", swap)
        return SwitchResult(False)

    async def resume(self, path: str) -> SwitchResult:
        """/resume: open another session file (its model is restored: ``model_select`` "restore")."""
        self.abort()
        await self.wait_for_idle()
        result = await self.runner.emit(Event(type="session_before_switch", reason="resume",
                                              targetSessionFile=path))
        if result_field(result, "cancel"):
            return SwitchResult(True)

        def swap() -> None:
            self.session_manager = SessionManager.open(path)
        await self._replace("resume", swap)
        restored = self._session_model()
        if restored is not None and (self.model is None or restored.ref != self.model.ref):
            previous, self.model = self.model, restored
            event = Event(type="model_select", model=restored, source="restore")
            if previous is not None:
                event["previousModel"] = previous
            await self._dispatch(event)
        return SwitchResult(False)

    async def fork(self, entry_id: str) -> SwitchResult:
        """/fork: a new session holding the path before ``entry_id`` (a user message, whose text is
        returned for editing) or up to it (any other entry)."""
        self.abort()
        await self.wait_for_idle()
        entry = self.session_manager.get_entry(entry_id)
        if entry is None:
            raise ValueError(f"Entry {entry_id} not found")
        result = await self.runner.emit(Event(type="session_before_fork", entryId=entry_id))
        if result_field(result, "cancel"):
            return SwitchResult(True)
        message = entry.get("message") if entry.get("type") == "message" else None
        is_user = isinstance(message, Mapping) and message.get("role") == "user"
        leaf = entry.get("parentId") if is_user else entry_id
        text = content_text(message.get("content")) if is_user and isinstance(message, Mapping) else None
        sm = self.session_manager

        def swap() -> None:
            if leaf is None:
                sm.new_session(parent_session=sm.get_session_file())
            else:
                sm.create_branched_session(str(leaf))
        await self._replace("fork", swap)
        return SwitchResult(False, text)

    async def navigate_tree(self, target_id: str, *, summarize: bool = False,
                            custom_instructions: str | None = None) -> SwitchResult:
        """/tree: move the leaf within this file. Selecting a user message moves to its parent and
        returns its text for editing; ``summarize`` leaves a summary of the abandoned branch."""
        sm = self.session_manager
        target = sm.get_entry(target_id)
        if target is None:
            raise ValueError(f"Entry {target_id} not found")
        old_leaf = sm.get_leaf_id()
        old_path = sm.get_branch()
        target_ids = {e.get("id") for e in sm.get_branch(target_id)}
        common = next((e.get("id") for e in reversed(old_path) if e.get("id") in target_ids), None)
        abandoned = [e for e in old_path if e.get("id") not in target_ids]
        preparation = {"targetId": target_id, "oldLeafId": old_leaf, "commonAncestorId": common,
                       "entriesToSummarize": abandoned, "userWantsSummary": summarize,
                       "customInstructions": custom_instructions}
        result = await self.runner.emit(Event(type="session_before_tree", preparation=preparation,
                                              signal=AbortSignal()))
        if result_field(result, "cancel"):
            return SwitchResult(True)
        message = target.get("message") if target.get("type") == "message" else None
        is_user = isinstance(message, Mapping) and message.get("role") == "user"
        new_leaf = target.get("parentId") if is_user else target_id
        text = content_text(message.get("content")) if is_user and isinstance(message, Mapping) else None
        supplied = result_field(result, "summary")
        summary_text: str | None = None
        details: Any = None
        if supplied:
            summary_text, details = str(result_field(supplied, "summary", "")), result_field(supplied, "details")
        elif summarize and abandoned:
            summary_text = await self._branch_summary(abandoned, custom_instructions)
        summary_entry: Entry | None = None
        if summary_text:
            entry_id = sm.branch_with_summary(str(new_leaf) if new_leaf else None, summary_text, details,
                                              True if supplied else None)
            summary_entry = sm.get_entry(entry_id)
        elif new_leaf is None:
            sm.reset_leaf()
        else:
            sm.branch(str(new_leaf))
        event = Event(type="session_tree", newLeafId=sm.get_leaf_id(), oldLeafId=old_leaf)
        if summary_entry is not None:
            event["summaryEntry"] = summary_entry
            event["fromExtension"] = bool(supplied)
        await self._dispatch(event)
        await self._dispatch(Event(type="session:loaded", reason="tree", sessionFile=sm.get_session_file()))
        return SwitchResult(False, text)

    async def _branch_summary(self, entries: Sequence[Entry], custom_instructions: str | None) -> str:
        from .compaction import context_messages_of
        messages = [m for e in entries for m in context_messages_of(e) if m.get("role") != "toolResult"]
        if not messages:
            return "No content to summarize"
        model = self._require_model()
        prompt = (f"<conversation>\n{compaction_mod.serialize_conversation(messages)}\n</conversation>\n\n"
                  + compaction_mod.SUMMARIZATION_PROMPT
                  + (f"\n\nAdditional focus: {custom_instructions}" if custom_instructions else ""))
        text = await compaction_mod._summarize(self._provider_for(model), model, prompt,
                                               StreamOptions(max_tokens=2048), "Branch summarization")
        return ("The user explored a different conversation branch before returning here.\n"
                "Summary of that exploration:\n\n" + text)

    async def reload(self) -> None:
        """/reload: settings and extensions again (``session_shutdown`` → ``session_start`` "reload")."""
        await self.wait_for_idle()
        await self._dispatch(Event(type="session_shutdown", reason="reload"))
        await self._build_runtime(trust_override=None, first=False)
        self.model_registry = self._settings_registry() if self._provider is None else self.model_registry
        await self._start("reload", None)

    async def shutdown(self) -> None:
        """Exit: wait for background work, then ``session_shutdown`` {reason:"quit"} (once)."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(Exception):
            await self.wait_for_idle()
        await self._dispatch(Event(type="session_shutdown", reason="quit"))


def _user_content(text: Any, images: Sequence[Mapping[str, Any]] | None) -> list[dict[str, Any]]:
    if isinstance(text, list):
        return [dict(b) for b in text]
    return [{"type": "text", "text": str(text)}, *(dict(i) for i in images or [])]


def _first_file(dirs: Sequence[Path], name: str) -> str | None:
    for directory in dirs:
        try:
            return (directory / name).read_text(encoding="utf-8")
        except OSError:
            continue
    return None


def _default_trust(settings: Settings) -> Any:
    value = settings.get("defaultProjectTrust", "ask")
    return value if value in ("ask", "always", "never") else "ask"
