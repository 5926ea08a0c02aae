"""The session runtime (pi's AgentSession): one session, its extensions, model and settings, and
the user actions that drive them — prompt, /new, /resume, /fork, /tree, /compact, /reload, exit.

Lifecycle (reference §3.8, pi 1.6.0): startup loads the non-project extensions, decides project
trust (``project_trust``), loads project extensions when trusted, then ``session_start``
{reason:"startup"}. /new, /resume, /fork and /reload tear the extension runtime down
(``session_shutdown``) and build a fresh one on the new session (``session_start`` with the
reason and ``previousSessionFile``), so extensions rebuild state in one place.

The other jobs live beside it: loading extensions and deciding trust (``loader``), the system
prompt (``system_prompt``), runs, queues and persistence (``turns``), compaction
(``compaction.Compactor``), moving within one file for /tree and /fork (``navigation``), the loop
itself (``agent``).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pi_memory.providers import Model, ModelRegistry, Provider, StreamOptions
from pi_memory.session import SessionManager
from pi_memory.session.entries import Entry

from .agent import AgentRun, user_message
from .api import EventBus
from .compaction import CompactionSettings, Compactor
from .context import UI, ContextUsage, ExtensionCommandContext, ExtensionContext, HeadlessUI, SwitchResult
from .loader import ExtensionSource, ExtensionSwitches, decide_project_trust, load_session_extensions, sdk_sources
from .navigation import edit_point, navigate_tree
from .runner import ExtensionRunner
from .settings import Settings, load_settings
from .system_prompt import DEFAULT_SYSTEM_PROMPT, compose_system_prompt
from .tokens import context_usage
from .trust import ProjectTrustStore
from .turns import Turns
from .types import AbortSignal, Event, ExtensionError, ToolDefinition, call_listeners, result_field

__all__ = ["DEFAULT_SYSTEM_PROMPT", "NoModelError", "SessionRuntime"]

Listener = Callable[[Event], None]


class NoModelError(RuntimeError):
    """No model is configured; the message says how to configure one."""


class SessionRuntime:
    """Build with :meth:`create`; then :meth:`prompt`, and the session actions."""

    def __init__(self, *, cwd: str, session_manager: SessionManager, registry: ModelRegistry, ui: UI,
                 settings: Settings, cli_sources: Sequence[ExtensionSource], switches: ExtensionSwitches,
                 provider: Provider | None, system_prompt: str | None, max_turns: int,
                 trust_store: ProjectTrustStore | None,
                 stream_options: Callable[[AbortSignal | None], StreamOptions] | None) -> None:
        self.cwd = cwd
        self.session_manager = session_manager
        self.model_registry = registry
        self.ui = ui
        self.settings = settings
        self.model: Model | None = None
        self.project_trusted = False
        self.runner = ExtensionRunner()
        self.events = EventBus()
        self.max_turns = max_turns
        self._cli_sources = list(cli_sources)
        self._provider = provider
        self._system_prompt = system_prompt
        self._switches = switches
        self._trust_store = trust_store
        self._configure_registry: Callable[[ModelRegistry], None] | None = None
        self._listeners: list[Listener] = []
        self._active_tools: list[str] = []
        self._saving = False
        self._closed = False
        self.compactor = Compactor(self)
        self.turns = Turns(self, stream_options)

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
        runtime = cls(cwd=cwd, session_manager=sm, registry=registry or ModelRegistry(settings.merged),
                      ui=ui or HeadlessUI(), settings=settings, cli_sources=sdk_sources(extensions, factories, tools),
                      switches=ExtensionSwitches(use_entry_points, discover, settings_extensions), provider=provider,
                      system_prompt=system_prompt, max_turns=max_turns, trust_store=trust_store,
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
        elif isinstance(requested, str):
            self.model = self.model_registry.resolve(requested)
        else:
            self.model = self._session_model() or self.model_registry.default_model()

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

        async def trust(untrusted: Settings) -> bool:
            if not first:
                return self.project_trusted
            return await decide_project_trust(self.cwd, untrusted, runner, self.ui, store=self._trust_store,
                                              override=trust_override)

        self.settings, self.project_trusted = await load_session_extensions(
            self.cwd, self._cli_sources, self._switches, runner, self.events, bind=lambda api: api._bind(self),
            trust=trust, warn=lambda text: self.ui.notify(text, "warning"))

    def _tool_registered(self, tool: ToolDefinition) -> None:
        if tool.name not in self._active_tools:
            self._active_tools.append(tool.name)

    def _report_error(self, error: ExtensionError) -> None:
        self.ui.notify(f"Extension error ({error.event}) in {error.extension_path}: {error.error}", "error")

    async def _start(self, reason: str, previous_file: str | None) -> None:
        event = Event(type="session_start", reason=reason)
        if previous_file is not None:
            event["previousSessionFile"] = previous_file
        await self.dispatch(event)
        created = reason == "new" or (reason == "startup" and self.session_manager.get_entry_count() == 0)
        await self.dispatch(Event(type="session:created" if created else "session:loaded", reason=reason,
                                   sessionFile=self.session_manager.get_session_file()))

    # --- events and persistence --------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Every event (agent and session) for front ends, before extension handlers run."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def announce(self, event: Event) -> None:
        """Tell the front-end listeners only (events extensions do not receive)."""
        call_listeners(self._listeners, event)

    async def dispatch(self, event: Event) -> Any:
        """The front-end listeners, then the extensions' handlers (the result of ``runner.emit``)."""
        self.announce(event)
        return await self.runner.emit(event)

    async def append_host_entry(self, append: Callable[[SessionManager], str], reason: str, **payload: Any) -> str:
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

    # --- the RuntimeHost / ApiHost protocols -------------------------------------------------

    def base_system_prompt(self) -> str:
        """The prompt without ``before_agent_start`` changes: SYSTEM.md (project when trusted, else
        the agent dir) or the default, APPEND_SYSTEM.md, then the active tools' snippets and guidelines."""
        if self.turns.system_prompt is not None:
            return self.turns.system_prompt
        return self.compose_system_prompt()

    def compose_system_prompt(self) -> str:
        """This turn's prompt from the files and the active tools (see ``system_prompt``)."""
        return compose_system_prompt(self.cwd, project_trusted=self.project_trusted,
                                     tools=self.active_tool_definitions(), base=self._system_prompt)

    @property
    def signal(self) -> AbortSignal | None:
        """Set while the agent runs; ``abort()`` sets it."""
        return self.turns.signal

    def is_idle(self) -> bool:
        return self.turns.is_idle()

    def abort(self) -> None:
        self.turns.abort()

    def has_pending_messages(self) -> bool:
        return self.turns.has_pending_messages()

    def context_usage(self) -> ContextUsage | None:
        return None if self.model is None else context_usage(self.model.context_window,
                                                             self.session_manager.get_branch())

    def schedule_compact(self, custom_instructions: str | None, on_complete: Callable[[Any], Any] | None,
                         on_error: Callable[[BaseException], Any] | None) -> asyncio.Task[Any]:
        return self.turns.schedule_compact(custom_instructions, on_complete, on_error)

    async def wait_for_idle(self) -> None:
        """Until no run and no background work (triggered turns, scheduled compactions) remains."""
        await self.turns.wait_for_idle()

    def settings_dict(self) -> dict[str, Any]:
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
        self.turns.send_custom_message(message, trigger_turn, deliver_as, source)

    def send_user_message(self, content: Any, deliver_as: str | None, source: str) -> None:
        self.turns.send_user_message(content, deliver_as, source)

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
        return await self.turns.run([user_message(result.text, result.images)], prompt_text=result.text,
                                    images=result.images)

    async def run_command(self, name: str, args: str) -> bool:
        """Run extension command ``/name``; False when there is no such command."""
        return await self.runner.run_command(name, args, lambda: ExtensionCommandContext(self))

    def require_model(self) -> Model:
        """The current model, or :class:`NoModelError` saying how to configure one."""
        if self.model is None:
            raise NoModelError(
                "No model configured. Pass --model provider/id (e.g. --model openai/gpt-4.1, or --model "
                "scripted/echo offline), or set defaultProvider and defaultModel in ~/.pi/agent/settings.json.")
        return self.model

    def provider_for(self, model: Model) -> Provider:
        """The SDK's provider when one was given, else the registry's for the model's API."""
        return self._provider if self._provider is not None else self.model_registry.get_provider(model)

    async def set_model(self, model: Model, source: str = "set") -> bool:
        """Switch model (``model_select``); False when the model has no API key."""
        if self._provider is None and self.model_registry.auth_problem(model):
            return False
        previous = self.model
        if previous is not None and previous.ref == model.ref:
            return True
        self.model = model
        await self.append_host_entry(lambda sm: sm.append_model_change(model.provider, model.id), "model_change")
        await self._model_selected(previous, source)
        return True

    async def _model_selected(self, previous: Model | None, source: str) -> None:
        event = Event(type="model_select", model=self.model, source=source)
        if previous is not None:
            event["previousModel"] = previous
        await self.dispatch(event)

    async def set_session_name(self, name: str) -> None:
        """/name: a ``session_info`` entry (shown by pi's /resume)."""
        await self.append_host_entry(lambda sm: sm.append_session_info(name), "session_info")

    # --- compaction --------------------------------------------------------------------------

    @property
    def compaction_settings(self) -> CompactionSettings:
        return self.compactor.settings

    async def compact(self, custom_instructions: str | None = None, *, auto: bool = False) -> Entry | None:
        """Compact the current branch (``session_before_compact`` → entry → ``session_compact``).

        Raises :class:`CompactionError` ("Already compacted", "Nothing to compact (session too
        small)", "Compaction cancelled", or the provider's failure). An automatic compaction that a
        handler cancels returns None.
        """
        return await self.compactor.compact(custom_instructions, auto=auto)

    # --- session actions ---------------------------------------------------------------------

    async def _switch(self, reason: str, before: Event, swap: Callable[[], object]) -> bool:
        """Stop the agent and ask the ``session_before_*`` handlers; unless one cancels (True):
        ``session_shutdown``, ``swap`` the session, a fresh extension runtime, ``session_start``."""
        self.abort()
        await self.wait_for_idle()
        if result_field(await self.runner.emit(before), "cancel"):
            return True
        previous = self.session_manager.get_session_file()
        await self.dispatch(Event(type="session_shutdown", reason=reason))
        swap()
        self.turns.clear_queues()
        await self._build_runtime(trust_override=None, first=False)
        await self._start(reason, previous)
        return False

    async def new_session(self) -> SwitchResult:
        """/new: a fresh session in the same directory."""
        sm = self.session_manager
        return SwitchResult(await self._switch("new", Event(type="session_before_switch", reason="new"),
                                               sm.new_session))

    async def resume(self, path: str) -> SwitchResult:
        """/resume: open another session file (its model is restored: ``model_select`` "restore")."""
        def swap() -> None:
            self.session_manager = SessionManager.open(path)
        before = Event(type="session_before_switch", reason="resume", targetSessionFile=path)
        if await self._switch("resume", before, swap):
            return SwitchResult(True)
        restored = self._session_model()
        if restored is not None and (self.model is None or restored.ref != self.model.ref):
            previous, self.model = self.model, restored
            await self._model_selected(previous, "restore")
        return SwitchResult(False)

    async def fork(self, entry_id: str) -> SwitchResult:
        """/fork: a new session holding the path before ``entry_id`` (a user message, whose text is
        returned for editing) or up to it (any other entry)."""
        self.abort()
        await self.wait_for_idle()
        sm = self.session_manager
        entry = sm.get_entry(entry_id)
        if entry is None:
            raise ValueError(f"Entry {entry_id} not found")
        leaf, text = edit_point(entry, entry_id)

        def swap() -> None:
            if leaf is None:
                sm.new_session(parent_session=sm.get_session_file())
            else:
                sm.create_branched_session(str(leaf))
        if await self._switch("fork", Event(type="session_before_fork", entryId=entry_id), swap):
            return SwitchResult(True)
        return SwitchResult(False, text)

    async def navigate_tree(self, target_id: str, *, summarize: bool = False,
                            custom_instructions: str | None = None) -> SwitchResult:
        """/tree: move the leaf within this file (see :func:`~pi_memory.host.navigation.navigate_tree`)."""
        return await navigate_tree(self, target_id, summarize=summarize, custom_instructions=custom_instructions)

    async def reload(self) -> None:
        """/reload: settings and extensions again (``session_shutdown`` → ``session_start`` "reload")."""
        await self.wait_for_idle()
        await self.dispatch(Event(type="session_shutdown", reason="reload"))
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
        await self.dispatch(Event(type="session_shutdown", reason="quit"))
