"""New sessions made from existing ones: a branch extracted into its own file, a fork of
another project's session, and the header every new session starts with (pi 1.6.0).

Both keep the history they copy byte-compatible with pi: entries are copied as they are, only
``parentId`` (branching) or the header (forking) changes. The source file is never modified.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from pi_memory.base.js import iso_now

from .discovery import session_directory
from .entries import CURRENT_SESSION_VERSION, Entry
from .errors import SessionError, SessionFileDamagedWarning
from .ids import assert_valid_session_id, generate_entry_id, uuidv7
from .migrate import migrate_to_current_version
from .paths import resolve_path, session_file_name
from .store import load_records, serialize_records, write_new_file

__all__ = ["branched_entries", "fork_session", "new_header", "session_file_path"]


def new_header(cwd: str, *, id: str | None = None, parent_session: str | None = None) -> Entry:
    """A v3 session header: a new (or the given, validated) id, now as the timestamp, ``cwd``."""
    if id is not None:
        assert_valid_session_id(id)
    header: Entry = {
        "type": "session",
        "version": CURRENT_SESSION_VERSION,
        "id": id if id is not None else uuidv7(),
        "timestamp": iso_now(),
        "cwd": cwd,
    }
    if parent_session is not None:
        header["parentSession"] = parent_session
    return header


def session_file_path(directory: str, header: Entry) -> str:
    """``<directory>/<timestamp>_<id>.jsonl`` for a new session's header."""
    return os.path.join(directory, session_file_name(header["timestamp"], header["id"]))


def branched_entries(
    path: Sequence[Entry], labels: Mapping[Any, Any], label_timestamps: Mapping[Any, Any]
) -> list[Entry]:
    """The root→leaf ``path`` as a session of its own (pi's ``createBranchedSession``).

    Label entries on the path are dropped and the labels of entries on it (``labels``, with their
    ``label_timestamps``) re-created at its end; a compaction that kept a dropped label entry
    keeps the entry after it instead.
    """
    kept: list[Entry] = []
    replacement_for_label: dict[Any, Any] = {}
    pending_labels: list[Any] = []
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
    path_ids: set[Any] = {entry.get("id") for entry in kept}
    labels_to_write = [
        (target, label, label_timestamps.get(target)) for target, label in labels.items() if target in path_ids
    ]
    label_parent = kept[-1].get("id") if kept else None
    for target, label, label_timestamp in labels_to_write:
        label_entry: Entry = {"type": "label", "id": generate_entry_id(path_ids), "parentId": label_parent or None}
        if label_timestamp is not None:
            label_entry["timestamp"] = label_timestamp
        label_entry["targetId"] = target
        label_entry["label"] = label
        path_ids.add(label_entry["id"])
        kept.append(label_entry)
        label_parent = label_entry["id"]
    return kept


def fork_session(
    source_path: str, target_cwd: str, session_dir: str | None = None, *, id: str | None = None
) -> tuple[str, str, str]:
    """Copy a session into ``target_cwd``'s session directory; (resolved cwd, directory, new file).

    The copy gets a new id, the new cwd and ``parentSession`` = the source. A v1/v2 source is
    migrated in the copy (pi would copy it verbatim); unreadable lines are not copied (warned).
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
            stacklevel=3,
        )
    records = loaded.records
    migrate_to_current_version(records)
    directory = session_directory(resolved_cwd, session_dir)
    os.makedirs(directory, exist_ok=True)
    header = new_header(resolved_cwd, id=id, parent_session=source)
    new_file = session_file_path(directory, header)
    write_new_file(new_file, serialize_records([header, *(r for r in records if r.get("type") != "session")]))
    return resolved_cwd, directory, new_file
