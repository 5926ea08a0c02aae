"""Backfill over real session files: pi's own v1 fixtures and sessions written by pi 1.6.0."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from peer_modules import load_test_module
from pi_memory.recall import SQLiteIndex
from pi_memory.recall.backfill import backfill, records_from_entries
from pi_memory.session import SessionManager


def _index(tmp_path: Path) -> SQLiteIndex:
    return SQLiteIndex(tmp_path / "recall.db")


def test_backfill_pi_fixtures_is_incremental(tmp_path: Path, pi_sessions: Path) -> None:
    sessions = tmp_path / "sessions"
    shutil.copytree(pi_sessions, sessions)
    state = tmp_path / "state.json"
    with _index(tmp_path) as index:
        first = backfill(index, sessions, state)
        assert first.files == 2 and first.records == index.count() > 1000
        roles = {s.id.split(":")[0] for s in index.access_stats()}
        assert len(roles) == 2  # one session id per file
        by_role = {h.role for h in index.search("read the file", top_k=25)}
        assert by_role <= {"user", "assistant", "toolResult", "custom"} and "toolResult" in by_role | {"toolResult"}
        again = backfill(index, sessions, state)
        assert (again.files, again.files_skipped, again.indexed) == (0, 2, 0)

        # pi appends to a file: only the new line is read
        target = sorted(sessions.glob("*.jsonl"))[0]
        line = {
            "type": "message",
            "timestamp": "2025-12-10T00:00:00.000Z",
            "message": {"role": "user", "content": "remember the blue heron in the garden", "timestamp": 0},
        }
        with target.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(line) + "\n")
        third = backfill(index, sessions, state)
        assert (third.files, third.records, third.indexed) == (1, 1, 1)
        # neighbour smoothing may lift the turn before it (a huge tool dump) alongside, so top 3
        hit = next(h for h in index.search("blue heron garden", top_k=3) if "heron" in h.text)
        assert hit.text == "remember the blue heron in the garden" and hit.role == "user"
        assert hit.timestamp == "2025-12-10T00:00:00.000Z"


def test_records_from_entries_cover_every_indexed_kind() -> None:
    entries: list[dict[str, Any]] = [
        {
            "type": "message",
            "id": "e1",
            "timestamp": "2025-01-01T00:00:00.000Z",
            "message": {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image", "data": "x"}]},
        },
        {
            "type": "message",
            "id": "e2",
            "timestamp": "2025-01-01T00:00:01.000Z",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "secret"},
                    {"type": "text", "text": "hello"},
                    {"type": "toolCall", "name": "read", "arguments": {}},
                ],
            },
        },
        {
            "type": "message",
            "id": "e3",
            "timestamp": "2025-01-01T00:00:02.000Z",
            "message": {"role": "toolResult", "toolName": "read", "content": [{"type": "text", "text": "file body"}]},
        },
        {
            "type": "custom_message",
            "id": "e4",
            "timestamp": "2025-01-01T00:00:03.000Z",
            "customType": "note",
            "content": "a custom note",
            "display": True,
        },
        {
            "type": "message",
            "id": "e5",
            "timestamp": "2025-01-01T00:00:04.000Z",
            "message": {"role": "assistant", "content": [{"type": "toolCall", "name": "ls", "arguments": {}}]},
        },
        {"type": "model_change", "id": "e6", "timestamp": "2025-01-01T00:00:05.000Z"},
        # results that only echo memory are left out: the curated store and earlier recall hits
        *({"type": "message", "id": f"echo-{name}", "timestamp": "2025-01-01T00:00:06.000Z",
           "message": {"role": "toolResult", "toolName": name, "content": [{"type": "text", "text": "{...}"}]}}
          for name in ("memory_add", "memory_replace", "memory_remove", "memory_read", "search_memory",
                       "get_important_memories")),
    ]
    records = records_from_entries(entries, "sess")
    assert [(r["id"], r["role"], r["text"]) for r in records] == [
        ("sess:e1", "user", "hi\n[image]"),
        ("sess:e2", "assistant", "hello"),
        ("sess:e3", "toolResult", "file body"),
        ("sess:e4", "custom", "a custom note"),
    ]
    assert records[2]["metadata"]["toolName"] == "read" and records[3]["metadata"]["customType"] == "note"
    assert records[0]["metadata"]["entry_id"] == "e1"


def test_backfill_our_own_sessions(tmp_path: Path) -> None:
    sm = SessionManager.create(str(tmp_path / "proj"), str(tmp_path / "sessions"))
    sm.append_message({"role": "user", "content": "the cat is called Miso", "timestamp": 1_733_234_400_000})
    sm.append_message(
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "Noted: Miso."}],
            "api": "x",
            "provider": "x",
            "model": "x",
            "usage": {},
            "stopReason": "stop",
            "timestamp": 1_733_234_401_000,
        }
    )
    with _index(tmp_path) as index:
        result = backfill(index, tmp_path / "sessions", tmp_path / "state.json")
        assert result.records == 2
        hit = index.search("what is the cat called?", top_k=1)[0]
        assert hit.text == "the cat is called Miso" and hit.session_id == sm.get_session_id()


def _node_peer() -> Any:
    return load_test_module("interop/conftest.py").find_node_peer()


@pytest.mark.interop
def test_backfill_sessions_written_by_pi(tmp_path: Path) -> None:
    peer = _node_peer()
    made = peer.run_json("pi_session.mjs", "scenario", str(tmp_path / "sessions"), str(tmp_path / "proj"))
    files = [Path(f) for f in made["files"]]
    assert files
    with _index(tmp_path) as index:
        result = backfill(index, tmp_path / "sessions", tmp_path / "state.json")
        assert result.files == len(files) and result.records == index.count() > 0
        stored = {s.id for s in index.access_stats()}
        expected = set()
        for path in files:
            lines = [json.loads(x) for x in path.read_text(encoding="utf-8").split("\n") if x.strip()]
            session_id = lines[0]["id"]
            expected |= {r["id"] for r in records_from_entries(lines[1:], session_id)}
        assert stored == expected
        roles = {h.role for h in index.get(sorted(stored))}
        assert {"user", "assistant"} <= roles
