"""Recall outside the pi host: ``search_memory`` and ``get_important_memories`` over a lazily opened index.

The extensions open the recall service at ``session_start``; a server or a framework adapter
(``pi-memory mcp``, the Pydantic AI toolset) has no session, so it builds the same two tool objects
over a service opened on the first call, in the tool's worker thread: listing tools stays instant,
a program that never recalls anything never loads the embedding table, and a slow database never
stalls the caller. Such a user indexes nothing itself — that is the host's and ``pi-memory recall
index``'s job — so it searches every past pi session; its searches do count as accesses, which is
what ``get_important_memories`` weighs.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Any

from pi_memory.backends import redact
from pi_memory.recall import RecallService

from .settings import RecallSettings, parse_recall_settings
from .tool import RecallTool, SearchMemoryTool

__all__ = ["LazyRecallService", "standalone_recall_tools"]

log = logging.getLogger("pi_memory.recall")


class LazyRecallService:
    """The shared recall service for ``settings``, opened once on first use; ``None`` (logged) when it cannot be."""

    def __init__(self, settings: RecallSettings) -> None:
        self._settings = settings
        self._lock = threading.Lock()
        self._opened = False
        self.service: RecallService | None = None

    def open(self) -> RecallService | None:
        with self._lock:
            if not self._opened:
                self._opened = True
                from . import shared

                try:
                    self.service = shared.acquire(self._settings)
                except Exception as exc:  # reported to the model as "recall is not available"
                    location = self._settings.location
                    log.warning("recall index %s could not be opened: %s", redact(location, location),
                                redact(str(exc), location))
            return self.service


def standalone_recall_tools(section: Mapping[str, Any] | RecallSettings | None) -> list[RecallTool]:
    """The two recall tools for a ``pi-memory-recall`` settings section; ``[]`` when recall is disabled."""
    from pi_memory.extensions.decay.tool import ImportantMemoriesTool

    settings = section if isinstance(section, RecallSettings) else parse_recall_settings(section)
    if not settings.enabled:
        return []
    service = LazyRecallService(settings)
    return [
        SearchMemoryTool(service.open, lambda: settings.rank),
        ImportantMemoriesTool(service.open, lambda: settings.decay_rate),
    ]
