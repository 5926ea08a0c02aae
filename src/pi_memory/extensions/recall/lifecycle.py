"""The recall extension's life in a session.

* ``session_start`` — read the ``pi-memory-recall`` settings, open (or share) the index and its
  :class:`~pi_memory.recall.RecallService`, register ``search_memory``, and queue the entries the
  session already has (a resumed or forked session; ``add`` is idempotent, so nothing doubles).
* ``message`` (guide dialect: after the entry is written) and ``message_end`` / ``agent_end``
  (pi's) — queue every indexable entry written since the last look. Queueing is a list append;
  embedding and writing happen on the service's thread, flushed at ``batchSize`` messages or
  ``flushInterval`` seconds, so a turn never waits on the index.
* ``session_shutdown`` — queue the rest, then flush and close (the last user closes the index).

Records are made by :func:`pi_memory.recall.backfill.records_from_entries`, so a message indexed
live and the same message found later by ``pi-memory recall index`` share one id,
``<sessionId>:<entryId>``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from pi_memory.backends import redact
from pi_memory.host import ExtensionAPI
from pi_memory.host.settings import load_settings
from pi_memory.recall import Embedder, RecallService, default_index_path
from pi_memory.recall.backfill import records_from_entries

from . import shared
from .settings import SECTION, RecallSettings, parse_recall_settings
from .tool import RecallTool, SearchMemoryTool

__all__ = ["RecallExtension", "ServiceExtension", "read_settings", "recall_extension"]

_INJECTED = ("service", "embedder")
IN_MEMORY_URL = ":memory:"  # SQLite's in-memory database


def read_settings(ctx: Any, config: Mapping[str, Any]) -> RecallSettings:
    """The file layers' ``pi-memory-recall`` section with the extension config on top."""
    files = load_settings(ctx.cwd, project_trusted=ctx.is_project_trusted() is True)
    file_section = files.checked_section(SECTION, lambda text: ctx.ui.notify(f"pi-memory recall: {text}", "warning"))
    embedder = config.get("embedder")
    injected = {k: v for k, v in config.items() if k not in _INJECTED}
    if isinstance(embedder, str):
        injected["embedder"] = embedder
    return parse_recall_settings(file_section, injected)


def service_for(settings: RecallSettings, config: Mapping[str, Any]) -> tuple[RecallService, bool]:
    """(the service, whether it came from the shared registry and must be released)."""
    given = config.get("service")
    if isinstance(given, RecallService):
        return given, False
    embedder = config.get("embedder")
    return shared.acquire(settings, embedder if isinstance(embedder, Embedder) else None), True


class ServiceExtension:
    """What the recall and decay extensions share: the ``pi-memory-recall`` settings, the recall
    service (shared through :mod:`.shared` unless the config passes one in) and one tool.

    ``session_start`` reads the settings, opens the service once, registers the tool once and then
    calls :meth:`started`; a failure is reported on the terminal, never raised into the host. An
    in-memory session (``SessionManager.in_memory``) without a configured ``url`` gets an
    in-memory index (shared by this process's in-memory sessions), so it leaves no file behind.
    ``session_shutdown`` gives a shared service back (the last user closes it).
    """

    #: Names the extension in the message shown when it cannot start.
    kind = "recall"

    def __init__(self, pi: ExtensionAPI, config: Mapping[str, Any] | None, tool: RecallTool) -> None:
        self.pi = pi
        self.config = dict(config or {})
        self.settings: RecallSettings | None = None
        self.service: RecallService | None = None
        self._shared = False
        self.tool = tool
        self._registered = False
        pi.on("session_start", self.on_session_start)
        pi.on("session_shutdown", self.on_session_shutdown)

    async def on_session_start(self, event: Any, ctx: Any) -> None:
        try:
            self.settings = settings = read_settings(ctx, self.config)
            if not settings.enabled:
                return
            if ctx.session_manager.get_session_file() is None and settings.location == str(default_index_path()):
                # An in-memory session leaves nothing on disk: its default index lives in memory too.
                self.settings = settings = replace(settings, url=IN_MEMORY_URL)
            if self.service is None:
                self.service, self._shared = await asyncio.to_thread(service_for, settings, self.config)
            if not self._registered:
                self.pi.register_tool(self.tool)
                self._registered = True
            self.started(ctx)
        except Exception as exc:
            ctx.ui.notify(f"pi-memory {self.kind} failed to start: {redact(str(exc))}", "error")

    def started(self, ctx: Any) -> None:
        """Called once the service is open and the tool registered (each ``session_start``)."""

    async def on_session_shutdown(self, event: Any, ctx: Any) -> None:
        service, self.service = self.service, None
        if service is not None and self._shared:
            await asyncio.to_thread(shared.release, service)


class RecallExtension(ServiceExtension):
    """One instance per loaded extension (the host builds a fresh one on /new, /resume, /reload).

    ``config`` keys: the settings keys (``enabled``, ``url``, ``embedder``, ``batchSize``,
    ``flushInterval``, ``decayRate``, ``rank``) plus, in process, ``service`` (a
    :class:`RecallService` the host owns) or ``embedder`` (an :class:`Embedder` object).
    """

    def __init__(self, pi: ExtensionAPI, config: Mapping[str, Any] | None = None) -> None:
        super().__init__(pi, config, SearchMemoryTool(lambda: self.service, self._rank))
        self._session_id: str | None = None
        self._source: str | None = None
        self._cursor = 0
        self.queued = 0
        """Records handed to the service by this instance (tests and status)."""
        pi.on("message", self.on_message)
        pi.on("message_end", self.on_message)
        pi.on("agent_end", self.on_message)

    def _rank(self) -> str:
        return self.settings.rank if self.settings else "relevance"

    def started(self, ctx: Any) -> None:
        """Queue the entries the session already has (a resumed or forked session)."""
        self._sweep(ctx)

    def on_message(self, event: Any, ctx: Any) -> None:
        self._sweep(ctx)

    def _sweep(self, ctx: Any) -> None:
        """Queue every indexable entry appended since the last sweep (entries are append-only)."""
        if self.service is None:
            return
        sm = ctx.session_manager
        session_id = sm.get_session_id()
        if session_id != self._session_id:
            self._session_id, self._cursor = session_id, 0
            file = sm.get_session_file()
            self._source = str(Path(file).resolve()) if file else None
        entries = sm.get_entries()
        fresh = entries[self._cursor :]
        self._cursor = len(entries)
        if not fresh:
            return
        records = records_from_entries(fresh, session_id, source=self._source)
        if records:
            self.service.index_messages(records)
            self.queued += len(records)

    async def on_session_shutdown(self, event: Any, ctx: Any) -> None:
        """Queue the rest; then a shared service is given back, one the host owns is flushed."""
        service = self.service
        if service is None:
            return
        try:
            self._sweep(ctx)
        finally:
            if self._shared:
                await super().on_session_shutdown(event, ctx)
            else:
                self.service = None
                await asyncio.to_thread(service.flush)


def recall_extension(pi: ExtensionAPI, config: Mapping[str, Any] | None = None) -> RecallExtension:
    """The recall extension (entry point ``recall``): index every message, offer ``search_memory``."""
    return RecallExtension(pi, config)
