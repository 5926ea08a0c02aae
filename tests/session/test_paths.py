"""Where pi 1.6.0 puts a project's sessions (:mod:`pi_memory.session.paths`): the ``--<cwd>--``
folder under the agent dir, the file name made from the header's timestamp, and pi's
``resolvePath`` (so both sides name the same folder for the same project)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pi_memory.session.paths import (
    encode_cwd,
    get_default_session_dir,
    get_default_session_dir_path,
    resolve_path,
    session_dir_from_env,
    session_file_name,
)


def test_a_cwd_becomes_one_folder_name_as_pi_encodes_it() -> None:
    assert encode_cwd("/home/me/proj") == "--home-me-proj--"
    assert encode_cwd("C:\\Users\\me") == "--C--Users-me--"
    assert encode_cwd("relative/dir") == "--relative-dir--"


def test_the_file_name_is_the_header_timestamp_made_safe_and_the_id() -> None:
    assert session_file_name("2025-12-09T00:52:54.397Z", "0193a1b2") == "2025-12-09T00-52-54-397Z_0193a1b2.jsonl"


def test_resolve_path_normalises_and_anchors_like_node(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert resolve_path("a/../b/./c") == os.path.join(str(tmp_path), "b", "c")
    assert resolve_path("x", "/base") == "/base/x"
    assert resolve_path("//srv//data/") == "/srv/data"


def test_the_default_session_dir_is_under_the_agent_dir_and_made_on_request(tmp_path: Path) -> None:
    agent = tmp_path / "agent"
    expected = agent / "sessions" / "--work-proj--"
    assert get_default_session_dir_path("/work/proj", str(agent)) == str(expected)
    assert not expected.exists()
    assert get_default_session_dir("/work/proj", str(agent)) == str(expected) and expected.is_dir()


def test_only_the_cli_reads_the_session_dir_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    assert session_dir_from_env() is None
    monkeypatch.setenv("PI_CODING_AGENT_SESSION_DIR", "/tmp/elsewhere")
    assert session_dir_from_env() == "/tmp/elsewhere"
