"""pi-memory as an extension: memory in every session's system prompt, ``/memory``, dreaming and
background extraction. See ``docs/memory-extension.md``.

Mode 1 — installed, it is found through the ``pi_memory.extensions`` entry point and keeps its
own store in the configured ``dataDir``, or with ``"backend": "postgres"`` in a shared database.
Mode 2 — ``memory_extension(pi, {"store": store})`` with a store the host owns.
"""

from typing import TYPE_CHECKING

from pi_memory._lazy import lazy_package

if TYPE_CHECKING:  # imported on first use (pi_memory._lazy)
    from .consolidation import CONSOLIDATION_SYSTEM_PROMPT, build_consolidation_prompt
    from .dream import DREAM_LOCK_KEY, DreamOptions, DreamOutcome, dream, run_dream
    from .extraction import ExtractionRunner
    from .lifecycle import STATUS_KEY, MemoryExtension, memory_extension
    from .readiness import (
        STATE_FILE,
        DreamingReport,
        DreamState,
        dream_location,
        dreaming_report,
        read_state,
        write_state,
    )
    from .settings import DreamingSettings, MemorySettings, ModelRef, SettingsError, open_settings_store, parse_settings
    from .snapshot import SNAPSHOT_TYPE, capture_snapshot, saved_snapshot
    from .turns import Turn, collect_turns

__all__ = [
    "CONSOLIDATION_SYSTEM_PROMPT",
    "DREAM_LOCK_KEY",
    "SNAPSHOT_TYPE",
    "STATE_FILE",
    "STATUS_KEY",
    "DreamOptions",
    "DreamOutcome",
    "DreamState",
    "DreamingReport",
    "DreamingSettings",
    "ExtractionRunner",
    "MemoryExtension",
    "MemorySettings",
    "ModelRef",
    "SettingsError",
    "Turn",
    "build_consolidation_prompt",
    "capture_snapshot",
    "collect_turns",
    "dream",
    "dream_location",
    "dreaming_report",
    "memory_extension",
    "open_settings_store",
    "parse_settings",
    "read_state",
    "run_dream",
    "saved_snapshot",
    "write_state",
]

lazy_package(__name__)
