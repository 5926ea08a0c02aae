"""The Sessions page's data over real session files (one written by the agent host itself)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest

from peer_modules import load_test_module
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
