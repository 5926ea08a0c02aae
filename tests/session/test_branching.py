"""``session/branching.py``: a branch extracted into a session of its own, forks, new headers."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from session_builders import asst, chain, user

from pi_memory.session import EntryNotFoundError, SessionError, SessionManager
from pi_memory.session.branching import new_header, session_file_path


def test_24_25_26_create_branched_session_in_memory() -> None:
    sm = SessionManager.in_memory("/p")
    one, two, three = chain(sm, 3)
    sm.append_label_change(one, "on path")
    sm.append_label_change(three, "off path")
    old_id = sm.get_session_id()
    assert sm.create_branched_session(two) is None
    assert sm.get_session_id() != old_id
    entries = sm.get_entries()
    assert [e["id"] for e in entries[:2]] == [one, two]
    assert [e["type"] for e in entries[2:]] == ["label"]
    assert sm.get_label(one) == "on path" and sm.get_label(three) is None

    sm = SessionManager.in_memory("/p")
    e1, e2, _e3 = chain(sm, 3)
    sm.branch(e2)
    e4 = sm.append_message(user("4"))
    e5 = sm.append_message(asst("5"))
    sm.create_branched_session(e5)
    assert [e["id"] for e in sm.get_entries()] == [e1, e2, e4, e5]
    with pytest.raises(EntryNotFoundError):
        sm.create_branched_session("nonexistent")


def test_24b_labels_in_the_middle_are_rechained() -> None:
    sm = SessionManager.in_memory("/p")
    a = sm.append_message(user())
    label = sm.append_label_change(a, "L")
    b = sm.append_message(asst())
    compaction = sm.append_compaction("s", label, 1)
    sm.create_branched_session(compaction)
    entries = {e["id"]: e for e in sm.get_entries()}
    assert entries[b]["parentId"] == a
    assert entries[compaction]["firstKeptEntryId"] == b  # label id replaced by the next kept entry


def test_27_28_persisted_branched_session(session_dir: str) -> None:
    sm = SessionManager.create("/p", session_dir)
    first = sm.append_message(user())
    second = sm.append_message(asst())
    old = sm.get_session_file()
    new = sm.create_branched_session(second)
    assert new is not None and os.path.exists(new) and new != old
    lines = [json.loads(x) for x in Path(new).read_text().split("\n") if x]
    assert sum(r["type"] == "session" for r in lines) == 1 and lines[0]["parentSession"] == old

    sm = SessionManager.create("/p", session_dir)
    first = sm.append_message(user())
    sm.append_message(asst())
    # no user/assistant message on the path → the new file waits (1.6.0: the user message counts)
    sm.reset_leaf()
    setup = sm.append_thinking_level_change("off")
    new = sm.create_branched_session(setup)
    assert new is not None and not os.path.exists(new)
    sm.append_custom_entry("x")
    sm.append_message(asst())
    lines = [json.loads(x) for x in Path(new).read_text().split("\n") if x]
    assert sum(r["type"] == "session" for r in lines) == 1
    assert len({r["id"] for r in lines}) == len(lines)
    assert first not in {r["id"] for r in lines}


def test_fork_copies_another_projects_session_under_a_new_header(tmp_path: Path) -> None:
    source_dir, target_dir = str(tmp_path / "a"), str(tmp_path / "b")
    source = SessionManager.create("/a", source_dir)
    first = source.append_message(user("q"))
    source.append_message(asst("r"))
    source_file = source.get_session_file() or ""
    before = Path(source_file).read_bytes()
    fork = SessionManager.fork_from(source_file, "/b", target_dir, id="forked-1")
    assert Path(source_file).read_bytes() == before
    lines = Path(fork.get_session_file() or "").read_text().splitlines()
    header = json.loads(lines[0])
    assert list(header) == ["type", "version", "id", "timestamp", "cwd", "parentSession"]
    assert (header["id"], header["cwd"], header["parentSession"]) == ("forked-1", "/b", source_file)
    assert lines[1:] == Path(source_file).read_text().splitlines()[1:]
    assert fork.get_session_dir() == target_dir and fork.get_leaf_entry() == source.get_leaf_entry()
    assert fork.get_entry(first) == source.get_entry(first)
    with pytest.raises(ValueError):
        SessionManager.fork_from(source_file, "/b", target_dir, id="../bad")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(SessionError, match="Cannot fork"):
        SessionManager.fork_from(str(empty), "/b", target_dir)


def test_every_new_session_starts_with_the_same_header_shape(tmp_path: Path) -> None:
    """New, branched and forked sessions: one header layout, named after its timestamp and id."""
    sm = SessionManager.create("/p", str(tmp_path), id="s-1", parent_session="/elsewhere.jsonl")
    header = sm.get_header() or {}
    assert header == new_header("/p", id="s-1", parent_session="/elsewhere.jsonl") | {"timestamp": header["timestamp"]}
    assert sm.get_session_file() == session_file_path(str(tmp_path), header)
    assert os.path.basename(sm.get_session_file() or "").endswith("_s-1.jsonl")
    sm.append_message(user())
    leaf = sm.append_message(asst())
    previous = sm.get_session_file()
    branched = sm.create_branched_session(leaf) or ""
    assert list(sm.get_header() or {}) == ["type", "version", "id", "timestamp", "cwd", "parentSession"]
    assert (sm.get_header() or {})["parentSession"] == previous
    assert branched == session_file_path(str(tmp_path), sm.get_header() or {})
    assert "parentSession" not in new_header("/p")
