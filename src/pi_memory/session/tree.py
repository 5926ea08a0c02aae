"""The session tree's shape: the index of a file's entries and the forest ``get_tree`` returns.

Pure functions over entries (no file, no state), so the manager's tree operations read as the
tree they keep. Ids come from files other programs wrote: a damaged file may hold a non-string
id (indexed under :func:`~.ids.index_key`) or a ``parentId`` cycle (a walk ends instead of hanging).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pi_memory.base.js import date_parse_ms, js_truthy

from .entries import Entry
from .ids import index_key

__all__ = ["SessionTreeNode", "TreeIndex", "branch_path", "build_tree", "index_entries", "is_conversation"]


@dataclass(slots=True)
class SessionTreeNode:
    """A node of :meth:`SessionManager.get_tree`: the entry, its children (oldest first), its label."""

    entry: Entry
    children: list[SessionTreeNode] = field(default_factory=list)
    label: str | None = None
    label_timestamp: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """pi's ``SessionTreeNode`` JSON shape (``labelTimestamp``; absent keys left out)."""
        out: dict[str, Any] = {"entry": self.entry, "children": [child.to_dict() for child in self.children]}
        if self.label is not None:
            out["label"] = self.label
        if self.label_timestamp is not None:
            out["labelTimestamp"] = self.label_timestamp
        return out


def is_conversation(entry: Entry) -> bool:
    """A user or assistant message: what makes a session worth a file (pi 1.6.0)."""
    if entry.get("type") != "message":
        return False
    message = entry.get("message")
    return isinstance(message, dict) and message.get("role") in ("user", "assistant")


@dataclass(slots=True)
class TreeIndex:
    """Entries by id, the current labels (with their times), the leaf, and whether any entry is
    conversation — everything the manager keeps besides the entries themselves."""

    by_id: dict[Any, Entry] = field(default_factory=dict)
    labels: dict[Any, Any] = field(default_factory=dict)
    label_timestamps: dict[Any, Any] = field(default_factory=dict)
    leaf_id: Any = None
    has_conversation: bool = False

    def add(self, entry: Entry) -> Callable[[], None]:
        """Index a new child of the leaf and move the leaf to it; returns what undoes that (an
        entry that never reached the file must not become the parent of later entries)."""
        previous = (self.leaf_id, self.has_conversation)
        self.by_id[entry["id"]] = entry
        self.leaf_id = entry["id"]
        if not self.has_conversation and is_conversation(entry):
            self.has_conversation = True

        def undo() -> None:
            del self.by_id[entry["id"]]
            self.leaf_id, self.has_conversation = previous

        return undo

    def set_label(self, target_id: Any, label: str | None, timestamp: Any) -> None:
        """Label ``target_id`` as of ``timestamp``; ``None`` clears its label."""
        if label:
            self.labels[target_id] = label
            self.label_timestamps[target_id] = timestamp
        else:
            self.labels.pop(target_id, None)
            self.label_timestamps.pop(target_id, None)


def index_entries(records: Iterable[Entry]) -> TreeIndex:
    """Index a file's records (headers skipped); the leaf is the last entry in file order."""
    by_id: dict[Any, Entry] = {}
    labels: dict[Any, Any] = {}
    label_timestamps: dict[Any, Any] = {}
    leaf: Any = None
    has_conversation = False
    for entry in records:
        kind = entry.get("type")
        if kind == "session":
            continue
        entry_id = entry.get("id")
        if type(entry_id) is not str:
            entry_id = index_key(entry_id)  # a damaged file may hold a non-string id
        by_id[entry_id] = entry
        leaf = entry_id
        if kind == "message":
            if not has_conversation:
                has_conversation = is_conversation(entry)
        elif kind == "label":
            target = index_key(entry.get("targetId"))
            if js_truthy(entry.get("label")):
                labels[target] = entry["label"]
                label_timestamps[target] = entry.get("timestamp")
            else:
                labels.pop(target, None)
                label_timestamps.pop(target, None)
    return TreeIndex(by_id, labels, label_timestamps, leaf, has_conversation)


def branch_path(by_id: Mapping[Any, Entry], start: Any) -> list[Entry]:
    """Root-first path to the entry ``start`` (none when it is not in ``by_id``)."""
    current = by_id.get(start) if start else None
    path: list[Entry] = []
    seen: set[int] = set()
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        path.append(current)
        parent = current.get("parentId")
        current = by_id.get(parent) if parent else None
    path.reverse()
    return path


def _tree_compare(a: SessionTreeNode, b: SessionTreeNode) -> int:
    diff = date_parse_ms(a.entry.get("timestamp")) - date_parse_ms(b.entry.get("timestamp"))
    if math.isnan(diff) or diff == 0:
        return 0  # JavaScript's sort treats a NaN comparison as equal
    return -1 if diff < 0 else 1


def build_tree(
    entries: list[Entry], labels: Mapping[Any, Any], label_timestamps: Mapping[Any, Any]
) -> list[SessionTreeNode]:
    """The entries as a forest: roots have no (known) parent; children sorted oldest first."""
    nodes: dict[Any, SessionTreeNode] = {}
    for entry in entries:
        entry_id = entry.get("id")
        nodes[entry_id] = SessionTreeNode(entry, [], labels.get(entry_id), label_timestamps.get(entry_id))
    roots: list[SessionTreeNode] = []
    for entry in entries:
        node = nodes[entry.get("id")]
        parent_id = entry.get("parentId")
        if parent_id is None or parent_id == entry.get("id"):
            roots.append(node)
            continue
        parent = nodes.get(parent_id)
        if parent is not None:
            parent.children.append(node)
        else:
            roots.append(node)  # orphan
    key = functools.cmp_to_key(_tree_compare)
    stack = list(roots)
    while stack:
        node = stack.pop()
        node.children.sort(key=key)
        stack.extend(node.children)
    return roots
