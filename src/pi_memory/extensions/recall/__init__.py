"""Recall as an extension: every user, assistant, tool-result and custom message of every
session indexed in the background, and a ``search_memory(query, topK=5)`` tool. See
``docs/recall.md``.

Installed, it is found through the ``pi_memory.extensions`` entry point (``recall``) and keeps
its index where the ``pi-memory-recall`` settings say (default ``<agentDir>/recall.db``).
In process, ``recall_extension(pi, {"service": service})`` uses a service the host owns.
"""

from typing import TYPE_CHECKING

from pi_memory._lazy import lazy_package

if TYPE_CHECKING:  # imported on first use (pi_memory._lazy)
    from .lifecycle import RecallExtension, read_settings, recall_extension
    from .settings import RANK_MODES, SECTION, RecallSettings, RecallSettingsError, parse_recall_settings
    from .tool import SearchMemoryTool, render_hits, search_result

__all__ = [
    "RANK_MODES",
    "SECTION",
    "RecallExtension",
    "RecallSettings",
    "RecallSettingsError",
    "SearchMemoryTool",
    "parse_recall_settings",
    "read_settings",
    "recall_extension",
    "render_hits",
    "search_result",
]

lazy_package(__name__)
