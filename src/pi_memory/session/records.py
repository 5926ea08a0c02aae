"""The fields of the entries a :class:`~pi_memory.session.manager.SessionManager` appends, built as
pi 1.6.0 builds them: its key order (byte-compatible files depend on it) and its rule that an
unset optional key is left out rather than written as ``null``.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from pi_memory.base.js import date_parse_ms, js_trim

from .entries import Entry

__all__ = ["check_replacement", "compaction_fields", "custom_message_head", "given", "latest_name", "session_name",
           "summary_extras"]

_NEWLINES_RE: Final = re.compile(r"[\r\n]+")


def given(**fields: Any) -> dict[str, Any]:
    """The fields whose value is not ``None`` (pi leaves unset optional keys out), in order."""
    return {key: value for key, value in fields.items() if value is not None}


def summary_extras(details: Any, usage: Mapping[str, Any] | None, from_hook: bool | None) -> dict[str, Any]:
    """The optional tail of a compaction or branch summary: ``details``, ``usage``, ``fromHook``."""
    return given(details=details, usage=dict(usage) if usage is not None else None, fromHook=from_hook)


def compaction_fields(entry_id: str, timestamp: str, summary: str, first_kept_entry_id: str | None,
                      tokens_before: int, extras: Mapping[str, Any], system_message: Entry | None) -> dict[str, Any]:
    """A compaction's fields; ``first_kept_entry_id=None`` keeps nothing (pi stores the entry's own
    id), and the system prompt/tool state is checkpointed in ``systemMessage`` at ``timestamp``."""
    fields: dict[str, Any] = {
        "summary": summary,
        "firstKeptEntryId": first_kept_entry_id if first_kept_entry_id is not None else entry_id,
        "tokensBefore": tokens_before,
        **extras,
    }
    if system_message is not None:
        system_message["timestamp"] = int(date_parse_ms(timestamp))
        fields["systemMessage"] = system_message
    return fields


def custom_message_head(custom_type: str, content: str | Sequence[Mapping[str, Any]], display: bool,
                        details: Any) -> dict[str, Any]:
    """A custom message's leading keys (its content copied, so the entry owns it)."""
    return {
        "customType": custom_type,
        "content": content if isinstance(content, str) else [dict(block) for block in content],
        "display": display,
        **given(details=details),
    }


def session_name(name: str) -> str:
    """A session name as pi stores it: newlines become spaces, then trimmed."""
    return js_trim(_NEWLINES_RE.sub(" ", name))


def latest_name(entries: Sequence[Entry]) -> str | None:
    """The latest ``session_info`` name in file order (any branch); None when unnamed or cleared."""
    for entry in reversed(entries):
        if entry.get("type") == "session_info":
            name = entry.get("name")
            return (js_trim(name) or None) if isinstance(name, str) else None
    return None


def check_replacement(replacement: Mapping[str, Any] | None) -> None:
    """A context edit's replacement is ``None`` or holds string or list ``content`` (pi's check)."""
    if replacement is not None and (
        not isinstance(replacement, Mapping)
        or "content" not in replacement
        or not isinstance(replacement["content"], (str, builtins.list))
    ):
        raise ValueError("Context edit replacement must be null or contain string/array content")
