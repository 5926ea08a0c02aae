"""pi-memory for Python: persistent, curated memory for LLM agents."""

from typing import TYPE_CHECKING

from pi_memory._lazy import lazy_package

if TYPE_CHECKING:  # imported on first use (pi_memory._lazy): `import pi_memory` stays cheap
    from pi_memory.memory import (
        ENTRY_DELIMITER,
        MEMORY_GUIDANCE,
        TARGETS,
        FileBackend,
        MemoryStore,
        MemoryTools,
        ToolResult,
        create_memory_tools,
        default_memory_dir,
        memory_prompt,
    )
    from pi_memory.session import SessionManager

__version__ = "0.1.0"

__all__ = [
    "ENTRY_DELIMITER",
    "MEMORY_GUIDANCE",
    "TARGETS",
    "FileBackend",
    "MemoryStore",
    "MemoryTools",
    "SessionManager",
    "ToolResult",
    "__version__",
    "create_memory_tools",
    "default_memory_dir",
    "memory_prompt",
]

lazy_package(__name__)
