"""Every default location and what chose it, from the environment a user sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_memory.base import paths


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("PI_CODING_AGENT_DIR", "PI_AGENT_HOME", "PI_MEMORY_RECALL_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def test_defaults_live_under_the_home_agent_directory(home: Path) -> None:
    agent = home / ".pi" / "agent"
    assert paths.agent_dir_origin() == (str(agent), "default")
    assert paths.sessions_dir() == str(agent / "sessions")
    assert paths.config_dir_origin() == (agent, "default")
    assert paths.default_memory_dir_origin() == (agent / "memories", "default")
    assert paths.default_recall_url_origin() == (str(agent / "recall.db"), "default")
    assert paths.project_config_dir(home / "proj") == home / "proj" / ".pi"


def test_the_agent_directory_moves_sessions_config_and_recall_but_not_memories(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", "~/elsewhere")
    moved = home / "elsewhere"
    assert paths.agent_dir_origin() == (str(moved), "$PI_CODING_AGENT_DIR")
    assert paths.config_dir_origin() == (moved, "$PI_CODING_AGENT_DIR")
    assert paths.default_recall_url_origin() == (str(moved / "recall.db"), "$PI_CODING_AGENT_DIR")
    # pi-memory's upstream rule: memories follow PI_AGENT_HOME only
    assert paths.default_memory_dir_origin() == (home / ".pi" / "agent" / "memories", "default")


def test_agent_home_moves_memories_and_the_config_layer(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_AGENT_HOME", str(home / "ah"))
    assert paths.default_memory_dir_origin() == (home / "ah" / "memories", "$PI_AGENT_HOME")
    assert paths.config_dir_origin() == (home / "ah", "$PI_AGENT_HOME")
    assert paths.agent_dir_origin()[1] == "default"
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(home / "cad"))
    assert paths.config_dir_origin() == (home / "cad", "$PI_CODING_AGENT_DIR")


def test_the_recall_url_variable_wins(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_MEMORY_RECALL_URL", "postgresql://agent@db/agents")
    assert paths.default_recall_url_origin() == ("postgresql://agent@db/agents", "$PI_MEMORY_RECALL_URL")
    assert paths.default_recall_url() == "postgresql://agent@db/agents"


def test_the_old_names_give_the_same_answers(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pi_memory.host.paths import agent_dir, config_dir_origin
    from pi_memory.memory.files import default_memory_dir_origin
    from pi_memory.recall.open import default_url_origin
    from pi_memory.session.paths import agent_dir_origin, get_agent_dir, get_sessions_dir

    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(home / "cad"))
    monkeypatch.setenv("PI_AGENT_HOME", str(home / "ah"))
    assert agent_dir() == home / "cad" and get_agent_dir() == str(home / "cad")
    assert agent_dir_origin() == "$PI_CODING_AGENT_DIR"
    assert get_sessions_dir() == str(home / "cad" / "sessions")
    assert config_dir_origin() == paths.config_dir_origin()
    assert default_memory_dir_origin() == (home / "ah" / "memories", "$PI_AGENT_HOME")
    assert default_url_origin() == (str(home / "cad" / "recall.db"), "$PI_CODING_AGENT_DIR")
