"""Bring v1 and v2 session records to v3 in place, exactly as pi 1.6.0 does on load.

v1 files are a flat list without ids; v2 added the id/parentId tree; v3 renamed the ``hookMessage``
role to ``custom``. New keys are appended at the end of each dict (``version`` on the header,
``id``/``parentId`` on entries), which is where pi puts them, so a migrated file matches pi's bytes
apart from the random ids.
"""

from __future__ import annotations

from .entries import CURRENT_SESSION_VERSION, Entry
from .ids import generate_entry_id

__all__ = ["migrate_to_current_version"]


def _migrate_v1_to_v2(records: list[Entry]) -> None:
    # pi passes an empty set that never grows, so v1 ids are not collision-checked; 32 random
    # bits over at most a few thousand entries make a clash negligible, and we keep pi's choice.
    no_ids: set[str] = set()
    previous_id: str | None = None
    for record in records:
        if record.get("type") == "session":
            record["version"] = 2
            continue
        record["id"] = generate_entry_id(no_ids)
        record["parentId"] = previous_id
        previous_id = record["id"]
        if record.get("type") == "compaction":
            index = record.get("firstKeptEntryIndex")
            if isinstance(index, (int, float)) and not isinstance(index, bool):
                # the index counts the header as 0, as pi's does
                if index == int(index) and 0 <= index < len(records):
                    target = records[int(index)]
                    if target.get("type") != "session" and "id" in target:
                        record["firstKeptEntryId"] = target["id"]
                del record["firstKeptEntryIndex"]


def _migrate_v2_to_v3(records: list[Entry]) -> None:
    for record in records:
        if record.get("type") == "session":
            record["version"] = 3
            continue
        if record.get("type") == "message":
            message = record.get("message")
            if isinstance(message, dict) and message.get("role") == "hookMessage":
                message["role"] = "custom"


def migrate_to_current_version(records: list[Entry]) -> bool:
    """Migrate ``records`` (header included) in place; True when anything changed (rewrite needed)."""
    header = next((r for r in records if r.get("type") == "session"), None)
    version = header.get("version") if header is not None else None
    if version is None:
        version = 1
    if not isinstance(version, (int, float)) or isinstance(version, bool):
        return False  # JavaScript compares a non-numeric version as NaN: never below 3
    if version >= CURRENT_SESSION_VERSION:
        return False
    if version < 2:
        _migrate_v1_to_v2(records)
    _migrate_v2_to_v3(records)
    return True
