"""One session as the Sessions page shows it: its tree (branches, labels, compactions, branch
summaries, the frozen memory snapshot) and one message's context as the model saw it.

Read with the session package's readers and never written: no sidecar, no migration on disk, no
repair (a v1/v2 file is migrated in memory only, as dreaming reads it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pi_memory.base import content_text

if TYPE_CHECKING:
    from pi_memory.session import Entry

__all__ = ["TEXT_CAP", "SessionNotFound", "message_context", "session_tree"]

TEXT_CAP = 2000
"""Characters of an entry's text the tree carries; the context view has the whole message."""


class SessionNotFound(LookupError):
    """No session (or no entry) with that id; the message says which (a 404 for the page)."""



@dataclass
class _Loaded:
    path: str
    header: Entry
    entries: list[Entry]
    damaged: int


def _load(path: str) -> _Loaded:
    """The session's records, migrated in memory if old; the file is left as it is."""
    from pi_memory.session import load_records, migrate_to_current_version

    loaded = load_records(path)
    if not loaded.valid:
        raise SessionNotFound(f"{path} is not a session file")
    records = [dict(r) for r in loaded.records]
    migrate_to_current_version(records)
    header, *entries = records
    return _Loaded(path, header, entries, len(loaded.damaged))


def _clip(text: str, cap: int = TEXT_CAP) -> tuple[str, int]:
    return (text, 0) if len(text) <= cap else (text[:cap], len(text) - cap)


def _tool_calls(content: Any) -> list[dict[str, Any]]:
    import json

    calls = []
    for block in content if isinstance(content, list) else []:
        if isinstance(block, Mapping) and block.get("type") == "toolCall":
            arguments = block.get("arguments")
            calls.append({"name": str(block.get("name", "")),
                          "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments,
                                                                                               ensure_ascii=False)})
    return calls


def _describe(entry: Mapping[str, Any]) -> dict[str, Any]:
    """What the tree shows of one entry: its kind, the text a person reads, and its links."""
    from pi_memory.extensions.memory.snapshot import SNAPSHOT_TYPE
    from pi_memory.session.messages import bash_execution_to_text

    kind = entry.get("type")
    node: dict[str, Any] = {"id": entry.get("id"), "parentId": entry.get("parentId"), "type": kind,
                            "timestamp": entry.get("timestamp")}
    text = ""
    if kind == "message" and isinstance(entry.get("message"), Mapping):
        message = entry["message"]
        node["role"] = message.get("role")
        if message.get("role") == "bashExecution":
            text = bash_execution_to_text(message)
        else:
            text = content_text(message.get("content"))
        for key in ("toolName", "model", "provider", "stopReason", "customType"):
            if isinstance(message.get(key), str):
                node[key] = message[key]
        if message.get("isError") is True:
            node["isError"] = True
        calls = _tool_calls(message.get("content"))
        if calls:
            node["toolCalls"] = calls
    elif kind == "custom":
        node["customType"] = entry.get("customType")
        data = entry.get("data")
        if entry.get("customType") == SNAPSHOT_TYPE and isinstance(data, Mapping):
            node["snapshot"] = True
            text = str(data.get("snapshot", ""))
        elif data is not None:
            import json

            text = json.dumps(data, ensure_ascii=False)
    elif kind == "custom_message":
        node["customType"] = entry.get("customType")
        node["display"] = entry.get("display")
        text = content_text(entry.get("content"))
    elif kind == "compaction":
        text = str(entry.get("summary", ""))
        node["firstKeptEntryId"] = entry.get("firstKeptEntryId")
        node["tokensBefore"] = entry.get("tokensBefore")
    elif kind == "branch_summary":
        text = str(entry.get("summary", ""))
        node["fromId"] = entry.get("fromId")
    elif kind == "label":
        node["targetId"] = entry.get("targetId")
        text = str(entry.get("label") or "")
    elif kind == "session_info":
        text = str(entry.get("name") or "")
    elif kind == "model_change":
        text = f"{entry.get('provider')}/{entry.get('modelId')}"
    elif kind == "thinking_level_change":
        text = str(entry.get("thinkingLevel"))
    elif kind == "context_edit":
        node["targetId"] = entry.get("targetId")
        replacement = entry.get("replacement")
        text = "(hidden)" if replacement is None else content_text(
            replacement.get("content") if isinstance(replacement, Mapping) else None)
    node["text"], clipped = _clip(text)
    if clipped:
        node["clipped"] = clipped
    return node


