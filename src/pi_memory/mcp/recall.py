"""Recall for MCP clients: ``search_memory`` and ``get_important_memories``.

The recall and decay extensions define these tools for the pi host; this provider serves the same
tool objects over MCP, on the index the user's ``pi-memory-recall`` settings name (``url``, else
``$PI_MEMORY_RECALL_URL``, else ``<agentDir>/recall.db``). The server indexes nothing itself —
that is the host's and ``pi-memory recall index``'s job — so an MCP client searches every past pi
session; its searches do count as accesses, which is what ``get_important_memories`` weighs.
Set ``"pi-memory-recall": {"enabled": false}`` to leave the tools out.

The index is opened on the first call, in a worker thread: listing tools stays instant, a server
whose client never recalls anything never loads the embedding table, and a slow database never
stalls the other requests.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from pi_memory.backends import redact
from pi_memory.recall import RecallService

from .tools import McpTool, ToolContext

__all__ = ["RECALL_SECTION", "recall_tools"]

log = logging.getLogger(__name__)

RECALL_SECTION = "pi-memory-recall"


class _SharedService:
    """The recall service, opened once on first use; ``None`` (logged) when it cannot be opened."""

    def __init__(self, settings: Any) -> None:
        self._settings = settings
        self._lock = threading.Lock()
        self._opened = False
        self.service: RecallService | None = None

    def open(self) -> RecallService | None:
        with self._lock:
            if not self._opened:
                self._opened = True
                from pi_memory.extensions.recall import shared

                try:
                    self.service = shared.acquire(self._settings)
                except Exception as exc:
                    location = self._settings.location
                    log.warning("recall index %s could not be opened: %s", redact(location, location),
                                redact(str(exc), location))
            return self.service


def recall_tools(context: ToolContext) -> list[McpTool]:
    """The recall provider (built into ``pi-memory mcp``); ``[]`` when recall is disabled."""
    from pi_memory.extensions.decay.tool import ImportantMemoriesTool
    from pi_memory.extensions.recall.settings import parse_recall_settings
    from pi_memory.extensions.recall.tool import SearchMemoryTool

    settings = parse_recall_settings(context.section(RECALL_SECTION))
    if not settings.enabled:
        return []
    service = _SharedService(settings)  # the tools call service.open in a worker thread, per call
    return [
        SearchMemoryTool(service.open, lambda: settings.rank),
        ImportantMemoriesTool(service.open, lambda: settings.decay_rate),
    ]
