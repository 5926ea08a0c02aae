"""What a session picker shows about one file (:mod:`pi_memory.session.listing`, pi's
``SessionInfo``): name, first user message, counts and the time of the last conversation."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

from pi_memory.session.listing import build_session_info, sort_session_infos

HEADER = {"type": "session", "version": 3, "id": "s1", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}


def message(entry_id: str, role: str, content: object, ts: int) -> dict[str, object]:
    return {"type": "message", "id": entry_id, "parentId": None, "timestamp": "2025-01-01T00:00:01.000Z",
            "message": {"role": role, "content": content, "timestamp": ts}}


def write(path: Path, *entries: object, raw: str = "") -> Path:
    path.write_text("\n".join(json.dumps(e) for e in entries) + "\n" + raw, encoding="utf-8")
    return path


def test_a_session_is_described_by_its_messages_and_its_latest_name(tmp_path: Path) -> None:
    path = write(tmp_path / "a.jsonl", {**HEADER, "parentSession": "/old.jsonl"},
                 message("m1", "user", [{"type": "text", "text": "fix the build"}], 1_735_689_601_000),
                 message("m2", "assistant", [{"type": "text", "text": "done"}], 1_735_689_700_000),
                 {"type": "session_info", "id": "n1", "parentId": "m2", "timestamp": "x", "name": " first "},
                 {"type": "session_info", "id": "n2", "parentId": "n1", "timestamp": "x", "name": "  Build fix "},
                 raw="{torn line\n")
    info = build_session_info(str(path))
    assert info is not None
    assert (info.id, info.cwd, info.name, info.parent_session_path) == ("s1", "/p", "Build fix", "/old.jsonl")
    assert (info.message_count, info.first_message, info.all_messages_text) == (2, "fix the build",
                                                                                "fix the build done")
    assert info.created == datetime(2025, 1, 1, tzinfo=UTC)
    assert info.modified_ms == 1_735_689_700_000  # the last conversation message, not the file's mtime


def test_files_that_are_not_sessions_are_not_listed(tmp_path: Path) -> None:
    assert build_session_info(str(write(tmp_path / "b.jsonl", message("m1", "user", "hi", 1)))) is None
    assert build_session_info(str(tmp_path / "missing.jsonl")) is None
    empty_header = write(tmp_path / "c.jsonl", HEADER)
    info = build_session_info(str(empty_header))
    assert info is not None and info.message_count == 0 and info.first_message == "(no messages)"
    assert info.modified_ms == datetime(2025, 1, 1, tzinfo=UTC).timestamp() * 1000  # the header's time


def test_listings_are_newest_first(tmp_path: Path) -> None:
    old = write(tmp_path / "old.jsonl", HEADER, message("m1", "user", "old", 1_000))
    new = write(tmp_path / "new.jsonl", {**HEADER, "id": "s2"}, message("m1", "user", "new", 2_000))
    os.utime(old, (0, 0))
    infos = [build_session_info(str(p)) for p in (old, new)]
    ordered = sort_session_infos([i for i in infos if i is not None])
    assert [i.id for i in ordered] == ["s2", "s1"]
