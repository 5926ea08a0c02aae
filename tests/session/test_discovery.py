"""``session/discovery.py`` and ``session/listing.py``: finding sessions and what a picker shows."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from session_builders import asst

from pi_memory.session import SessionManager
from pi_memory.session.discovery import SessionScope, find_most_recent_session, session_scope

HEADER = '{"type":"session","version":3,"id":"s1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}'
MESSAGE = (
    '{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z",'
    '"message":{"role":"user","content":"hi","timestamp":1}}'
)


def test_45_most_recent(tmp_path: Path) -> None:
    assert find_most_recent_session(str(tmp_path / "missing")) is None
    assert find_most_recent_session(str(tmp_path)) is None
    (tmp_path / "notes.txt").write_text(HEADER)
    (tmp_path / "bad.jsonl").write_text(MESSAGE + "\n")
    assert find_most_recent_session(str(tmp_path)) is None
    old, new = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    old.write_text(HEADER + "\n")
    new.write_text(HEADER + "\n")
    now = time.time()
    os.utime(old, (now, now))
    os.utime(new, (now - 100, now - 100))
    assert find_most_recent_session(str(tmp_path)) == str(old)


def test_56_57_listing(tmp_path: Path) -> None:
    directory = str(tmp_path / "sessions")
    sm = SessionManager.create("/p", directory)
    sm.append_message(
        {
            "role": "user",
            "content": [{"type": "text", "text": "first q"}, {"type": "text", "text": "part2"}],
            "timestamp": 1_700_000_000_000,
        }
    )
    last = asst("answer")
    last["timestamp"] = 1_700_000_005_000
    sm.append_message(last)
    sm.append_session_info("Named")
    [info] = SessionManager.list("/p", directory)
    assert info.modified_ms == 1_700_000_005_000
    assert info.first_message == "first q part2" and info.name == "Named" and info.message_count == 2
    assert info.all_messages_text == "first q part2 answer"
    assert info.id == sm.get_session_id() and info.path == sm.get_session_file()


def _named(cwd: str, session_dir: str | None, text: str) -> SessionManager:
    sm = SessionManager.create(cwd, session_dir)
    sm.append_message({"role": "user", "content": text, "timestamp": 1})
    return sm


def test_a_shared_directory_is_scoped_to_the_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A named directory other than the cwd's default holds other projects too: list, find_by_id
    and continue_recent keep only this cwd's sessions there; the default directory is not filtered."""
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    shared = str(tmp_path / "shared")
    mine, theirs = _named("/p", shared, "mine"), _named("/q", shared, "theirs")
    assert session_scope("/p", shared) == SessionScope(shared, "/p")
    assert [s.first_message for s in SessionManager.list("/p", shared)] == ["mine"]
    assert SessionManager.find_by_id("/p", theirs.get_session_id(), shared) is None
    assert SessionManager.find_by_id("/q", theirs.get_session_id(), shared) == theirs.get_session_file()
    assert SessionManager.continue_recent("/q", shared).get_session_file() == theirs.get_session_file()
    assert {s.first_message for s in SessionManager.list_all(shared)} == {"mine", "theirs"}

    default = _named("/p", None, "default").get_session_file() or ""
    scope = session_scope("/p", os.path.dirname(default))
    assert scope.cwd_filter is None and scope.includes("/elsewhere")
    # a foreign header in the cwd's own directory still counts there, as in pi
    os.replace(theirs.get_session_file() or "", os.path.join(scope.directory, "moved.jsonl"))
    assert sorted(s.first_message for s in SessionManager.list("/p")) == ["default", "theirs"]
    assert SessionManager.find_by_id("/p", mine.get_session_id()) is None
    assert sorted(s.first_message for s in SessionManager.list_all()) == ["default", "theirs"]


def test_list_all_reads_every_project_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    assert SessionManager.list_all() == []
    _named("/a", None, "one")
    _named("/b", None, "two")
    (tmp_path / "agent" / "sessions" / "stray.jsonl").write_text(HEADER + "\n")  # not in a project dir
    assert sorted(s.first_message for s in SessionManager.list_all()) == ["one", "two"]
