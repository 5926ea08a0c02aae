"""pi-compatible session files (JSONL v3, as written by ``@earendil-works/pi-coding-agent`` 1.6.0).

Read and write pi's session tree byte for byte, build the same LLM context pi builds, and list
sessions the way pi's ``/resume`` does. See ``docs/sessions.md``.

>>> from pi_memory.session import SessionManager
>>> sm = SessionManager.in_memory("/tmp/proj")
>>> _ = sm.append_message({"role": "user", "content": "hi", "timestamp": 0})
>>> [m["role"] for m in sm.build_session_context().messages]
['user']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_memory._lazy import lazy_package

if TYPE_CHECKING:  # imported on first use (pi_memory._lazy)
    from . import entries, jsjson
    from .context import (
        SessionContext,
        SessionProjection,
        build_context_entries,
        build_session_context,
        build_session_projection,
    )
    from .discovery import read_header
    from .entries import CURRENT_SESSION_VERSION, UNSET, Entry
    from .errors import EntryNotFoundError, SessionError, SessionFileDamagedWarning
    from .ids import uuidv7
    from .listing import SessionInfo
    from .manager import SessionManager
    from .messages import convert_to_llm, get_current_system_message
    from .migrate import migrate_to_current_version
    from .paths import get_agent_dir, get_default_session_dir, get_sessions_dir, session_dir_from_env
    from .store import DamagedLine, LoadResult, load_records, parse_records
    from .tree import SessionTreeNode

__all__ = [
    "CURRENT_SESSION_VERSION",
    "UNSET",
    "DamagedLine",
    "Entry",
    "EntryNotFoundError",
    "LoadResult",
    "SessionContext",
    "SessionError",
    "SessionFileDamagedWarning",
    "SessionInfo",
    "SessionManager",
    "SessionProjection",
    "SessionTreeNode",
    "build_context_entries",
    "build_session_context",
    "build_session_projection",
    "convert_to_llm",
    "entries",
    "get_agent_dir",
    "get_current_system_message",
    "get_default_session_dir",
    "get_sessions_dir",
    "jsjson",
    "load_records",
    "migrate_to_current_version",
    "parse_records",
    "read_header",
    "session_dir_from_env",
    "uuidv7",
]

lazy_package(__name__)
