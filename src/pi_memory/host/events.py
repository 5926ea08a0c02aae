"""Event names: pi's, and the guide dialect's, with how one maps onto the other.

pi's names are canonical. The guide dialect (DESIGN.md §4) is served by the same runtime:
``tool:call``/``tool:result`` *are* pi's ``tool_call``/``tool_result`` (same composition rules);
the others are host events the session runtime emits at the moments documented here.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "BUILTIN_COMMANDS",
    "GUIDE_ALIASES",
    "GUIDE_EVENTS",
    "PI_EVENTS",
    "SESSION_BEFORE_EVENTS",
    "canonical_event",
]

PI_EVENTS: Final = frozenset({
    "project_trust", "session_start", "session_before_switch", "session_switch", "session_before_fork",
    "session_fork", "session_before_compact", "session_compact", "session_before_tree", "session_tree",
    "session_shutdown", "before_agent_start", "agent_start", "agent_end", "turn_start", "turn_end",
    "message_start", "message_update", "message_end", "tool_execution_start", "tool_execution_update",
    "tool_execution_end", "context", "tool_call", "tool_result", "input", "model_select",
    "resources_discover",
})

SESSION_BEFORE_EVENTS: Final = frozenset({
    "session_before_switch", "session_before_fork", "session_before_compact", "session_before_tree",
})

GUIDE_ALIASES: Final = {"tool:call": "tool_call", "tool:result": "tool_result"}
"""Guide names that are exactly a pi event."""

GUIDE_EVENTS: Final = frozenset({
    "message",  # after any user/assistant/toolResult/custom message is written (event.entry_id set)
    "message:user",
    "message:assistant",
    "session:created",  # session_start on an empty session, and after /new
    "session:saving",  # before each entry the host appends; handlers may append entries
    "session:loaded",  # session_start on a session with entries, reload, resume, fork, tree navigation
    *GUIDE_ALIASES,
})

BUILTIN_COMMANDS: Final = frozenset({
    "settings", "model", "scoped-models", "export", "share", "copy", "name", "session", "changelog", "hotkeys",
    "fork", "tree", "login", "logout", "new", "compact", "resume", "reload", "quit", "help",
})
"""Extension commands with these names are skipped with a warning (pi's reserved list, plus help)."""


def canonical_event(name: str) -> str:
    """The name handlers are stored under: guide aliases resolve to pi's event."""
    return GUIDE_ALIASES.get(name, name)
