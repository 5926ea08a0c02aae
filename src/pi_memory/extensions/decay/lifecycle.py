"""The decay extension: ``get_important_memories`` over the recall index.

It shares the recall extension's :class:`~pi_memory.recall.RecallService` (same
``pi-memory-recall`` settings, same index), so the accesses ``search_memory`` records are the ones
this tool weighs. It indexes nothing itself; without the recall extension it reads what
``pi-memory recall index`` put there. The rate comes from ``pi-memory-recall.decayRate`` or the
extension config (``{"rate": 0.001}``), default 0.0001 per hour.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from pi_memory.host import ExtensionAPI
from pi_memory.recall import DEFAULT_DECAY_RATE, RecallService

from ..recall import shared
from ..recall.lifecycle import read_settings, service_for
from ..recall.settings import RecallSettings
from .tool import ImportantMemoriesTool

__all__ = ["DecayExtension", "decay_extension"]


class DecayExtension:
    """One instance per loaded extension; ``config`` as for the recall extension, plus ``rate``."""

    def __init__(self, pi: ExtensionAPI, config: Mapping[str, Any] | None = None) -> None:
        self.pi = pi
        self.config = dict(config or {})
        self.settings: RecallSettings | None = None
        self.service: RecallService | None = None
        self._shared = False
        self.tool = ImportantMemoriesTool(lambda: self.service, lambda: self.rate)
        self._registered = False
        pi.on("session_start", self.on_session_start)
        pi.on("session_shutdown", self.on_session_shutdown)

    @property
    def rate(self) -> float:
        return self.settings.decay_rate if self.settings else DEFAULT_DECAY_RATE

    async def on_session_start(self, event: Any, ctx: Any) -> None:
        try:
            self.settings = settings = read_settings(ctx, self.config)
            if not settings.enabled:
                return
            if self.service is None:
                self.service, self._shared = await asyncio.to_thread(service_for, settings, self.config)
            if not self._registered:
                self.pi.register_tool(self.tool)
                self._registered = True
        except Exception as exc:
            ctx.ui.notify(f"pi-memory decay failed to start: {exc}", "error")

    async def on_session_shutdown(self, event: Any, ctx: Any) -> None:
        service, self.service = self.service, None
        if service is not None and self._shared:
            await asyncio.to_thread(shared.release, service)


def decay_extension(pi: ExtensionAPI, config: Mapping[str, Any] | None = None) -> DecayExtension:
    """The decay extension (entry point ``decay``): ``get_important_memories(threshold, limit)``."""
    return DecayExtension(pi, config)