def session_tree(path: str) -> dict[str, Any]:
    """The session as pi's ``/tree`` draws it: entries in depth-first order (children oldest
    first), ``depth`` growing only at a branch point, each with its label, its kind and whether
    it is on the current branch (the path to the leaf, the last entry in file order)."""
    from pi_memory.session.context import build_session_path
    from pi_memory.session.listing import build_session_info
    from pi_memory.session.records import latest_name
    from pi_memory.session.tree import build_tree, index_entries

    loaded = _load(path)
    index = index_entries(loaded.entries)
    roots = build_tree(loaded.entries, index.labels, index.label_timestamps)
    on_leaf = {id(e) for e in build_session_path(loaded.entries, index.leaf_id, index.by_id)}
    nodes: list[dict[str, Any]] = []
    # iterative: a linear session of thousands of entries would overflow a recursive walk
    stack: list[tuple[Any, int, bool]] = [(root, 0, len(roots) > 1) for root in reversed(roots)]
    while stack:
        node, depth, starts_branch = stack.pop()
        item = _describe(node.entry)
        item["depth"] = depth
        if starts_branch:
            item["branchStart"] = True
        if node.label is not None:
            item["label"] = node.label
        item["children"] = len(node.children)
        item["onLeafPath"] = id(node.entry) in on_leaf
        nodes.append(item)
        forks = len(node.children) > 1
        for child in reversed(node.children):
            stack.append((child, depth + 1 if forks else depth, forks))
    info = build_session_info(path)
    header = loaded.header
    return {
        "id": header.get("id"),
        "path": path,
        "cwd": header.get("cwd"),
        "version": header.get("version"),
        "parentSession": header.get("parentSession"),
        "name": latest_name(loaded.entries),
        "created": header.get("timestamp"),
        "messageCount": info.message_count if info else None,
        "leafId": index.leaf_id,
        "branchPoints": sum(1 for n in nodes if n["children"] > 1),
        "damagedLines": loaded.damaged,
        "entries": nodes,
    }


class _Branch:
    """The reading half of a session manager over loaded entries, for the snapshot lookup."""

    def __init__(self, entries: list[Entry], path: list[Entry]) -> None:
        self._entries, self._path = entries, path

    def get_branch(self, from_id: str | None = None) -> list[Any]:
        return list(self._path)

    def get_entries(self) -> list[Any]:
        return list(self._entries)


def _blocks(content: Any) -> list[dict[str, Any]]:
    """A message's content as display blocks: text, thinking, tool calls, images (as a marker)."""
    import json

    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    blocks = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, Mapping):
            continue
        kind = block.get("type")
        if kind == "text":
            blocks.append({"type": "text", "text": str(block.get("text", ""))})
        elif kind == "thinking":
            blocks.append({"type": "thinking", "text": str(block.get("thinking", ""))})
        elif kind == "toolCall":
            arguments = block.get("arguments")
            blocks.append({"type": "toolCall", "name": str(block.get("name", "")),
                           "text": arguments if isinstance(arguments, str) else json.dumps(arguments,
                                                                                          ensure_ascii=False)})
        elif kind == "image":
            blocks.append({"type": "image", "text": f"[image {block.get('mimeType', '')}]"})
    return blocks


def message_context(path: str, entry_id: str) -> dict[str, Any]:
    """The context the model was given at ``entry_id``: pi's ``buildSessionContext`` from that
    point, converted as pi converts it for the LLM (custom, summaries and bash become user
    messages), with the frozen memory snapshot that branch's system prompt carried.

    For an assistant message the context ends before it (what the model saw when it wrote it);
    for anything else it ends with the entry itself.
    """
    from pi_memory.extensions.memory.snapshot import saved_snapshot
    from pi_memory.session import build_session_context, convert_to_llm, get_current_system_message
    from pi_memory.session.context import build_session_path

    loaded = _load(path)
    entry = next((e for e in loaded.entries if e.get("id") == entry_id), None)
    if entry is None:
        raise SessionNotFound(f"no entry {entry_id!r} in session {loaded.header.get('id')!r}")
    message = entry.get("message")
    reply = entry.get("type") == "message" and isinstance(message, Mapping) and message.get("role") == "assistant"
    leaf = entry.get("parentId") if reply else entry_id
    context = build_session_context(loaded.entries, leaf)
    path_entries = build_session_path(loaded.entries, leaf) if leaf else []
    session_id = str(loaded.header.get("id"))
    snapshot = saved_snapshot(_Branch(loaded.entries, path_entries), session_id)
    system = get_current_system_message(context.messages)
    messages = []
    for llm in convert_to_llm(context.messages):
        if llm.get("role") == "system":
            continue
        item: dict[str, Any] = {"role": llm.get("role"), "blocks": _blocks(llm.get("content"))}
        for key in ("toolName", "toolCallId", "model"):
            if isinstance(llm.get(key), str):
                item[key] = llm[key]
        if llm.get("isError") is True:
            item["isError"] = True
        messages.append(item)
    return {
        "sessionId": session_id,
        "entryId": entry_id,
        "leafId": leaf,
        "reply": _blocks(message.get("content")) if reply and isinstance(message, Mapping) else None,
        "thinkingLevel": context.thinking_level,
        "model": context.model,
        "memorySnapshot": snapshot,
        "systemMessage": None if system is None else content_text(system.get("content")),
        "messages": messages,
    }
