"""Curated memory: the store, its entry format, its lock, its prompt block and its tools."""

from typing import TYPE_CHECKING

from pi_memory._lazy import lazy_package

if TYPE_CHECKING:  # imported on first use (pi_memory._lazy)
    from pi_memory.base.lock import LockBlocked, LockBusy, LockCompromised, file_lock, lock_dir_for
    from pi_memory.base.tools import ToolResult
    from pi_memory.memory.entries import ENTRY_DELIMITER
    from pi_memory.memory.files import FileBackend, default_memory_dir
    from pi_memory.memory.guidance import MEMORY_GUIDANCE
    from pi_memory.memory.snapshot import SNAPSHOT_CHAR_CAP, bound_snapshot, memory_prompt
    from pi_memory.memory.store import TARGETS, MemoryStore, Result
    from pi_memory.memory.tools import MemoryTools, create_memory_tools

__all__ = [
    "ENTRY_DELIMITER",
    "MEMORY_GUIDANCE",
    "SNAPSHOT_CHAR_CAP",
    "TARGETS",
    "FileBackend",
    "LockBlocked",
    "LockBusy",
    "LockCompromised",
    "MemoryStore",
    "MemoryTools",
    "Result",
    "ToolResult",
    "bound_snapshot",
    "create_memory_tools",
    "default_memory_dir",
    "file_lock",
    "lock_dir_for",
    "memory_prompt",
]

lazy_package(__name__)
