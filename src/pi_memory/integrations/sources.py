"""Where an adapter's memory comes from: a store, a directory, or the user's settings.

Every adapter takes the same first argument, so ``MemoryTool()``, ``MemoryTool("/srv/mem")`` and
``MemoryTool(store)`` mean the same thing in every framework. With nothing given the memory is the
one ``pi-memory chat`` and ``pi-memory mcp`` use: the ``pi-memory`` section of the user's settings
(``backend``, ``dataDir``, limits), else ``$PI_AGENT_HOME/memories`` / ``~/.pi/agent/memories``.
Project settings are not read: a framework program runs in whatever directory it likes, and a
cloned repository must not redirect your memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pi_memory.backends import open_store
from pi_memory.memory import MemoryStore

__all__ = ["MemorySource", "open_memory", "user_section"]

MemorySource = MemoryStore | str | Path | None


def user_section(name: str) -> dict[str, Any]:
    """A section of the user's own settings (global and agent-config layers; never a project's)."""
    from pi_memory.host.settings import load_settings

    return load_settings(Path.cwd(), project_trusted=False).section(name)


def open_memory(source: MemorySource = None) -> MemoryStore:
    """``source`` as a store: itself, a store over that directory (settings' limits), or the default."""
    if isinstance(source, MemoryStore):
        return source
    return open_store(user_section("pi-memory"), dir=source)
