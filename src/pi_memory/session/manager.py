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
import os
from collections.abc import Mapping, Sequence
from typing import Any

from pi_memory.base.js import iso_now

from . import factories, records
from .branching import branched_entries, fork_session, new_header, session_file_path
from .context import (
    SessionContext,
    SessionProjection,
    build_session_context,
    build_session_projection,
    context_edit_replacement,
)
from .context import build_context_entries as _build_context_entries
from .discovery import (
    find_session_by_id,
    list_all_sessions,
    list_sessions,
)
from .entries import UNSET, Entry
from .errors import EntryNotFoundError, SessionError
from .ids import generate_entry_id
from .listing import SessionInfo
from .messages import get_current_system_message
from .migrate import migrate_to_current_version
from .paths import get_default_session_dir_path, normalize_path, resolve_path
from .persistence import SessionFile
from .store import DamagedLine, LoadResult
from .tree import SessionTreeNode, TreeIndex, branch_path, build_tree, index_entries

__all__ = ["SessionManager"]


class SessionManager:
    """One session: an append-only tree of entries, persisted to a pi-compatible JSONL file.

    Build one with :meth:`create`, :meth:`open`, :meth:`continue_recent`, :meth:`in_memory` or
    :meth:`fork_from`. Entries are plain dicts (see :mod:`pi_memory.session.entries`); treat the
    ones you get back as read-only, they are the session's own records.
    """

    def __init__(self, cwd: str, session_dir: str, session_file: str | None, persist: bool, *, id: str | None = None,
                 parent_session: str | None = None, preloaded: LoadResult | None = None,
                 preloaded_entries: Sequence[Entry] | None = None) -> None:
        """Prefer the named constructors; this mirrors pi's constructor for the rare direct use."""
        self._cwd = resolve_path(cwd)
        self._session_dir = normalize_path(session_dir)
        self._file = SessionFile(persist)
        self._session_id = ""
        self._file_entries: builtins.list[Entry] = []
        self._index = TreeIndex()  # entries by id, labels, the leaf (see session.tree)
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

    @property
    def damaged_lines(self) -> builtins.list[DamagedLine]:
        """Lines of the opened file that could not be read (empty for a healthy file)."""
        return self._file.damaged_lines

    @property
    def damaged_sidecar(self) -> str | None:
        """``<file>.damaged`` once it holds every damaged line; ``None`` when they could not be
        copied there (then the file is never rewritten: its lines exist nowhere else)."""
        return self._file.damaged_sidecar

    def _set_session_file(self, session_file: str, preloaded: LoadResult | None) -> None:
        path = resolve_path(session_file)
        loaded = self._file.open(path, preloaded, stacklevel=4)
        if loaded is not None and loaded.valid:
            self._load_entries(loaded.records)
            self._file.flushed = True
            return
        self.new_session()
        self._file.path = path  # keep the explicit path (pi's --session <path>)
        if loaded is not None:  # an empty file: it becomes this new session
            self._rewrite_file()
            self._file.flushed = True

    def new_session(self, *, id: str | None = None, parent_session: str | None = None) -> str | None:
        """Start a fresh, empty session (no file until the first user/assistant message)."""
        header = new_header(self._cwd, id=id, parent_session=parent_session)
        self._session_id = header["id"]
        self._file_entries = [header]
        self._index = TreeIndex()
        self._file.flushed = False
        if self._file.persist:
            self._file.path = session_file_path(self._session_dir, header)
        return self._file.path

    def _load_entries(self, loaded: builtins.list[Entry], *, id: str | None = None,
                      parent_session: str | None = None) -> None:
        header = next((r for r in loaded if r.get("type") == "session"), None)
        if header is not None:
            self._file_entries = loaded
            self._session_id = header.get("id")  # type: ignore[assignment]
            if migrate_to_current_version(self._file_entries):
                self._rewrite_file()
        else:
            self.new_session(id=id, parent_session=parent_session)
            self._file_entries = self._file_entries + loaded
        self._build_index()

    def _build_index(self) -> None:
        self._index = index_entries(self._file_entries)

    def _rewrite_file(self) -> None:
        self._file.rewrite(self._file_entries)

    def _add(self, kind: str, fields: Mapping[str, Any] | None = None, *, head: Mapping[str, Any] | None = None,
             entry_id: str | None = None, timestamp: str | None = None) -> str:
        """Append ``{type, **head, id, parentId, timestamp, **fields}`` at the leaf — pi's key
        order, which byte-compatible files depend on (custom entries put their own keys first).
        Returns the new entry's id (``entry_id`` when the caller needed it beforehand)."""
        entry_id = entry_id if entry_id is not None else self._new_id()
        entry: Entry = {"type": kind, **(head or {}), "id": entry_id, "parentId": self._index.leaf_id,
                        "timestamp": timestamp if timestamp is not None else iso_now(), **(fields or {})}
        self._append_entry(entry)
        return entry_id

    def _append_entry(self, entry: Entry) -> None:
        self._file_entries.append(entry)
        undo = self._index.add(entry)
        try:
            self._file.write(entry, self._file_entries, self._index.has_conversation)
        except BaseException:
            # An entry that did not reach the file must not become the parent of later entries.
            self._file_entries.pop()
            undo()
            raise

    def _new_id(self) -> str:
        return generate_entry_id(self._index.by_id)

    # --- simple accessors ----------------------------------------------------------------------

    def is_persisted(self) -> bool:
        """False for :meth:`in_memory` sessions."""
        return self._file.persist

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
        return self._file.path

    # --- appending -----------------------------------------------------------------------------

    def append_message(self, message: Mapping[str, Any]) -> str:
        """Append a ``message`` entry (user, assistant, toolResult, system, custom, bashExecution).

        Compaction and branch summaries are entries of their own: use :meth:`append_compaction`
        and :meth:`branch_with_summary`. Returns the new entry id.
        """
        return self._add("message", {"message": dict(message)})

    def append_thinking_level_change(self, thinking_level: str) -> str:
        """Record a thinking-level switch (``off``, ``minimal``, ``low``, ``medium``, ``high``, ``xhigh``)."""
        return self._add("thinking_level_change", {"thinkingLevel": thinking_level})

    def append_model_change(self, provider: str, model_id: str) -> str:
        """Record a model switch; the context's model is the latest change or assistant message."""
        return self._add("model_change", {"provider": provider, "modelId": model_id})

    def append_usage(self, kind: str, provider: str, model: str, usage: Mapping[str, Any],
                     note: str | None = None) -> Entry:
        """Record model usage that is not an assistant message (e.g. ``cache_warm``); returns the entry."""
        fields = {"kind": kind, "provider": provider, "model": model, "usage": dict(usage)}
        return self._index.by_id[self._add("usage", {**fields, "note": note} if note else fields)]

    def append_compaction(self, summary: str, first_kept_entry_id: str | None, tokens_before: int, details: Any = None,
                          from_hook: bool | None = None, usage: Mapping[str, Any] | None = None) -> str:
        """Append a compaction: context before ``first_kept_entry_id`` becomes ``summary``.

        ``first_kept_entry_id=None`` keeps nothing from before (pi stores the entry's own id).
        The current system prompt/tool state is checkpointed in ``systemMessage`` (pi 1.6.0).
        ``None`` for ``details``/``from_hook``/``usage`` leaves the key out.
        """
        timestamp = iso_now()
        system_message = get_current_system_message(self.build_session_projection().messages)
        entry_id = self._new_id()
        fields = records.compaction_fields(entry_id, timestamp, summary, first_kept_entry_id, tokens_before,
                                           records.summary_extras(details, usage, from_hook), system_message)
        return self._add("compaction", fields, entry_id=entry_id, timestamp=timestamp)

    def append_custom_entry(self, custom_type: str, data: Any = UNSET) -> str:
        """Store extension state; the LLM never sees it. Omit ``data`` to write no ``data`` key."""
        head = {"customType": custom_type, **({} if data is UNSET else {"data": data})}
        return self._add("custom", head=head)

    def append_session_info(self, name: str) -> str:
        """Name the session (newlines become spaces, then trimmed); an empty name clears it."""
        return self._add("session_info", {"name": records.session_name(name)})

    def get_session_name(self) -> str | None:
        """The latest ``session_info`` name in file order (any branch); None when unnamed or cleared."""
        return records.latest_name(self._file_entries)

    def append_custom_message_entry(self, custom_type: str, content: str | Sequence[Mapping[str, Any]], display: bool,
                                    details: Any = None) -> str:
        """Inject an extension message the LLM sees as a user message; ``details`` is never sent."""
        return self._add("custom_message", head=records.custom_message_head(custom_type, content, display, details))

    def append_context_edit(self, target_id: str, replacement: Mapping[str, Any] | None) -> str:
        """Replace (``{"content": ...}``) or hide (``None``) an earlier entry's content, on this branch.

        The target must be on the active branch and be a user, assistant or toolResult message
        or a custom message. A string replacement for assistant/toolResult becomes one text block.
        """
        records.check_replacement(replacement)
        target = self._index.by_id.get(target_id)
        if target is None:
            raise EntryNotFoundError(target_id)
        if not any(entry.get("id") == target_id for entry in self.get_branch()):
            raise SessionError(f"Entry {target_id} is not on the active branch")
        normalized = context_edit_replacement(target_id, target, replacement)
        return self._add("context_edit", {"targetId": target_id, "replacement": normalized})

    def append_label_change(self, target_id: str, label: str | None = None) -> str:
        """Set a label on an entry; ``None`` or ``""`` clears it. Labels never reach the LLM."""
        if target_id not in self._index.by_id:
            raise EntryNotFoundError(target_id)
        entry_id = self._add("label", {"targetId": target_id, **records.given(label=label)})
        self._index.set_label(target_id, label or None, self._index.by_id[entry_id]["timestamp"])
        return entry_id

    # --- reading the tree ----------------------------------------------------------------------

    def get_leaf_id(self) -> str | None:
        """The current position; None in a new session or after :meth:`reset_leaf`."""
        leaf: str | None = self._index.leaf_id
        return leaf

    def get_leaf_entry(self) -> Entry | None:
        return self._index.by_id.get(self._index.leaf_id) if self._index.leaf_id else None

    def get_entry(self, entry_id: str) -> Entry | None:
        return self._index.by_id.get(entry_id)

    def get_children(self, parent_id: str | None) -> builtins.list[Entry]:
        """Direct children of an entry (``None``: the roots), in file order."""
        return [entry for entry in self._index.by_id.values() if entry.get("parentId") == parent_id]

    def get_label(self, entry_id: str) -> str | None:
        return self._index.labels.get(entry_id)

    def get_branch(self, from_id: str | None = None) -> builtins.list[Entry]:
        """Root-first path to ``from_id`` (default: the leaf), every entry type included."""
        return branch_path(self._index.by_id, from_id if from_id is not None else self._index.leaf_id)

    def build_context_entries(self) -> builtins.list[Entry]:
        """The entries behind the context (compaction-aware), for rendering."""
        return _build_context_entries(self.get_entries(), self._index.leaf_id, self._index.by_id)

    def build_session_projection(self) -> SessionProjection:
        """Context messages with their source entries, after context edits."""
        return build_session_projection(self._entries_view(), self._index.leaf_id, self._index.by_id)

    def build_session_context(self) -> SessionContext:
        """What the LLM sees from the current leaf: messages, thinking level, model (as pi)."""
        return build_session_context(self._entries_view(), self._index.leaf_id, self._index.by_id)

    def _entries_view(self) -> Sequence[Entry]:
        # The path walk needs the entries only when the leaf is unknown (then the last entry).
        if self._index.leaf_id is not None and self._index.leaf_id in self._index.by_id:
            return ()
        return self.get_entries()

    def get_header(self) -> Entry | None:
        """The (first) header line."""
        return next((entry for entry in self._file_entries if entry.get("type") == "session"), None)

    def get_entry_count(self) -> int:
        """Number of entries (header excluded), without copying them."""
        return len(self._index.by_id)

    def get_entries(self) -> builtins.list[Entry]:
        """Every entry except header lines, in file order, across all branches (a new list)."""
        return [entry for entry in self._file_entries if entry.get("type") != "session"]

    def get_tree(self) -> builtins.list[SessionTreeNode]:
        """The session as a forest: roots are entries without a (known) parent; children oldest first."""
        return build_tree(self.get_entries(), self._index.labels, self._index.label_timestamps)

    # --- branching -----------------------------------------------------------------------------

    def branch(self, branch_from_id: str) -> None:
        """Move the leaf to an earlier entry; the next append starts a new branch there."""
        if branch_from_id not in self._index.by_id:
            raise EntryNotFoundError(branch_from_id)
        self._index.leaf_id = branch_from_id

    def reset_leaf(self) -> None:
        """Move the leaf before the first entry; the next append is a new root."""
        self._index.leaf_id = None

    def branch_with_summary(self, branch_from_id: str | None, summary: str, details: Any = None,
                            from_hook: bool | None = None, usage: Mapping[str, Any] | None = None) -> str:
        """Branch to ``branch_from_id`` (None: a new root) and append a summary of the branch left.

        ``fromId`` records the leaf we came from (``"root"`` if there was none), as pi 1.6.0 does.
        """
        if branch_from_id is not None and branch_from_id not in self._index.by_id:
            raise EntryNotFoundError(branch_from_id)
        from_id = self._index.leaf_id if self._index.leaf_id is not None else "root"
        self._index.leaf_id = branch_from_id
        optional = records.summary_extras(details, usage, from_hook)
        return self._add("branch_summary", {"fromId": from_id, "summary": summary, **optional})

    def create_branched_session(self, leaf_id: str) -> str | None:
        """Extract the root→``leaf_id`` path into a new session (new id, new file, same directory).

        Labels on the path are re-created after it; labels elsewhere are dropped. Returns the new
        file path, or None for an in-memory session (which is replaced in place).
        """
        previous_file = self._file.path
        path = self.get_branch(leaf_id)
        if not path:
            raise EntryNotFoundError(leaf_id)
        entries = branched_entries(path, self._index.labels, self._index.label_timestamps)
        header = new_header(self._cwd, parent_session=previous_file if self._file.persist else None)
        self._file_entries = [header, *entries]
        self._session_id = header["id"]
        self._build_index()
        if not self._file.persist:
            return None
        new_file = session_file_path(self._session_dir, header)
        self._file.path = new_file
        if self._index.has_conversation:
            self._rewrite_file()
            self._file.flushed = True
        else:
            self._file.flushed = False
        return new_file

    # --- factories -----------------------------------------------------------------------------

    @staticmethod
    def create(cwd: str, session_dir: str | None = None, *, id: str | None = None,
               parent_session: str | None = None) -> SessionManager:
        """A new session for ``cwd`` in ``session_dir`` (default ``<agentDir>/sessions/--<cwd>--``)."""
        return SessionManager(**factories.created(cwd, session_dir, id=id, parent_session=parent_session))

    @staticmethod
    def open(path: str, session_dir: str | None = None, cwd_override: str | None = None) -> SessionManager:
        """Open a session file (migrating v1/v2 files to v3); a missing path starts a session there.
        Where the cwd and ``session_dir`` come from: :func:`factories.opened`. Raises
        :class:`SessionError` if the file is not empty and its first readable line is no header."""
        return SessionManager(**factories.opened(path, session_dir, cwd_override))

    @staticmethod
    def continue_recent(cwd: str, session_dir: str | None = None) -> SessionManager:
        """Open the most recently modified session for ``cwd``, or create one (``pi --continue``)."""
        return SessionManager(**factories.recent(cwd, session_dir))

    @staticmethod
    def in_memory(cwd: str | None = None, *, id: str | None = None, parent_session: str | None = None,
                  entries: Sequence[Entry] | None = None) -> SessionManager:
        """A session that is never written to disk (``pi --no-session``), optionally preloaded."""
        return SessionManager(**factories.in_memory(cwd, id=id, parent_session=parent_session, entries=entries))

    @staticmethod
    def fork_from(source_path: str, target_cwd: str, session_dir: str | None = None, *,
                  id: str | None = None) -> SessionManager:
        """Copy another project's session into ``target_cwd``'s session directory and open it (a new
        id, the new cwd, ``parentSession`` = the source, which is never modified; see :func:`fork_session`)."""
        return SessionManager(*fork_session(source_path, target_cwd, session_dir, id=id), True)

    @staticmethod
    def find_by_id(cwd: str, session_id: str, session_dir: str | None = None) -> str | None:
        """Path of the session with exactly this id in ``cwd``'s session directory, if any."""
        return find_session_by_id(cwd, session_id, session_dir)

    @staticmethod
    def list(cwd: str, session_dir: str | None = None) -> builtins.list[SessionInfo]:
        """Sessions of ``cwd`` (its default directory, or ``session_dir``), newest first."""
        return list_sessions(cwd, session_dir)

    @staticmethod
    def list_all(session_dir: str | None = None) -> builtins.list[SessionInfo]:
        """Every session under ``<agentDir>/sessions`` (or only ``session_dir``), newest first."""
        return list_all_sessions(session_dir)

