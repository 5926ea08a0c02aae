"""Curated memory: the store, its entry format, its lock and its prompt block."""

from pi_memory.memory.entries import ENTRY_DELIMITER
from pi_memory.memory.files import FileBackend, default_memory_dir
from pi_memory.memory.lock import LockBusy, file_lock
from pi_memory.memory.snapshot import SNAPSHOT_CHAR_CAP, bound_snapshot
from pi_memory.memory.store import TARGETS, MemoryStore, Result

__all__ = [
    "ENTRY_DELIMITER",
    "SNAPSHOT_CHAR_CAP",
    "TARGETS",
    "FileBackend",
    "LockBusy",
    "MemoryStore",
    "Result",
    "bound_snapshot",
    "default_memory_dir",
    "file_lock",
]
