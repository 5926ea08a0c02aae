"""pi-memory for Python: persistent, curated memory for LLM agents."""

from pi_memory.memory import ENTRY_DELIMITER, TARGETS, FileBackend, MemoryStore, default_memory_dir

__version__ = "0.1.0"

__all__ = ["ENTRY_DELIMITER", "TARGETS", "FileBackend", "MemoryStore", "__version__", "default_memory_dir"]
