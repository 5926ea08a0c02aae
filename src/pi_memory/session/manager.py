"""``SessionManager``: pi's append-only session tree over one JSONL file, in Python spelling.

Every entry has an ``id`` and a ``parentId``; the *leaf* (current position) is not stored and is
the last entry in file order when a file is opened. Appending adds a child of the leaf and moves
the leaf to it; ``branch`` moves the leaf back without touching history. The file is written
lazily: nothing reaches disk until the session holds a user or assistant message (pi 1.6.0),
then the header and all buffered entries are written at once and later entries are appended one
line each, flushed and fsynced.

Differences from pi, all on the side of not losing data:

- Lines pi silently skips are reported in :attr:`SessionManager.damaged_lines`, announced with a
  :class:`SessionFileDamagedWarning`, and copied to ``<file>.damaged``; they stay in the file.
- Opening never edits the file to repair a missing final newline; the next append starts on a
  fresh line instead.
- Whole-file rewrites are atomic (temp file + rename) instead of truncating in place.
- ``fork_from`` migrates a v1/v2 source before copying it (pi copies old entries verbatim under a
  v3 header).
- A ``parentId`` cycle ends a branch walk instead of hanging.
"""

from __future__ import annotations

import builtins
import functools
import math
import os
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from pi_memory.base import js as jsjson
from pi_memory.base.js import date_parse_ms, iso_now, js_trim, js_truthy

from . import listing
from .context import (
    SessionContext,
    SessionProjection,
    _hashable,
    build_session_context,
    build_session_projection,
    get_current_system_message,
)
from .context import build_context_entries as _build_context_entries
from .entries import CURRENT_SESSION_VERSION, Entry
from .ids import assert_valid_session_id, generate_entry_id, uuidv7
from .listing import SessionInfo
from .migrate import migrate_to_current_version
from .paths import (
    get_default_session_dir,
    get_default_session_dir_path,
    get_sessions_dir,
    normalize_path,
    resolve_path,
    session_file_name,
)
from .store import (
    DamagedLine,
    HeaderScanLimitError,
    LoadResult,
    append_line,
    damaged_sidecar_path,
    load_records,
    read_session_header,
    rewrite_file,
    save_damaged_lines,
    write_new_file,
)

__all__ = [
    "UNSET",
    "EntryNotFoundError",
    "SessionError",
    "SessionFileDamagedWarning",
    "SessionManager",
    "SessionTreeNode",
]


class _Unset:
    """JavaScript ``undefined`` for optional arguments where ``None`` (``null``) is meaningful."""

    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET: Final = _Unset()
"""Default for arguments whose absence leaves a key out of the line (``append_custom_entry`` data)."""

_NEWLINES_RE: Final = re.compile(r"[\r\n]+")


class SessionError(Exception):
    """A session operation that cannot be done as asked (pi throws ``Error`` in these cases)."""


class EntryNotFoundError(SessionError, LookupError):
    """``Entry <id> not found``: an id that is not in this session."""

    def __init__(self, entry_id: Any) -> None:
        super().__init__(f"Entry {entry_id} not found")
        self.entry_id = entry_id


class SessionFileDamagedWarning(UserWarning):
    """A session file had lines that could not be read; see ``SessionManager.damaged_lines``."""


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


def _tree_compare(a: SessionTreeNode, b: SessionTreeNode) -> int:
    diff = date_parse_ms(a.entry.get("timestamp")) - date_parse_ms(b.entry.get("timestamp"))
    if math.isnan(diff) or diff == 0:
        return 0  # JavaScript's sort treats a NaN comparison as equal
    return -1 if diff < 0 else 1


def _is_conversation(entry: Entry) -> bool:
    if entry.get("type") != "message":
        return False
    message = entry.get("message")
    return isinstance(message, dict) and message.get("role") in ("user", "assistant")


def _serialize(records: Sequence[Entry]) -> str:
    dumps = jsjson.dumps
    return "".join([dumps(record) + "\n" for record in records])


