"""Reference §7 "Loading and migration" (44–55), §6 fixtures, and "Listing" (56–57)."""

from __future__ import annotations

import collections
import json
import shutil
from pathlib import Path

import pytest

from pi_memory.session import SessionError, SessionManager, jsjson, load_records

HEADER = '{"type":"session","version":3,"id":"s1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}'
MESSAGE = (
    '{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z",'
    '"message":{"role":"user","content":"hi","timestamp":1}}'
)


@pytest.mark.parametrize("content", [None, "", MESSAGE + "\n", "not json\n"])
def test_44_files_that_are_not_sessions(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "s.jsonl"
    if content is not None:
        path.write_text(content)
    assert not load_records(str(path)).valid


def test_44b_valid_and_malformed_middle(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(HEADER + "\n" + MESSAGE + "\n")
    assert len(load_records(str(path)).records) == 2
    path.write_text(HEADER + "\n{broken\n" + MESSAGE + "\n")
    loaded = load_records(str(path))
    assert len(loaded.records) == 2 and [d.line for d in loaded.damaged] == [2]


def test_46_48_empty_file_recovery(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text("")
    sm = SessionManager.open(str(path))
    lines = path.read_text().split("\n")
    assert len(lines) == 2 and json.loads(lines[0])["id"] == sm.get_session_id()
    assert sm.get_session_file() == str(path)
    assert SessionManager.open(str(path)).get_session_id() == sm.get_session_id()


def test_47_a_file_that_is_not_a_session_is_refused_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(MESSAGE + "\n")
    with pytest.raises(SessionError, match="not a valid pi session"):
        SessionManager.open(str(path))
    assert path.read_text() == MESSAGE + "\n"  # pi 1.6.0 refuses too (older pi truncated it)


def test_49_duplicate_headers_are_tolerated(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    second = MESSAGE.replace("aaaaaaaa", "bbbbbbbb").replace('"parentId":null', '"parentId":"aaaaaaaa"')
    path.write_text("\n".join([HEADER, MESSAGE, HEADER, second, ""]))
    sm = SessionManager.open(str(path))
    assert [e["id"] for e in sm.get_entries()] == ["aaaaaaaa", "bbbbbbbb"]
    assert sm.get_leaf_id() == "bbbbbbbb"


def _copy_fixture(fixtures: Path, name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copyfile(fixtures / name, target)
    return target


@pytest.mark.parametrize("name", ["v1-large-session.jsonl", "v1-before-compaction.jsonl"])
def test_10_fixtures_reserialize_byte_for_byte(name: str, pi_sessions: Path) -> None:
    data = (pi_sessions / name).read_bytes()
    loaded = load_records(str(pi_sessions / name))
    assert loaded.damaged == []
    assert "".join(jsjson.dumps(r) + "\n" for r in loaded.records).encode("utf-8") == data


def test_53_54_large_session(tmp_path: Path, pi_sessions: Path) -> None:
    path = _copy_fixture(pi_sessions, "v1-large-session.jsonl", tmp_path)
    sm = SessionManager.open(str(path))
    lines = path.read_text(encoding="utf-8").split("\n")
    assert len(lines) - 1 == 1019 and lines[0].endswith('"version":3}')
    entries = sm.get_entries()
    assert len(entries) == 1018
    assert all(e["parentId"] == (entries[i - 1]["id"] if i else None) for i, e in enumerate(entries))
    assert all(list(e)[-2:] == ["id", "parentId"] for e in entries)
    ctx = sm.build_session_context()
    assert collections.Counter(m["role"] for m in ctx.messages) == {"user": 88, "assistant": 453, "toolResult": 373}
    assert ctx.thinking_level == "off"
    assert ctx.model == {"provider": "anthropic", "modelId": "claude-sonnet-4-5"}
    # the migrated file reads back identically and re-serializes to its own bytes
    again = SessionManager.open(str(path))
    assert [e["id"] for e in again.get_entries()] == [e["id"] for e in entries]
    assert "".join(jsjson.dumps(r) + "\n" for r in [again.get_header(), *again.get_entries()]) == path.read_text(
        encoding="utf-8"
    )


def test_55_before_compaction(tmp_path: Path, pi_sessions: Path) -> None:
    path = _copy_fixture(pi_sessions, "v1-before-compaction.jsonl", tmp_path)
    sm = SessionManager.open(str(path))
    assert len(path.read_text(encoding="utf-8").split("\n")) - 1 == 1003
    entries = sm.get_entries()
    compactions = [e for e in entries if e["type"] == "compaction"]
    assert [list(c) for c in compactions] == [
        ["type", "timestamp", "summary", "tokensBefore", "id", "parentId", "firstKeptEntryId"]
    ] * 2
    by_id = {e["id"]: i for i, e in enumerate(entries)}
    # firstKeptEntryIndex counted the header as line 0: file lines 294 and 552 (1-based)
    assert [by_id[c["firstKeptEntryId"]] + 2 for c in compactions] == [294, 552]
    ctx = sm.build_session_context()
    assert len(ctx.messages) == 446 and ctx.messages[0]["role"] == "compactionSummary"
    assert collections.Counter(m["role"] for m in ctx.messages[1:]) == {
        "user": 31,
        "assistant": 219,
        "toolResult": 192,
        "bashExecution": 3,
    }
    assert ctx.model == {"provider": "anthropic", "modelId": "claude-opus-4-5"} and ctx.thinking_level == "off"
