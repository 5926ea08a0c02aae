"""Where a session is made (:mod:`pi_memory.session.factories`): the working directory, session
directory and file worked out from the arguments of pi's static factories, before any tree exists."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pi_memory.session import factories

HEADER = {"type": "session", "version": 3, "id": "s1", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/from/header"}


def test_create_places_a_new_session_in_the_cwds_folder(tmp_path: Path, _isolated_home: Path) -> None:
    placed = factories.created("/work/proj", None, id="abc", parent_session=None)
    assert placed["session_dir"].endswith(os.path.join("sessions", "--work-proj--"))
    assert (placed["session_file"], placed["persist"], placed["id"]) == (None, True, "abc")
    assert factories.created("/work/proj", str(tmp_path), id=None, parent_session="p")["session_dir"] == str(tmp_path)


def test_open_reads_the_header_once_for_the_cwd_unless_overridden(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(HEADER) + "\n", encoding="utf-8")
    placed = factories.opened(str(path), None, None)
    assert placed["cwd"] == "/from/header" and placed["session_dir"] == str(tmp_path)
    preloaded = placed["preloaded"]
    assert preloaded is not None and preloaded.valid and preloaded.records[0]["id"] == "s1"
    assert factories.opened(str(path), "/elsewhere", "/mine")["cwd"] == "/mine"
    monkeypatch.chdir(tmp_path)
    missing = factories.opened(str(tmp_path / "new.jsonl"), None, None)
    assert missing["cwd"] == str(tmp_path) and missing["preloaded"] is None  # a new session starts there


def test_in_memory_is_never_persisted() -> None:
    placed = factories.in_memory("/p", id=None, parent_session=None, entries=[{"type": "message"}])
    assert (placed["persist"], placed["session_dir"], placed["session_file"]) == (False, "", None)
    assert placed["preloaded_entries"] == [{"type": "message"}]