class SessionManager:
    """One session: an append-only tree of entries, persisted to a pi-compatible JSONL file.

    Build one with :meth:`create`, :meth:`open`, :meth:`continue_recent`, :meth:`in_memory` or
    :meth:`fork_from`. Entries are plain dicts (see :mod:`pi_memory.session.entries`); treat the
    ones you get back as read-only, they are the session's own records.
    """

    damaged_lines: builtins.list[DamagedLine]
    """Lines of the opened file that could not be read (empty for a healthy file)."""
    damaged_sidecar: str | None
    """``<file>.damaged`` once it holds every damaged line; ``None`` when they could not be
    copied there (then the file is never rewritten: its lines exist nowhere else)."""

    def __init__(
        self,
        cwd: str,
        session_dir: str,
        session_file: str | None,
        persist: bool,
        *,
        id: str | None = None,
        parent_session: str | None = None,
        preloaded: LoadResult | None = None,
        preloaded_entries: Sequence[Entry] | None = None,
    ) -> None:
        """Prefer the named constructors; this mirrors pi's constructor for the rare direct use."""
        self._cwd = resolve_path(cwd)
        self._session_dir = normalize_path(session_dir)
        self._persist = persist
        self._session_id = ""
        self._session_file: str | None = None
        self._flushed = False
        self._has_conversation = False
        self._file_entries: builtins.list[Entry] = []
        self._by_id: dict[Any, Entry] = {}
        self._labels: dict[Any, Any] = {}
        self._label_timestamps: dict[Any, Any] = {}
        self._leaf_id: Any = None
        self.damaged_lines = []
        self.damaged_sidecar = None
        self._unsaved_damage: tuple[str, str] | None = None
        """(file, why) when damaged lines of ``file`` could not be copied to its sidecar."""
        if persist and self._session_dir and not os.path.exists(self._session_dir):
            os.makedirs(self._session_dir, exist_ok=True)
        if session_file:
            self._set_session_file(session_file, preloaded)
        elif preloaded_entries:
            self._load_entries([dict(entry) for entry in preloaded_entries], id=id, parent_session=parent_session)
        else:
            self.new_session(id=id, parent_session=parent_session)

    # --- file lifecycle ------------------------------------------------------------------------

    def set_session_file(self, session_file: str) -> None:
        """Switch to another session file (resume), loading it like :meth:`open` does."""
        self._set_session_file(session_file, None)

    def _set_session_file(self, session_file: str, preloaded: LoadResult | None) -> None:
        self._session_file = resolve_path(session_file)
        path = self._session_file
        self.damaged_lines = []
        self.damaged_sidecar = None
        self._unsaved_damage = None
        if os.path.exists(path):
            loaded = preloaded if preloaded is not None else load_records(path)
            self._note_damage(path, loaded)
            if not loaded.valid:
                if os.path.getsize(path) > 0:
                    raise SessionError(f"Session file is not a valid pi session: {path}")
                self.new_session()
                self._session_file = path
                self._rewrite_file()
                self._flushed = True
                return
            self._load_entries(loaded.records)
            self._flushed = True
        else:
            self.new_session()
            self._session_file = path  # keep the explicit path (pi's --session <path>)

    def _note_damage(self, path: str, loaded: LoadResult) -> None:
        if not loaded.damaged:
            return
        self.damaged_lines = builtins.list(loaded.damaged)
        sidecar = damaged_sidecar_path(path)
        try:
            self.damaged_sidecar = save_damaged_lines(path, loaded.damaged)
            kept = f"; copied to {sidecar}"
        except OSError as exc:
            why = f"they could not be copied to {sidecar} ({exc.strerror or exc})"
            self._unsaved_damage = (path, why)
            kept = f"; {why}"
        where = ", ".join(f"line {d.line} ({d.reason})" for d in loaded.damaged[:5])
        more = f" and {len(loaded.damaged) - 5} more" if len(loaded.damaged) > 5 else ""
        warnings.warn(
            f"{path}: skipped {len(loaded.damaged)} unreadable line(s): {where}{more}. "
            f"The lines stay in the file{kept}.",
            SessionFileDamagedWarning,
            stacklevel=4,
        )

    def new_session(self, *, id: str | None = None, parent_session: str | None = None) -> str | None:
        """Start a fresh, empty session (no file until the first user/assistant message)."""
        if id is not None:
            assert_valid_session_id(id)
        self._session_id = id if id is not None else uuidv7()
        timestamp = iso_now()
        header: Entry = {
            "type": "session",
            "version": CURRENT_SESSION_VERSION,
            "id": self._session_id,
            "timestamp": timestamp,
            "cwd": self._cwd,
        }
        if parent_session is not None:
            header["parentSession"] = parent_session
        self._file_entries = [header]
        self._by_id = {}
        self._labels = {}
        self._label_timestamps = {}
        self._leaf_id = None
        self._flushed = False
        self._has_conversation = False
        if self._persist:
            self._session_file = os.path.join(self._session_dir, session_file_name(timestamp, self._session_id))
        return self._session_file

    def _load_entries(
        self, records: builtins.list[Entry], *, id: str | None = None, parent_session: str | None = None
    ) -> None:
        header = next((r for r in records if r.get("type") == "session"), None)
        if header is not None:
            self._file_entries = records
            self._session_id = header.get("id")  # type: ignore[assignment]
            if migrate_to_current_version(self._file_entries):
                self._rewrite_file()
        else:
            self.new_session(id=id, parent_session=parent_session)
            self._file_entries = self._file_entries + records
        self._build_index()

    def _build_index(self) -> None:
        by_id: dict[Any, Entry] = {}
        labels: dict[Any, Any] = {}
        label_timestamps: dict[Any, Any] = {}
        leaf: Any = None
        has_conversation = False
        for entry in self._file_entries:
            kind = entry.get("type")
            if kind == "session":
                continue
            entry_id = entry.get("id")
            if type(entry_id) is not str:
                entry_id = _hashable(entry_id)  # a damaged file may hold a non-string id
            by_id[entry_id] = entry
            leaf = entry_id
            if kind == "message":
                if not has_conversation:
                    has_conversation = _is_conversation(entry)
            elif kind == "label":
                target = _hashable(entry.get("targetId"))
                if js_truthy(entry.get("label")):
                    labels[target] = entry["label"]
                    label_timestamps[target] = entry.get("timestamp")
                else:
                    labels.pop(target, None)
                    label_timestamps.pop(target, None)
        self._by_id = by_id
        self._labels = labels
        self._label_timestamps = label_timestamps
        self._leaf_id = leaf
        self._has_conversation = has_conversation

    def _rewrite_file(self) -> None:
        if not self._persist or not self._session_file:
            return
        if self._unsaved_damage is not None and self._unsaved_damage[0] == self._session_file:
            # The rewrite would leave the unreadable lines out, and no other file holds them.
            raise SessionError(
                f"{self._session_file} must be rewritten (an old session version is migrated to "
                f"v3, which leaves unreadable lines out), but {len(self.damaged_lines)} unreadable "
                f"line(s) exist only in this file: {self._unsaved_damage[1]}. Nothing was changed. Move "
                f"{damaged_sidecar_path(self._session_file)} aside or make it writable, then open the "
                "session again."
            )
        rewrite_file(self._session_file, _serialize(self._file_entries))

    def _write_entry(self, entry: Entry) -> None:
        if not self._persist or not self._session_file:
            return
        if not self._flushed:
            if not self._has_conversation:
                return
            write_new_file(self._session_file, _serialize(self._file_entries))
            self._flushed = True
        else:
            append_line(self._session_file, jsjson.dumps(entry) + "\n")

    def _add(self, kind: str, fields: Mapping[str, Any] | None = None, *,
             head: Mapping[str, Any] | None = None) -> Entry:
        """Append ``{type, **head, id, parentId, timestamp, **fields}`` at the leaf — pi's key
        order, which byte-compatible files depend on (custom entries put their own keys first)."""
        entry: Entry = {"type": kind, **(head or {}), "id": self._new_id(), "parentId": self._leaf_id,
                        "timestamp": iso_now(), **(fields or {})}
        self._append_entry(entry)
        return entry

    def _append_entry(self, entry: Entry) -> None:
        previous_leaf = self._leaf_id
        previous_conversation = self._has_conversation
        self._file_entries.append(entry)
        self._by_id[entry["id"]] = entry
        self._leaf_id = entry["id"]
        if not previous_conversation and _is_conversation(entry):
            self._has_conversation = True
        try:
            self._write_entry(entry)
        except BaseException:
            # An entry that did not reach the file must not become the parent of later entries.
            self._file_entries.pop()
            del self._by_id[entry["id"]]
            self._leaf_id = previous_leaf
            self._has_conversation = previous_conversation
            raise

    def _new_id(self) -> str:
        return generate_entry_id(self._by_id)

    # --- simple accessors ----------------------------------------------------------------------

    def is_persisted(self) -> bool:
        """False for :meth:`in_memory` sessions."""
        return self._persist

    def get_cwd(self) -> str:
        return self._cwd

    def get_session_dir(self) -> str:
        return self._session_dir

    def uses_default_session_dir(self) -> bool:
        """Whether the session lives in ``<agentDir>/sessions/--<cwd>--``."""
        return resolve_path(self._session_dir) == get_default_session_dir_path(self._cwd)

    def get_session_id(self) -> str:
        return self._session_id

    def get_session_file(self) -> str | None:
        """The file path (it may not exist yet: the first write is lazy); None in memory."""
        return self._session_file

    # --- appending -----------------------------------------------------------------------------

    def append_message(self, message: Mapping[str, Any]) -> str:
        """Append a ``message`` entry (user, assistant, toolResult, system, custom, bashExecution).

        Compaction and branch summaries are entries of their own: use :meth:`append_compaction`
        and :meth:`branch_with_summary`. Returns the new entry id.
        """
        return self._add("message", {"message": dict(message)})["id"]  # type: ignore[no-any-return]

    def append_thinking_level_change(self, thinking_level: str) -> str:
        """Record a thinking-level switch (``off``, ``minimal``, ``low``, ``medium``, ``high``, ``xhigh``)."""
        return self._add("thinking_level_change", {"thinkingLevel": thinking_level})["id"]  # type: ignore[no-any-return]

    def append_model_change(self, provider: str, model_id: str) -> str:
        """Record a model switch; the context's model is the latest change or assistant message."""
        return self._add("model_change", {"provider": provider, "modelId": model_id})["id"]  # type: ignore[no-any-return]

    def append_usage(
        self, kind: str, provider: str, model: str, usage: Mapping[str, Any], note: str | None = None
    ) -> Entry:
        """Record model usage that is not an assistant message (e.g. ``cache_warm``); returns the entry."""
        fields = {"kind": kind, "provider": provider, "model": model, "usage": dict(usage)}
        return self._add("usage", {**fields, "note": note} if note else fields)

    def append_compaction(
        self,
        summary: str,
        first_kept_entry_id: str | None,
        tokens_before: int,
        details: Any = None,
        from_hook: bool | None = None,
        usage: Mapping[str, Any] | None = None,
    ) -> str:
        """Append a compaction: context before ``first_kept_entry_id`` becomes ``summary``.

        ``first_kept_entry_id=None`` keeps nothing from before (pi stores the entry's own id).
        The current system prompt/tool state is checkpointed in ``systemMessage`` (pi 1.6.0).
        ``None`` for ``details``/``from_hook``/``usage`` leaves the key out.
        """
        timestamp = iso_now()
        system_message = get_current_system_message(self.build_session_projection().messages)
        entry_id = self._new_id()
        entry: Entry = {
            "type": "compaction",
            "id": entry_id,
            "parentId": self._leaf_id,
            "timestamp": timestamp,
            "summary": summary,
            "firstKeptEntryId": first_kept_entry_id if first_kept_entry_id is not None else entry_id,
            "tokensBefore": tokens_before,
        }
        entry.update(_given(details=details, usage=dict(usage) if usage is not None else None, fromHook=from_hook))
        if system_message is not None:
            system_message["timestamp"] = int(date_parse_ms(timestamp))
            entry["systemMessage"] = system_message
        self._append_entry(entry)
        return entry_id

    def append_custom_entry(self, custom_type: str, data: Any = UNSET) -> str:
        """Store extension state; the LLM never sees it. Omit ``data`` to write no ``data`` key."""
        head = {"customType": custom_type, **({} if data is UNSET else {"data": data})}
        return self._add("custom", head=head)["id"]  # type: ignore[no-any-return]

    def append_session_info(self, name: str) -> str:
        """Name the session (newlines become spaces, then trimmed); an empty name clears it."""
        return self._add("session_info", {"name": js_trim(_NEWLINES_RE.sub(" ", name))})["id"]  # type: ignore[no-any-return]

    def get_session_name(self) -> str | None:
        """The latest ``session_info`` name in file order (any branch); None when unnamed or cleared."""
        for entry in reversed(self._file_entries):
            if entry.get("type") == "session_info":
                name = entry.get("name")
                return (js_trim(name) or None) if isinstance(name, str) else None
        return None

    def append_custom_message_entry(
        self, custom_type: str, content: str | Sequence[Mapping[str, Any]], display: bool, details: Any = None
    ) -> str:
        """Inject an extension message the LLM sees as a user message; ``details`` is never sent."""
        head = {
            "customType": custom_type,
            "content": content if isinstance(content, str) else [dict(block) for block in content],
            "display": display,
            **_given(details=details),
        }
        return self._add("custom_message", head=head)["id"]  # type: ignore[no-any-return]

    def append_context_edit(self, target_id: str, replacement: Mapping[str, Any] | None) -> str:
        """Replace (``{"content": ...}``) or hide (``None``) an earlier entry's content, on this branch.

        The target must be on the active branch and be a user, assistant or toolResult message
        or a custom message. A string replacement for assistant/toolResult becomes one text block.
        """
        if replacement is not None and (
            not isinstance(replacement, Mapping)
            or "content" not in replacement
            or not isinstance(replacement["content"], (str, builtins.list))
        ):
            raise ValueError("Context edit replacement must be null or contain string/array content")
        target = self._by_id.get(target_id)
        if target is None:
            raise EntryNotFoundError(target_id)
        if not any(entry.get("id") == target_id for entry in self.get_branch()):
            raise SessionError(f"Entry {target_id} is not on the active branch")
        role = target.get("message", {}).get("role") if target.get("type") == "message" else None
        if not (target.get("type") == "custom_message" or role in ("user", "assistant", "toolResult")):
            raise SessionError(f"Entry {target_id} does not contribute editable model content")
        normalized: dict[str, Any] | None
        if replacement is None:
            normalized = None
        elif role in ("assistant", "toolResult") and isinstance(replacement["content"], str):
            normalized = {"content": [{"type": "text", "text": replacement["content"]}]}
        else:
            normalized = dict(replacement)
        return self._add("context_edit", {"targetId": target_id, "replacement": normalized})["id"]  # type: ignore[no-any-return]

    def append_label_change(self, target_id: str, label: str | None = None) -> str:
        """Set a label on an entry; ``None`` or ``""`` clears it. Labels never reach the LLM."""
        if target_id not in self._by_id:
            raise EntryNotFoundError(target_id)
        entry = self._add("label", {"targetId": target_id, **_given(label=label)})
        if label:
            self._labels[target_id] = label
            self._label_timestamps[target_id] = entry["timestamp"]
        else:
            self._labels.pop(target_id, None)
            self._label_timestamps.pop(target_id, None)
        return entry["id"]  # type: ignore[no-any-return]

    # --- reading the tree ----------------------------------------------------------------------

    def get_leaf_id(self) -> str | None:
        """The current position; None in a new session or after :meth:`reset_leaf`."""
        return self._leaf_id  # type: ignore[no-any-return]

    def get_leaf_entry(self) -> Entry | None:
        return self._by_id.get(self._leaf_id) if self._leaf_id else None

    def get_entry(self, entry_id: str) -> Entry | None:
        return self._by_id.get(entry_id)

    def get_children(self, parent_id: str | None) -> builtins.list[Entry]:
        """Direct children of an entry (``None``: the roots), in file order."""
        return [entry for entry in self._by_id.values() if entry.get("parentId") == parent_id]

    def get_label(self, entry_id: str) -> str | None:
        return self._labels.get(entry_id)

    def get_branch(self, from_id: str | None = None) -> builtins.list[Entry]:
        """Root-first path to ``from_id`` (default: the leaf), every entry type included."""
        start = from_id if from_id is not None else self._leaf_id
        current = self._by_id.get(start) if start else None
        path: builtins.list[Entry] = []
        seen: set[int] = set()
        by_id = self._by_id
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            path.append(current)
            parent = current.get("parentId")
            current = by_id.get(parent) if parent else None
        path.reverse()
        return path

    def build_context_entries(self) -> builtins.list[Entry]:
        """The entries behind the context (compaction-aware), for rendering."""
        return _build_context_entries(self.get_entries(), self._leaf_id, self._by_id)

    def build_session_projection(self) -> SessionProjection:
        """Context messages with their source entries, after context edits."""
        return build_session_projection(self._entries_view(), self._leaf_id, self._by_id)

    def build_session_context(self) -> SessionContext:
        """What the LLM sees from the current leaf: messages, thinking level, model (as pi)."""
        return build_session_context(self._entries_view(), self._leaf_id, self._by_id)

    def _entries_view(self) -> Sequence[Entry]:
        # The path walk needs the entries only when the leaf is unknown (then the last entry).
        if self._leaf_id is not None and self._leaf_id in self._by_id:
            return ()
        return self.get_entries()

    def get_header(self) -> Entry | None:
        """The (first) header line."""
        return next((entry for entry in self._file_entries if entry.get("type") == "session"), None)

    def get_entry_count(self) -> int:
        """Number of entries (header excluded), without copying them."""
        return len(self._by_id)

    def get_entries(self) -> builtins.list[Entry]:
        """Every entry except header lines, in file order, across all branches (a new list)."""
        return [entry for entry in self._file_entries if entry.get("type") != "session"]

    def get_tree(self) -> builtins.list[SessionTreeNode]:
        """The session as a forest: roots are entries without a (known) parent; children oldest first."""
        entries = self.get_entries()
        nodes: dict[Any, SessionTreeNode] = {}
        for entry in entries:
            entry_id = entry.get("id")
            nodes[entry_id] = SessionTreeNode(
                entry, [], self._labels.get(entry_id), self._label_timestamps.get(entry_id)
            )
        roots: builtins.list[SessionTreeNode] = []
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
        stack = builtins.list(roots)
        while stack:
            node = stack.pop()
            node.children.sort(key=key)
            stack.extend(node.children)
        return roots

    # --- branching -----------------------------------------------------------------------------

    def branch(self, branch_from_id: str) -> None:
        """Move the leaf to an earlier entry; the next append starts a new branch there."""
        if branch_from_id not in self._by_id:
            raise EntryNotFoundError(branch_from_id)
        self._leaf_id = branch_from_id

    def reset_leaf(self) -> None:
        """Move the leaf before the first entry; the next append is a new root."""
        self._leaf_id = None

    def branch_with_summary(
        self,
        branch_from_id: str | None,
        summary: str,
        details: Any = None,
        from_hook: bool | None = None,
        usage: Mapping[str, Any] | None = None,
    ) -> str:
        """Branch to ``branch_from_id`` (None: a new root) and append a summary of the branch left.

        ``fromId`` records the leaf we came from (``"root"`` if there was none), as pi 1.6.0 does.
        """
        if branch_from_id is not None and branch_from_id not in self._by_id:
            raise EntryNotFoundError(branch_from_id)
        from_id = self._leaf_id if self._leaf_id is not None else "root"
        self._leaf_id = branch_from_id
        optional = _given(details=details, usage=dict(usage) if usage is not None else None, fromHook=from_hook)
        entry = self._add("branch_summary", {"fromId": from_id, "summary": summary, **optional})
        return entry["id"]  # type: ignore[no-any-return]

    def create_branched_session(self, leaf_id: str) -> str | None:
        """Extract the root→``leaf_id`` path into a new session (new id, new file, same directory).

        Labels on the path are re-created after it; labels elsewhere are dropped. Returns the new
        file path, or None for an in-memory session (which is replaced in place).
        """
        previous_file = self._session_file
        path = self.get_branch(leaf_id)
        if not path:
            raise EntryNotFoundError(leaf_id)
        kept: builtins.list[Entry] = []
        replacement_for_label: dict[Any, Any] = {}
        pending_labels: builtins.list[Any] = []
        parent_id: Any = None
        for entry in path:
            if entry.get("type") == "label":
                pending_labels.append(entry.get("id"))
                continue
            for label_id in pending_labels:
                replacement_for_label[label_id] = entry.get("id")
            pending_labels.clear()
            copy = dict(entry)
            copy["parentId"] = parent_id
            if entry.get("type") == "compaction":
                first_kept = entry.get("firstKeptEntryId")
                if first_kept != entry.get("id"):
                    first_kept = replacement_for_label.get(first_kept, first_kept)
                copy["firstKeptEntryId"] = first_kept
            kept.append(copy)
            parent_id = entry.get("id")
        new_id = uuidv7()
        timestamp = iso_now()
        new_file = os.path.join(self._session_dir, session_file_name(timestamp, new_id))
        header: Entry = {
            "type": "session",
            "version": CURRENT_SESSION_VERSION,
            "id": new_id,
            "timestamp": timestamp,
            "cwd": self._cwd,
        }
        if self._persist and previous_file is not None:
            header["parentSession"] = previous_file
        path_ids: set[Any] = {entry.get("id") for entry in kept}
        labels_to_write = [
            (target, label, self._label_timestamps.get(target))
            for target, label in self._labels.items()
            if target in path_ids
        ]
        label_parent = kept[-1].get("id") if kept else None
        label_entries: builtins.list[Entry] = []
        for target, label, label_timestamp in labels_to_write:
            label_entry: Entry = {
                "type": "label",
                "id": generate_entry_id(path_ids),
                "parentId": label_parent or None,
            }
            if label_timestamp is not None:
                label_entry["timestamp"] = label_timestamp
            label_entry["targetId"] = target
            label_entry["label"] = label
            path_ids.add(label_entry["id"])
            label_entries.append(label_entry)
            label_parent = label_entry["id"]
        self._file_entries = [header, *kept, *label_entries]
        self._session_id = new_id
        self._build_index()
        if not self._persist:
            return None
        self._session_file = new_file
        if self._has_conversation:
            self._rewrite_file()
            self._flushed = True
        else:
            self._flushed = False
        return new_file

    # --- factories -----------------------------------------------------------------------------

    @staticmethod
    def create(
        cwd: str, session_dir: str | None = None, *, id: str | None = None, parent_session: str | None = None
    ) -> SessionManager:
        """A new session for ``cwd`` in ``session_dir`` (default ``<agentDir>/sessions/--<cwd>--``)."""
        directory = normalize_path(session_dir) if session_dir else get_default_session_dir(cwd)
        return SessionManager(cwd, directory, None, True, id=id, parent_session=parent_session)

    @staticmethod
    def open(path: str, session_dir: str | None = None, cwd_override: str | None = None) -> SessionManager:
        """Open a session file (migrating v1/v2 files to v3); a missing path starts a session there.

        The cwd comes from the header unless ``cwd_override`` is given; ``session_dir`` (for later
        branching) defaults to the file's directory. Raises :class:`SessionError` if the file is
        not empty and its first readable line is not a session header.
        """
        resolved = resolve_path(path)
        preloaded: LoadResult | None = None
        header: Entry | None = None
        if os.path.exists(resolved):
            preloaded = load_records(resolved)
            if preloaded.valid:
                header = preloaded.records[0]
        header_cwd = header.get("cwd") if header is not None else None
        if cwd_override is not None:
            cwd = cwd_override
        elif isinstance(header_cwd, str):
            cwd = header_cwd
        else:
            cwd = os.getcwd()
        directory = normalize_path(session_dir) if session_dir else os.path.dirname(resolved)
        return SessionManager(cwd, directory, resolved, True, preloaded=preloaded)

    @staticmethod
    def continue_recent(cwd: str, session_dir: str | None = None) -> SessionManager:
        """Open the most recently modified session for ``cwd``, or create one (``pi --continue``)."""
        directory = normalize_path(session_dir) if session_dir else get_default_session_dir(cwd)
        filter_cwd = session_dir is not None and resolve_path(directory) != get_default_session_dir_path(cwd)
        most_recent = listing.find_most_recent_session(directory, resolve_path(cwd) if filter_cwd else None)
        return SessionManager(cwd, directory, most_recent, True)

    @staticmethod
    def in_memory(
        cwd: str | None = None,
        *,
        id: str | None = None,
        parent_session: str | None = None,
        entries: Sequence[Entry] | None = None,
    ) -> SessionManager:
        """A session that is never written to disk (``pi --no-session``), optionally preloaded."""
        return SessionManager(
            cwd if cwd is not None else os.getcwd(),
            "",
            None,
            False,
            id=id,
            parent_session=parent_session,
            preloaded_entries=entries,
        )

    @staticmethod
    def fork_from(
        source_path: str, target_cwd: str, session_dir: str | None = None, *, id: str | None = None
    ) -> SessionManager:
        """Copy another project's session into ``target_cwd``'s session directory and open it.

        The copy gets a new id, the new cwd and ``parentSession`` = the source; the source is
        never modified. A v1/v2 source is migrated in the copy (pi would copy it verbatim).
        """
        source = resolve_path(source_path)
        resolved_cwd = resolve_path(target_cwd)
        loaded = load_records(source)
        if not loaded.records or not loaded.valid:
            raise SessionError(f"Cannot fork: source session file is empty or invalid: {source}")
        if loaded.damaged:
            warnings.warn(
                f"{source}: {len(loaded.damaged)} unreadable line(s) were not copied into the fork",
                SessionFileDamagedWarning,
                stacklevel=2,
            )
        records = loaded.records
        migrate_to_current_version(records)
        directory = normalize_path(session_dir) if session_dir else get_default_session_dir(resolved_cwd)
        os.makedirs(directory, exist_ok=True)
        if id is not None:
            assert_valid_session_id(id)
        new_id = id if id is not None else uuidv7()
        timestamp = iso_now()
        new_file = os.path.join(directory, session_file_name(timestamp, new_id))
        header: Entry = {
            "type": "session",
            "version": CURRENT_SESSION_VERSION,
            "id": new_id,
            "timestamp": timestamp,
            "cwd": resolved_cwd,
            "parentSession": source,
        }
        write_new_file(new_file, _serialize([header, *(r for r in records if r.get("type") != "session")]))
        return SessionManager(resolved_cwd, directory, new_file, True)

    @staticmethod
    def find_by_id(cwd: str, session_id: str, session_dir: str | None = None) -> str | None:
        """Path of the session with exactly this id in ``cwd``'s session directory, if any."""
        directory = normalize_path(session_dir) if session_dir else get_default_session_dir(cwd)
        filter_cwd = session_dir is not None and resolve_path(directory) != get_default_session_dir_path(cwd)
        resolved_cwd = resolve_path(cwd)
        try:
            names = os.listdir(directory)
        except OSError:
            return None
        for name in names:
            if not name.endswith(".jsonl"):
                continue
            path = os.path.join(directory, name)
            header = listing.read_header_for_discovery(path)
            if header is None or header.get("id") != session_id:
                continue
            if filter_cwd:
                header_cwd = header.get("cwd")
                if not isinstance(header_cwd, str) or not header_cwd or resolve_path(header_cwd) != resolved_cwd:
                    continue
            return path
        return None

    @staticmethod
    def list(cwd: str, session_dir: str | None = None) -> builtins.list[SessionInfo]:
        """Sessions of ``cwd`` (its default directory, or ``session_dir``), newest first."""
        directory = normalize_path(session_dir) if session_dir else get_default_session_dir(cwd)
        filter_cwd = session_dir is not None and resolve_path(directory) != get_default_session_dir_path(cwd)
        resolved_cwd = resolve_path(cwd)
        sessions = listing.list_sessions_in_dir(directory)
        if filter_cwd:
            sessions = [s for s in sessions if s.cwd and resolve_path(s.cwd) == resolved_cwd]
        return sessions

    @staticmethod
    def list_all(session_dir: str | None = None) -> builtins.list[SessionInfo]:
        """Every session under ``<agentDir>/sessions`` (or only ``session_dir``), newest first."""
        if session_dir:
            return listing.list_sessions_in_dir(normalize_path(session_dir))
        root = get_sessions_dir()
        try:
            subdirs = [entry.path for entry in os.scandir(root) if entry.is_dir() or entry.is_symlink()]
        except OSError:
            return []
        candidates: builtins.list[tuple[float, str, str]] = []
        for directory in subdirs:
            try:
                names = [name for name in os.listdir(directory) if name.endswith(".jsonl")]
            except OSError:
                continue
            for name in names:
                path = os.path.join(directory, name)
                try:
                    mtime = os.stat(path).st_mtime_ns / 1e6
                except OSError:
                    mtime = -math.inf
                candidates.append((mtime, name, path))
        candidates.sort(key=lambda item: (item[0], item[1]), reverse=True)
        infos = [listing.build_session_info(path) for _, _, path in candidates]
        return listing.sort_session_infos([info for info in infos if info is not None])


def read_header(path: str) -> Entry | None:
    """The header of a session file if its first readable line is one (no full read)."""
    try:
        return read_session_header(path)
    except HeaderScanLimitError:
        loaded = load_records(path)
        return loaded.records[0] if loaded.valid else None


def _given(**fields: Any) -> dict[str, Any]:
    """The fields whose value is not ``None`` (pi leaves unset optional keys out), in order."""
    return {key: value for key, value in fields.items() if value is not None}
