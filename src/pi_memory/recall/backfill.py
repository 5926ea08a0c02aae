"""Backfill: turn existing session files (ours and pi's) into recall records, incrementally.

Session files only grow (pi appends; a rewrite happens on migration or recovery), so progress is
a byte offset per file: the next run parses only what was appended since. A file that shrank or
whose header changed is read again from the start; ``add`` is idempotent by id, so that costs
time, never duplicates.

Record ids are ``<sessionId>:<entryId>``. v1 files (pi before ids) have no entry ids, and pi's
migration would invent random ones each time, so their records use the line number instead
(``<sessionId>:L<n>``) — the files are never rewritten by a backfill.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pi_memory.base import searchable_text
from pi_memory.recall.types import RecallIndex, Record
from pi_memory.session import parse_records

__all__ = ["FLUSH_STEP", "BackfillResult", "BackfillState", "backfill", "find_session_files", "records_from_entries"]

INDEXED_ROLES = ("user", "assistant", "toolResult", "custom")
#: Tool results left out of the index: they only echo memory that is indexed or shown already —
#: the curated store (in every system prompt) and earlier recall hits, which would otherwise come
#: back as hits of their own and crowd out the messages they quote.
ECHO_TOOLS = frozenset({"memory_add", "memory_replace", "memory_remove", "memory_read",
                        "search_memory", "get_important_memories"})
BATCH = 256
#: What a backfill or reindex tells its ``step`` callback before the index's closing ``flush``.
FLUSH_STEP = "building the search index"


def _iso(entry: dict[str, Any], message: dict[str, Any]) -> str:
    stamp = entry.get("timestamp")
    if isinstance(stamp, str) and stamp:
        return stamp
    millis = message.get("timestamp")
    if isinstance(millis, (int, float)) and not isinstance(millis, bool):
        moment = datetime.fromtimestamp(millis / 1000, UTC)
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return "1970-01-01T00:00:00.000Z"


def records_from_entries(
    entries: list[dict[str, Any]], session_id: str, first_line: int = 1, source: str | None = None
) -> list[Record]:
    """Records for the indexable entries (``first_line`` numbers the first entry for v1 ids)."""
    records: list[Record] = []
    for offset, entry in enumerate(entries):
        kind = entry.get("type")
        if kind == "message" and isinstance(entry.get("message"), dict):
            message = entry["message"]
            role = "custom" if message.get("role") == "hookMessage" else message.get("role")
            content = message.get("content")
        elif kind == "custom_message":
            message, role, content = entry, "custom", entry.get("content")
        else:
            continue
        if role not in INDEXED_ROLES or (role == "toolResult" and message.get("toolName") in ECHO_TOOLS):
            continue
        text = searchable_text(content).strip()
        if not text:
            continue
        entry_id = entry.get("id") if isinstance(entry.get("id"), str) else None
        metadata: dict[str, Any] = {"entry_id": entry_id} if entry_id else {"line": first_line + offset}
        for key in ("toolName", "customType"):
            value = message.get(key) if key in message else entry.get(key)
            if isinstance(value, str):
                metadata[key] = value
        if source:
            metadata["file"] = source
        records.append(
            Record(
                id=f"{session_id}:{entry_id}" if entry_id else f"{session_id}:L{first_line + offset}",
                text=text,
                role=str(role),
                timestamp=_iso(entry, message),
                session_id=session_id,
                metadata=metadata,
            )
        )
    return records


@dataclass
class BackfillState:
    """Per-file progress, kept in a small JSON file beside the index."""

    path: Path
    files: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> BackfillState:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            data = {}
        files = data.get("files") if isinstance(data, dict) else None
        return cls(path, files if isinstance(files, dict) else {})

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps({"version": 1, "files": self.files}, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)


@dataclass
class BackfillResult:
    files: int = 0
    files_skipped: int = 0
    records: int = 0
    indexed: int = 0
    bytes: int = 0


def find_session_files(root: Path) -> list[Path]:
    """Every ``*.jsonl`` under ``root`` (pi nests them one directory per cwd), or ``root`` itself."""
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*.jsonl") if p.is_file())


def _read_new(path: Path, progress: dict[str, Any] | None) -> tuple[str | None, list[dict[str, Any]], int, int, int]:
    """(session id, new entries, line number of the first new entry, new offset, new line count)."""
    data = path.read_bytes()
    done = 0
    lines_done = 0
    if progress and progress.get("offset", 0) <= len(data):
        head = data[: min(len(data), 4096)].split(b"\n", 1)[0]
        if progress.get("header") == head.decode("utf-8", "replace"):
            done, lines_done = int(progress["offset"]), int(progress.get("lines", 0))
    complete = data.rfind(b"\n") + 1  # a torn last line waits for the next run
    header = parse_records(data[: data.find(b"\n") + 1 or len(data)]).records
    session_id = header[0].get("id") if header and header[0].get("type") == "session" else None
    if not isinstance(session_id, str):
        return None, [], 0, complete, 0
    chunk = data[done:complete]
    entries = [e for e in parse_records(chunk).records if isinstance(e, dict)]
    if done == 0:
        entries = [e for e in entries if e.get("type") != "session"]
        lines_done = 1
    return session_id, entries, lines_done + 1, complete, lines_done + chunk.count(b"\n")


def backfill(
    index: RecallIndex,
    root: Path,
    state_path: Path,
    *,
    progress: Callable[[str, int, int], None] | None = None,
    step: Callable[[str], None] | None = None,
) -> BackfillResult:
    """Index what is new in every session file under ``root``, then ``flush`` the index.

    ``progress(file, bytes_done, bytes_total)`` is called after each file (for a progress bar).
    Progress is saved after every file, so an interrupted backfill resumes where it stopped.
    The closing ``flush`` is where PostgreSQL builds its HNSW index over a bulk load (~30 s at
    100k messages): paid here, not by the user's first search. ``step(message)`` says so first.
    """
    state = BackfillState.load(state_path)
    files = find_session_files(root)
    total = sum(p.stat().st_size for p in files)
    result = BackfillResult()
    seen = 0
    for path in files:
        key = str(path.resolve())
        size = path.stat().st_size
        known = state.files.get(key)
        if known and known.get("offset") == size:
            result.files_skipped += 1
        else:
            session_id, entries, first_line, offset, lines = _read_new(path, known)
            if session_id is not None:
                records = _records_for(entries, session_id, first_line, key)
                for start in range(0, len(records), BATCH):
                    result.indexed += index.add(records[start : start + BATCH])
                result.records += len(records)
                head = path.read_bytes()[:4096].split(b"\n", 1)[0].decode("utf-8", "replace")
                state.files[key] = {"offset": offset, "lines": lines, "header": head}
                state.save()
            result.files += 1
            result.bytes += size
        seen += size
        if progress:
            progress(str(path), seen, total)
    if step:
        step(FLUSH_STEP)
    index.flush()
    return result


def _records_for(entries: list[dict[str, Any]], session_id: str, first_line: int, source: str) -> list[Record]:
    """v1 line numbers count every line, so blank or damaged lines would shift them; entries of
    files with ids do not depend on that."""
    return records_from_entries(entries, session_id, first_line, source)
