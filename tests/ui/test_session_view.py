"""One session as the Sessions page shows it: the tree and a message's context, read from real
session files (one written by the agent host itself) and never written back."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from peer_modules import load_test_module
from pi_memory.extensions.memory import SNAPSHOT_TYPE
from pi_memory.ui import api_sessions, session_view

fixtures = load_test_module("ui/uidata_fixtures.py")
seeded = fixtures.seeded


def _digest(root: Path) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*") if p.is_file()}


def test_the_tree_has_branches_labels_summaries_compaction_and_the_snapshot(seeded: Any) -> None:
    before = _digest(seeded.sessions_root)
    path = api_sessions.find_session_file(str(seeded.sessions_root), seeded.main_session)
    assert path == seeded.main_file
    tree = session_view.session_tree(path)
    nodes = {n["id"]: n for n in tree["entries"]}
    assert tree["name"] == "Staging move" and tree["branchPoints"] == 1
    snapshot = [n for n in tree["entries"] if n.get("customType") == SNAPSHOT_TYPE]
    assert snapshot and snapshot[0]["snapshot"] is True and "The project deploys with pnpm" in snapshot[0]["text"]
    assert nodes[seeded.labelled_entry]["label"] == "decision"
    fork = nodes[seeded.entries["follow"]]
    assert fork["children"] == 2
    after_fork = [n for n in tree["entries"] if n["parentId"] == fork["id"]]
    assert {n["type"] for n in after_fork} == {"message", "branch_summary"}
    assert all(n["depth"] == fork["depth"] + 1 and n.get("branchStart") for n in after_fork)
    abandoned = next(n for n in after_fork if n["type"] == "message")
    assert abandoned["onLeafPath"] is False and nodes[tree["leafId"]]["onLeafPath"] is True
    compaction = next(n for n in tree["entries"] if n["type"] == "compaction")
    assert compaction["firstKeptEntryId"] == seeded.entries["kept"] and compaction["tokensBefore"] == 4200
    assert [n["id"] for n in tree["entries"]].index(seeded.needle_entry) < [n["id"] for n in tree["entries"]].index(
        seeded.branch_entry)
    assert _digest(seeded.sessions_root) == before  # nothing written, no sidecar


def test_context_is_what_pi_builds_from_that_entry(seeded: Any) -> None:
    from pi_memory.session import build_session_context, convert_to_llm, load_records

    path = seeded.main_file
    entries = load_records(path).records[1:]
    context = session_view.message_context(path, seeded.branch_entry)
    expected = convert_to_llm(build_session_context(entries, seeded.branch_entry).messages)
    assert [m["role"] for m in context["messages"]] == [m["role"] for m in expected]
    assert context["messages"][-1]["blocks"][0]["text"] == "What about EU latency after the move?"
    assert "summary of a branch" in context["messages"][-2]["blocks"][0]["text"]
    assert "The project deploys with pnpm" in (context["memorySnapshot"] or "")
    # after the compaction, the model sees the summary, then the kept entries
    last = next(e for e in reversed(entries) if e["type"] == "message")
    reply = session_view.message_context(path, last["id"])
    assert reply["reply"][0]["text"] == "I will remind you about the backups."
    assert reply["leafId"] == last["parentId"]
    assert "compacted into the following summary" in reply["messages"][0]["blocks"][0]["text"]
    with pytest.raises(session_view.SessionNotFound):
        session_view.message_context(path, "nope")


def test_an_old_v1_file_is_read_without_being_migrated_on_disk(pi_sessions: Path, tmp_path: Path) -> None:
    root = tmp_path / "sessions" / "--proj--"
    root.mkdir(parents=True)
    source = sorted(pi_sessions.glob("*.jsonl"))[0]
    target = root / source.name
    target.write_bytes(source.read_bytes())
    tree = session_view.session_tree(str(target))
    assert tree["entries"] and all(n["id"] for n in tree["entries"])
    assert target.read_bytes() == source.read_bytes()
    assert not Path(str(target) + ".damaged").exists()
