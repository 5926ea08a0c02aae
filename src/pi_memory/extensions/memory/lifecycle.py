"""The memory extension's life in a session (reference §5.4, §6.1).

* ``session_start`` — settings, the store, the snapshot this session shows (its saved one, or a
  fresh capture that is saved at once), the four tools, the status line, and a background dream.
* ``before_agent_start`` — the guidance (once) and the frozen snapshot go into the system
  prompt. No disk access: the prompt is byte-identical for the whole session.
* ``session_compact`` — the conversation was summarised, so the prompt cache is cold anyway:
  reload memory and save a new snapshot if it changed.
* ``session_tree`` — another branch may have saved another snapshot; show that one.
* ``session_shutdown`` — stop background work and forget the store (closing the database
  connections of a store it opened itself, once a running dream is done with them).

With ``"backend": "postgres"`` in the settings the store lives in a shared database. If that
database cannot be used when the session starts, the status says ``memory: unavailable``, an
error says what to fix, and no empty snapshot is saved — so the next start, once the database
answers again, captures the real memory instead of freezing an empty one.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Mapping
from typing import Any

from pi_memory.backends import close_store, redact, store_problem
from pi_memory.base import content_text
from pi_memory.host import AbortSignal, ExtensionAPI
from pi_memory.host.settings import load_settings
from pi_memory.memory import MEMORY_GUIDANCE, MemoryStore, create_memory_tools

from . import command
from .dream import DreamOptions, dream
from .extraction import ExtractionRunner
from .readiness import DreamingReport, dream_location, dreaming_report
from .settings import SECTION, DreamingSettings, MemorySettings, open_settings_store, parse_settings
from .snapshot import SNAPSHOT_TYPE, capture_snapshot, saved_snapshot

__all__ = ["STATUS_KEY", "MemoryExtension", "memory_extension"]

STATUS_KEY = "pi-memory"
_told: set[str] = set()  # dreaming notices already shown by this process: each is said once


def _tell_once(ctx: Any, text: str) -> None:
    if text not in _told:
        _told.add(text)
        ctx.ui.notify(text, "warning")


class MemoryExtension:
    """One instance per loaded extension (the host builds a fresh one on /new, /resume, /reload).

    ``store``, ``snapshot``, ``settings``, ``dream_options`` and ``dream_task`` are public so a
    host (or a test) can see what the extension is doing without reaching into the session.
    """

    def __init__(self, pi: ExtensionAPI, config: Mapping[str, Any] | None = None) -> None:
        self.pi = pi
        self.config = dict(config or {})
        self.injected_store: MemoryStore | None = self.config.get("store")
        self.store: MemoryStore | None = None
        self.snapshot = ""
        self.settings: MemorySettings | None = None
        self.extraction: ExtractionRunner | None = None
        self.dream_options: DreamOptions | None = None
        self.dream_task: asyncio.Task[Any] | None = None
        self._dream_signal: AbortSignal | None = None
        self._tools_registered = False
        self._owned_store: MemoryStore | None = None
        pi.on("session_start", self.on_session_start)
        pi.on("before_agent_start", self.on_before_agent_start)
        pi.on("session_compact", self.on_session_compact)
        pi.on("session_tree", self.on_session_tree)
        pi.on("message_end", self.on_message_end)
        pi.on("turn_end", self.on_turn_end)
        pi.on("session_shutdown", self.on_session_shutdown)
        pi.register_command("memory", {"description": command.DESCRIPTION, "handler": self.on_command,
                                       "getArgumentCompletions": command.complete})

    # --- session_start -------------------------------------------------------------------------

    async def on_session_start(self, event: Any, ctx: Any) -> None:
        self.snapshot = ""
        self._release_store()
        try:
            files = load_settings(ctx.cwd, project_trusted=ctx.is_project_trusted() is True)
            file_section = files.checked_section(SECTION, lambda text: ctx.ui.notify(f"pi-memory: {text}", "warning"))
            injected = {k: v for k, v in self.config.items() if k != "store"}
            self.settings = settings = parse_settings(file_section, {**injected, "store": self.injected_store})
            store = open_settings_store(settings)
            if store is not self.injected_store:
                self._owned_store = store
            problem = await asyncio.to_thread(store_problem, store)
            if problem is not None:
                self._start_unavailable(ctx, store, problem)
                return
            await asyncio.to_thread(store.load_from_disk)
            self.store = store
            self._choose_snapshot(ctx)
            self._register_tools(store)
            self._set_status(ctx)
            if settings.extraction_model is not None:
                self.extraction = ExtractionRunner(store=store, registry=ctx.model_registry,
                                                   model=settings.extraction_model,
                                                   interval=settings.extraction_interval, notify=ctx.ui.notify)
            self._start_dream(ctx, settings, store)
        except Exception as exc:
            ctx.ui.set_status(STATUS_KEY, "memory: unavailable")
            ctx.ui.notify(f"pi-memory failed to initialize: {redact(str(exc))}", "error")

    def _start_unavailable(self, ctx: Any, store: MemoryStore, problem: str) -> None:
        """The shared store cannot be reached: tools and /memory answer with the problem, a saved
        snapshot still shows (it is this session's frozen text), nothing new is saved, no dream."""
        self.store = store
        self.snapshot = saved_snapshot(ctx.session_manager, ctx.session_manager.get_session_id()) or ""
        self._register_tools(store)
        ctx.ui.set_status(STATUS_KEY, "memory: unavailable")
        ctx.ui.notify(f"pi-memory: {problem}", "error")

    def _choose_snapshot(self, ctx: Any) -> None:
        assert self.store is not None
        session_id = ctx.session_manager.get_session_id()
        fresh = capture_snapshot(self.store)
        saved = saved_snapshot(ctx.session_manager, session_id)
        if saved is not None:
            self.snapshot = saved
        else:
            self.snapshot = fresh
            self._persist(session_id, fresh)

    def _persist(self, session_id: str, snapshot: str) -> None:
        self.pi.append_entry(SNAPSHOT_TYPE, {"sessionId": session_id, "snapshot": snapshot})

    def _register_tools(self, store: MemoryStore) -> None:
        if self._tools_registered:
            return
        for tool in create_memory_tools(store):
            self.pi.register_tool(tool)
        self._tools_registered = True

    def _set_status(self, ctx: Any) -> None:
        ctx.ui.set_status(STATUS_KEY, "memory: loaded" if self.snapshot else "memory: empty")

    def _start_dream(self, ctx: Any, settings: MemorySettings, store: MemoryStore) -> None:
        self._dream_signal = AbortSignal()
        where = dream_location(settings, store)
        if where is None:
            return  # an injected store on a backend we cannot lock across processes: no dream
        if ctx.session_manager.get_session_file() is None:
            return  # an in-memory session leaves nothing on disk: no background dream either
        self.dream_options = DreamOptions(
            **where, model_registry=ctx.model_registry,
            session_dir=ctx.session_manager.get_session_dir() or None,
            include_global_sessions=settings.uses_default_dir,
            dreaming=settings.dreaming, signal=self._dream_signal,
            memory_char_limit=store.memory_char_limit, user_char_limit=store.user_char_limit)
        report = self.dreaming_report(ctx)
        if report is not None and report.reason not in (None, "disabled"):  # off by choice needs no word
            _tell_once(ctx, f"pi-memory: {report.line()}")
        self.dream_task = asyncio.ensure_future(_background_dream(self.dream_options, ctx))
        self.dream_task.add_done_callback(_report_dream_failure)

    def dreaming_report(self, ctx: Any) -> DreamingReport | None:
        """Whether the background dream can run (None when this store is never dreamed over)."""
        if self.dream_options is None or self.settings is None:
            return None
        return dreaming_report(self.settings.dreaming, ctx.model_registry, self.dream_options.state_path)

    # --- prompts -------------------------------------------------------------------------------

    def on_before_agent_start(self, event: Any, ctx: Any) -> dict[str, str] | None:
        base = event.get("systemPrompt") or ""
        parts = [MEMORY_GUIDANCE if MEMORY_GUIDANCE not in base else "", self.snapshot]
        block = "\n\n".join(part for part in parts if part)
        if not block:
            return None
        return {"systemPrompt": f"{base}\n\n{block}" if base else block}

    async def on_session_compact(self, event: Any, ctx: Any) -> None:
        if self.store is None:
            return
        problem = await asyncio.to_thread(store_problem, self.store)
        if problem is not None:  # keep the current block rather than freeze an empty one
            ctx.ui.notify(f"pi-memory: memory was not refreshed after compaction: {problem}", "warning")
            return
        await asyncio.to_thread(self.store.load_from_disk)
        fresh = capture_snapshot(self.store)
        if fresh == self.snapshot:
            return
        self.snapshot = fresh
        self._persist(ctx.session_manager.get_session_id(), fresh)
        self._set_status(ctx)

    def on_session_tree(self, event: Any, ctx: Any) -> None:
        if self.store is None:
            return
        saved = saved_snapshot(ctx.session_manager, ctx.session_manager.get_session_id())
        self.snapshot = saved if saved is not None else capture_snapshot(self.store)
        self._set_status(ctx)

    # --- background extraction -----------------------------------------------------------------

    def on_message_end(self, event: Any, ctx: Any) -> None:
        message = event.get("message")
        if self.extraction is not None and isinstance(message, Mapping):
            self.extraction.on_message(str(message.get("role")), content_text(message.get("content")))

    def on_turn_end(self, event: Any, ctx: Any) -> None:
        if self.extraction is not None:
            task = self.extraction.on_turn_end(list(event.get("toolResults") or []))
            if task is not None:
                task.add_done_callback(_report_extraction_failure)

    # --- /memory and shutdown ------------------------------------------------------------------

    async def on_command(self, args: str, ctx: Any) -> None:
        messages: list[tuple[str, str]] = []
        store = self.store
        report = self.dreaming_report(ctx)
        await asyncio.to_thread(command.run_memory_command, store, args,
                                lambda text, level: messages.append((text, level)),
                                report.line() if report is not None and report.reason not in (None, "disabled")
                                else None)
        for text, level in messages:
            ctx.ui.notify(text, level)

    async def on_session_shutdown(self, event: Any, ctx: Any) -> None:
        if self._dream_signal is not None:
            self._dream_signal.set()
        if self.extraction is not None:
            await self.extraction.shutdown()
            self.extraction = None
        self.store = None
        self.snapshot = ""
        self._release_store()

    def _release_store(self) -> None:
        """Close a store this instance opened (database connections); a running dream keeps it
        until it has stopped, and an injected store belongs to the host."""
        owned, self._owned_store = self._owned_store, None
        if owned is None:
            return
        task = self.dream_task
        if task is not None and not task.done():
            task.add_done_callback(lambda _: close_store(owned))
        else:
            close_store(owned)


async def _background_dream(options: DreamOptions, ctx: Any) -> bool:
    """One gated dream; a model call that failed (unreachable, rejected) is said once, with the fix."""
    outcome = await dream(options)
    if outcome.reason == "failed":
        report = dreaming_report(options.dreaming or DreamingSettings(), options.model_registry, options.state_path)
        _tell_once(ctx, f"pi-memory: {report.line()}" if not report.on else f"pi-memory: {outcome.message}")
    return outcome.ran


def _report_dream_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        print(f"[pi-memory] background dream failed: {task.exception()}", file=sys.stderr)


def _report_extraction_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        print(f"[pi-memory] background extraction failed: {task.exception()}", file=sys.stderr)


def memory_extension(pi: ExtensionAPI, config: Mapping[str, Any] | None = None) -> MemoryExtension:
    """The pi-memory extension. Mode 1 (no config, or settings-like keys): a store in the
    configured ``dataDir``, or in PostgreSQL with ``backend``/``dsn``/``namespace``. Mode 2:
    ``{"store": store}`` — the host's own store."""
    return MemoryExtension(pi, config)
