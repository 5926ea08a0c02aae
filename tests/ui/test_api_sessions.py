"""The Sessions page's data over real session files (one written by the agent host itself)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest

from peer_modules import load_test_module
from pi_memory.extensions.memory import SNAPSHOT_TYPE
from pi_memory.session import SessionManager
from pi_memory.ui import api_sessions

fixtures = load_test_module("ui/uidata_fixtures.py")
seeded = fixtures.seeded
seed = fixtures.seed_module


def _digest(root: Path) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*") if p.is_file()}


def test_projects_and_sessions_as_resume_lists_them(seeded: Any) -> None:
    root = str(seeded.sessions_root)
    projects = api_sessions.list_projects(root, seed.PROJECT_CWD)
    assert projects["current"] == "--home-me-shop--"
    assert {p["cwd"]: p["sessions"] for p in projects["projects"]} == {seed.PROJECT_CWD: 2, seed.OTHER_CWD: 1}
    listed = api_sessions.list_sessions(root, "--home-me-shop--")
    ours = {s["id"]: s for s in listed["sessions"]}
    expected = {info.id: info for info in SessionManager.list(seed.PROJECT_CWD)}  # what /resume shows
    assert set(ours) == set(expected)
    main = ours[seeded.main_session]
    assert main["name"] == "Staging move" == expected[seeded.main_session].name
    assert main["messageCount"] == expected[seeded.main_session].message_count
    assert main["firstMessage"] == expected[seeded.main_session].first_message
    assert api_sessions.list_sessions(root, None)["total"] == 3


def test_listing_pages_by_mtime_and_reads_only_the_page(seeded: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from pi_memory.session import listing

    root = seeded.sessions_root
    seed.bulk_sessions(root, 30, 2, projects=1)
    read: list[str] = []
    real = listing.build_session_info

    def counting(path: str) -> Any:
        read.append(path)
        return real(path)

    monkeypatch.setattr(listing, "build_session_info", counting)
    first = api_sessions.list_sessions(str(root), None, offset=0, limit=10)
    second = api_sessions.list_sessions(str(root), None, offset=10, limit=10)
    assert first["total"] == 33 and len(first["sessions"]) == 10 and len(read) == 20
    files = sorted((p for p in root.rglob("*.jsonl")), key=lambda p: (os.stat(p).st_mtime_ns, p.name), reverse=True)
    assert [s["path"] for s in first["sessions"] + second["sessions"]] == [str(p) for p in files[:20]]


def test_unknown_project_or_session_is_not_found(seeded: Any) -> None:
    with pytest.raises(api_sessions.SessionNotFound):
        api_sessions.list_sessions(str(seeded.sessions_root), "../etc")
    with pytest.raises(api_sessions.SessionNotFound):
        api_sessions.find_session_file(str(seeded.sessions_root), "no-such-id")


def test_the_tree_has_branches_labels_summaries_compaction_and_the_snapshot(seeded: Any) -> None:
    before = _digest(seeded.sessions_root)
    path = api_sessions.find_session_file(str(seeded.sessions_root), seeded.main_session)
    assert path == seeded.main_file
    tree = api_sessions.session_tree(path)
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
    context = api_sessions.message_context(path, seeded.branch_entry)
    expected = convert_to_llm(build_session_context(entries, seeded.branch_entry).messages)
    assert [m["role"] for m in context["messages"]] == [m["role"] for m in expected]
    assert context["messages"][-1]["blocks"][0]["text"] == "What about EU latency after the move?"
    assert "summary of a branch" in context["messages"][-2]["blocks"][0]["text"]
    assert "The project deploys with pnpm" in (context["memorySnapshot"] or "")
    # after the compaction, the model sees the summary, then the kept entries
    last = next(e for e in reversed(entries) if e["type"] == "message")
    reply = api_sessions.message_context(path, last["id"])
    assert reply["reply"][0]["text"] == "I will remind you about the backups."
    assert reply["leafId"] == last["parentId"]
    assert "compacted into the following summary" in reply["messages"][0]["blocks"][0]["text"]
    with pytest.raises(api_sessions.SessionNotFound):
        api_sessions.message_context(path, "nope")


def test_an_old_v1_file_is_read_without_being_migrated_on_disk(pi_sessions: Path, tmp_path: Path) -> None:
    root = tmp_path / "sessions" / "--proj--"
    root.mkdir(parents=True)
    source = sorted(pi_sessions.glob("*.jsonl"))[0]
    target = root / source.name
    target.write_bytes(source.read_bytes())
    tree = api_sessions.session_tree(str(target))
    assert tree["entries"] and all(n["id"] for n in tree["entries"])
    assert target.read_bytes() == source.read_bytes()
    assert not Path(str(target) + ".damaged").exists()


def test_http_unknown_ids_are_404(ui_server: Any) -> None:
    box: dict[str, Any] = {}
    server = ui_server(seed=lambda s: box.update(seeded=seed.seed(s.agent_dir, index=False)))
    client = server.client()
    try:
        assert client.get("/api/sessions/no-such-session").status_code == 404
        main = box["seeded"].main_session
        assert client.get(f"/api/sessions/{main}/context/nope").status_code == 404
        assert client.get("/api/sessions", params={"project": ".."}).status_code == 404
        assert client.get("/api/sessions", params={"offset": "x"}).status_code == 400
        page = client.get("/api/sessions", params={"project": "all", "limit": "2"}).json()
        assert page["total"] == 3 and len(page["sessions"]) == 2
    finally:
        client.close()
