"""What the UI serves, resolved once when ``pi-memory ui`` starts.

The store, the sessions root and the recall and dreaming settings come from the same settings the
agent reads in the working directory (global, agent config dir, a trusted project's layer; see
:func:`~pi_memory.extensions.memory.settings.resolve_memory_settings`), so the page shows the
memory the agent uses — files, or a shared PostgreSQL database — and never a look-alike.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pi_memory.base.paths import agent_dir, sessions_dir

if TYPE_CHECKING:
    from pi_memory.extensions.memory.settings import MemorySettings
    from pi_memory.extensions.recall.settings import RecallSettings
    from pi_memory.host.settings import Settings
    from pi_memory.memory import MemoryStore

__all__ = ["UI_LOCK_TIMEOUT", "UiConfig"]

#: How long one write from the page waits for another writer's lock before answering "busy":
#: short, because the page says "busy, retrying" and retries itself, so a person sees why it waits.
UI_LOCK_TIMEOUT = 1.0


@dataclass
class UiConfig:
    """Everything the app serves. Build it with :meth:`resolve` (what ``pi-memory ui`` does).

    ``memory`` holds the ``pi-memory`` section (backend, limits, dreaming); ``settings`` every
    layer of the host's settings, for the sections other pages need (:meth:`section`). The store
    is opened on first use and shared by every request (a PostgreSQL store holds a pool), then
    closed by :meth:`close` when the server stops.
    """

    cwd: Path
    settings: Settings
    memory: MemorySettings
    agent_dir: Path
    sessions_dir: Path
    warnings: list[str] = field(default_factory=list)
    lock_timeout: float = UI_LOCK_TIMEOUT
    _store: MemoryStore | None = field(default=None, repr=False)
    _opening: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def resolve(
        cls,
        cwd: Path | None = None,
        *,
        dir: Path | None = None,
        dsn: str | None = None,
        namespace: str | None = None,
        memory_limit: int | None = None,
        user_limit: int | None = None,
    ) -> UiConfig:
        """The configuration the agent would use in ``cwd`` (default: the current directory),
        with a command line's overrides. Raises ``SettingsError`` naming what to fix."""
        from pi_memory.extensions.memory.settings import resolve_memory_settings
        from pi_memory.host.trust import headless_settings

        where = Path.cwd() if cwd is None else Path(cwd)
        loaded = headless_settings(where)
        memory, warnings = resolve_memory_settings(where, dir=dir, dsn=dsn, namespace=namespace,
                                                   memory_limit=memory_limit, user_limit=user_limit, loaded=loaded)
        settings = loaded[0]
        return cls(cwd=where, settings=settings, memory=memory, agent_dir=Path(agent_dir()),
                   sessions_dir=Path(sessions_dir()), warnings=warnings)

    def section(self, name: str) -> dict[str, Any]:
        """One section of the merged settings (``{}`` when absent), e.g. ``"pi-memory-recall"``."""
        return dict(self.settings.section(name))

    @property
    def recall(self) -> RecallSettings:
        """The ``pi-memory-recall`` settings (raises ``SettingsError`` for a value that cannot be used)."""
        from pi_memory.extensions.recall.settings import parse_recall_settings

        return parse_recall_settings(self.section("pi-memory-recall"))

    def store(self) -> MemoryStore:
        """The memory store the settings choose, opened once (thread-safe)."""
        with self._opening:
            if self._store is None:
                from pi_memory.extensions.memory.settings import open_settings_store

                store = open_settings_store(self.memory)
                store.lock_timeout = self.lock_timeout
                self._store = store
            return self._store

    def close(self) -> None:
        """Release the store's connections (PostgreSQL); files need nothing."""
        with self._opening:
            if self._store is not None:
                from pi_memory.backends import close_store

                close_store(self._store)
                self._store = None
