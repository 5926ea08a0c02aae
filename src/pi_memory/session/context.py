"""What the LLM sees: pi's ``buildSessionContext`` and the helpers around it, in Python.

Context building walks the branch from the leaf to the root and turns entries into messages:
``message`` entries as they are, ``custom_message`` as ``role:"custom"``, ``branch_summary`` as
``role:"branchSummary"``; the latest compaction on the path replaces everything before its
``firstKeptEntryId`` with its ``systemMessage`` checkpoint (pi 1.6.0) and a ``compactionSummary``;
``context_edit`` entries (1.6.0) replace or hide an earlier entry's content on this branch only.
The output must equal pi's as JSON, so the JavaScript details (truthiness, ``Date`` parsing,
``undefined`` keys) are mirrored, not approximated.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from pi_memory.base.js import date_parse_ms, js_truthy

from .entries import Entry
from .errors import SessionError
from .ids import index_key
from .store import gc_paused

__all__ = [
    "ProjectedEntry",
    "SessionContext",
    "SessionProjection",
    "build_context_entries",
    "build_session_context",
    "build_session_path",
    "build_session_projection",
    "context_edit_replacement",
    "edit_content",
    "session_entry_to_context_messages",
]

_LEAF_DEFAULT: Final[Any] = object()


def _time_value(value: Any) -> int | float | None:
    """``new Date(iso).getTime()`` as it will serialize: an int, or None for NaN (JSON null)."""
    ms = date_parse_ms(value)
    return None if math.isnan(ms) else int(ms)


@dataclass(slots=True)
class SessionContext:
    """The result of ``build_session_context``: messages for the LLM, thinking level and model.

    ``to_dict()`` gives pi's JSON shape (``{"messages", "thinkingLevel", "model"}``).
    ``thinking_level`` is None only if a ``thinking_level_change`` entry lacks its level.
    """

    messages: list[dict[str, Any]] = field(default_factory=list)
    thinking_level: str | None = "off"
    model: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"messages": self.messages}
        if self.thinking_level is not None:
            out["thinkingLevel"] = self.thinking_level
        out["model"] = self.model
        return out


@dataclass(slots=True)
class ProjectedEntry:
    """One selected entry and the messages it contributes after context edits (maybe none)."""

    source_entry: Entry
    messages: list[dict[str, Any]]


@dataclass(slots=True)
class SessionProjection:
    """``build_session_projection``: messages with their source entries (pi's SessionProjection)."""

    entries: list[ProjectedEntry]
    messages: list[dict[str, Any]]
    thinking_level: str | None
    model: dict[str, Any] | None


def _index(entries: Iterable[Entry]) -> dict[Any, Entry]:
    return {index_key(entry.get("id")): entry for entry in entries}


def _lookup(index: Mapping[Any, Entry], key: Any) -> Entry | None:
    try:
        return index.get(key)
    except TypeError:  # an unhashable id in a damaged file matches nothing
        return None


def build_session_path(
    entries: Sequence[Entry], leaf_id: Any = _LEAF_DEFAULT, by_id: Mapping[Any, Entry] | None = None
) -> list[Entry]:
    """Root-first path to ``leaf_id``. ``None`` means "no leaf" (empty); omitted or unknown
    means the last entry in file order, as in pi. A parent cycle ends the walk (pi would hang)."""
    if leaf_id is None:
        return []
    index = by_id if by_id is not None else _index(entries)
    leaf = _lookup(index, leaf_id) if leaf_id is not _LEAF_DEFAULT and leaf_id else None
    if leaf is None:
        if not entries:
            return []
        leaf = entries[-1]
    path: list[Entry] = []
    append = path.append
    budget = len(index) + 1
    current: Entry | None = leaf
    while current is not None:
        append(current)
        budget -= 1
        if budget < 0:  # longer than the session: a parentId cycle
            return _walk_with_cycle_check(leaf, index)
        parent_id = current.get("parentId")
        if not parent_id:
            break
        current = index.get(parent_id) if type(parent_id) is str else _lookup(index, parent_id)
    path.reverse()
    return path


def _walk_with_cycle_check(leaf: Entry, index: Mapping[Any, Entry]) -> list[Entry]:
    path: list[Entry] = []
    seen: set[int] = set()
    current: Entry | None = leaf
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        path.append(current)
        parent_id = current.get("parentId")
        current = _lookup(index, parent_id) if js_truthy(parent_id) else None
    path.reverse()
    return path


def _message_role(entry: Entry) -> Any:
    message = entry.get("message")
    return message.get("role") if isinstance(message, dict) else None


def _model(source: Mapping[str, Any], model_key: str) -> dict[str, Any]:
    model: dict[str, Any] = {}
    if "provider" in source:
        model["provider"] = source["provider"]
    if model_key in source:
        model["modelId"] = source[model_key]
    return model


def session_entry_to_context_messages(entry: Entry) -> list[dict[str, Any]]:
    """The messages one selected entry contributes (pi's ``sessionEntryToContextMessages``)."""
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        if not isinstance(message, dict):
            return []  # pi would throw on such a line; we drop it from the context instead
        role = message.get("role")
        if message.get("content") is None:
            if role == "system":
                return [{**message, "content": ""}]
            if role in ("user", "assistant", "toolResult"):
                return [{**message, "content": []}]
        return [message]
    if kind == "custom_message":
        custom: dict[str, Any] = {"role": "custom"}
        if "customType" in entry:
            custom["customType"] = entry["customType"]
        content = entry.get("content")
        custom["content"] = [] if content is None else content
        if "display" in entry:
            custom["display"] = entry["display"]
        if "details" in entry:
            custom["details"] = entry["details"]
        custom["timestamp"] = _time_value(entry.get("timestamp"))
        return [custom]
    if kind == "branch_summary" and js_truthy(entry.get("summary")):
        summary_message: dict[str, Any] = {"role": "branchSummary", "summary": entry["summary"]}
        if "fromId" in entry:
            summary_message["fromId"] = entry["fromId"]
        summary_message["timestamp"] = _time_value(entry.get("timestamp"))
        return [summary_message]
    if kind == "compaction":
        compaction_message: dict[str, Any] = {"role": "compactionSummary"}
        if "summary" in entry:
            compaction_message["summary"] = entry["summary"]
        if "tokensBefore" in entry:
            compaction_message["tokensBefore"] = entry["tokensBefore"]
        compaction_message["timestamp"] = _time_value(entry.get("timestamp"))
        system_message: Any = entry.get("systemMessage")
        return [system_message, compaction_message] if js_truthy(system_message) else [compaction_message]
    return []


def build_context_entries(
    entries: Sequence[Entry], leaf_id: Any = _LEAF_DEFAULT, by_id: Mapping[Any, Entry] | None = None
) -> list[Entry]:
    """The entries that make up the context: the path, cut at the latest compaction.

    With a compaction: the compaction entry, then the non-system entries from
    ``firstKeptEntryId`` up to it, then everything after it.
    """
    return _select_context_entries(build_session_path(entries, leaf_id, by_id))


def _select_context_entries(path: list[Entry], compaction_index: int | None = None) -> list[Entry]:
    if compaction_index is None:
        compaction_index = -1
        for i, entry in enumerate(path):
            if entry.get("type") == "compaction":
                compaction_index = i
    if compaction_index < 0:
        return path
    compaction = path[compaction_index]
    first_kept = compaction.get("firstKeptEntryId")
    # pi finds the compaction again by id: with duplicate ids the first match wins.
    compaction_id = compaction.get("id")
    for i in range(compaction_index):
        if path[i].get("id") == compaction_id:
            compaction_index = i
            break
    selected: list[Entry] = [compaction]
    found = False
    for entry in path[:compaction_index]:
        if not found and entry.get("id") == first_kept:
            found = True
        if found and not (entry.get("type") == "message" and _message_role(entry) == "system"):
            selected.append(entry)
    selected.extend(path[compaction_index + 1 :])
    return selected


def edit_content(role: Any, content: Any) -> Any:
    """A context edit's content as a message of ``role`` takes it: assistant and toolResult
    content is always blocks, so a string becomes one text block (when stored and when applied)."""
    if role in ("assistant", "toolResult") and isinstance(content, str):
        return [{"type": "text", "text": content}]
    return content


def context_edit_replacement(
    target_id: str, target: Entry, replacement: Mapping[str, Any] | None
) -> dict[str, Any] | None:
    """The ``replacement`` a context edit of ``target`` stores (pi's ``appendContextEdit``).

    Raises :class:`SessionError` unless ``target`` is a user, assistant or toolResult message or
    a custom message — the entries whose content reaches the model.
    """
    kind = target.get("type")
    role = target.get("message", {}).get("role") if kind == "message" else None
    if not (kind == "custom_message" or role in ("user", "assistant", "toolResult")):
        raise SessionError(f"Entry {target_id} does not contribute editable model content")
    if replacement is None:
        return None
    content = replacement["content"]
    edited = edit_content(role, content)
    return dict(replacement) if edited is content else {"content": edited}  # pi keeps only the blocks


def _project(entry: Entry, edit: Entry | None) -> list[dict[str, Any]]:
    messages = session_entry_to_context_messages(entry)
    if edit is None:
        return messages
    replacement = edit.get("replacement")
    if replacement is None:
        return []
    out: list[dict[str, Any]] = []
    for message in messages:
        role = message.get("role")
        if role not in ("user", "assistant", "toolResult", "custom"):
            out.append(message)
            continue
        edited = dict(message)
        if isinstance(replacement, dict) and "content" in replacement:
            edited["content"] = edit_content(role, replacement["content"])
        else:
            edited.pop("content", None)  # JavaScript: content becomes undefined and is not written
        out.append(edited)
    return out


def build_session_projection(
    entries: Sequence[Entry], leaf_id: Any = _LEAF_DEFAULT, by_id: Mapping[Any, Entry] | None = None
) -> SessionProjection:
    """Context messages with their source entries, after applying ``context_edit`` entries."""
    with gc_paused():
        path = build_session_path(entries, leaf_id, by_id)
        projected: list[ProjectedEntry] = []
        thinking_level, model, messages = _project_path(path, projected)
    return SessionProjection(projected, messages, thinking_level, model)


_MISSING: Final[Any] = object()


def _analyze(path: list[Entry]) -> tuple[Any, Any, list[Entry], dict[Any, Entry]]:
    """One pass from the leaf up: settings, the latest compaction, context edits; then selection.

    Same result as ``_context_settings`` + ``build_context_entries`` + the edit scan, in fewer
    passes over long paths (the hot loop of opening a session).
    """
    thinking: Any = _MISSING
    model: Any = _MISSING
    compaction_pos = -1
    edit_positions: list[int] = []
    for i in range(len(path) - 1, -1, -1):
        entry = path[i]
        kind = entry.get("type")
        if kind == "message":
            if model is _MISSING:
                message = entry.get("message")
                if type(message) is dict and message.get("role") == "assistant":
                    model = _model(message, "model")
        elif kind == "thinking_level_change":
            if thinking is _MISSING:
                thinking = entry.get("thinkingLevel")
        elif kind == "model_change":
            if model is _MISSING:
                model = _model(entry, "modelId")
        elif kind == "compaction":
            if compaction_pos < 0:
                compaction_pos = i
        elif kind == "context_edit":
            edit_positions.append(i)
    thinking = "off" if thinking is _MISSING else thinking
    model = None if model is _MISSING else model
    if compaction_pos < 0:
        selected = path
        edit_sources = edit_positions
    else:
        selected = _select_context_entries(path, compaction_pos)
        kept = {id(entry) for entry in selected} if edit_positions else set()
        edit_sources = [i for i in edit_positions if id(path[i]) in kept]
    edits: dict[Any, Entry] = {}
    for i in reversed(edit_sources):  # ascending file position: the latest edit wins
        edits[index_key(path[i].get("targetId"))] = path[i]
    return thinking, model, selected, edits


def _project_path(path: list[Entry], projected: list[ProjectedEntry] | None) -> tuple[Any, Any, list[dict[str, Any]]]:
    """(thinking level, model, messages) of a path; fills ``projected`` when given."""
    thinking, model, selected, edits = _analyze(path)
    messages: list[dict[str, Any]] = []
    add = messages.append
    for position, entry in enumerate(selected):
        kind = entry.get("type")
        if kind == "message" and not edits:
            # fast path: a stored message with content is its own context message
            message = entry.get("message")
            if type(message) is dict and message.get("content") is not None:
                add(message)
                if projected is not None:
                    projected.append(ProjectedEntry(entry, [message]))
                continue
        if kind == "compaction" and position > 0:
            contributed: list[dict[str, Any]] = []  # only the newest compaction (first) summarizes
        else:
            contributed = _project(entry, edits.get(index_key(entry.get("id"))) if edits else None)
        messages.extend(contributed)
        if projected is not None:
            projected.append(ProjectedEntry(entry, contributed))
    return thinking, model, messages


def build_session_context(
    entries: Sequence[Entry], leaf_id: Any = _LEAF_DEFAULT, by_id: Mapping[Any, Entry] | None = None
) -> SessionContext:
    """pi's ``buildSessionContext(entries, leafId?)``: the messages, thinking level and model.

    ``entries`` excludes the header. Omit ``leaf_id`` to use the last entry; pass ``None`` for
    the empty context (after ``reset_leaf``).
    """
    with gc_paused():
        path = build_session_path(entries, leaf_id, by_id)
        thinking_level, model, messages = _project_path(path, None)
    return SessionContext(messages, thinking_level, model)
