"""Where an adapter's memory comes from (:mod:`pi_memory.integrations.sources`): a store as given,
a directory, or the user's own settings — never a project's, which a cloned repository controls."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_memory.integrations.sources import open_memory, user_section
from pi_memory.memory import MemoryStore


def test_a_store_is_used_as_given_and_a_directory_opens_one_there(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "given")
    assert open_memory(store) is store
    opened = open_memory(tmp_path / "dir")
    assert opened.dir == tmp_path / "dir"
    assert opened.add("memory", "Deploys on Fridays")["success"] is True
    assert (tmp_path / "dir" / "MEMORY.md").read_text(encoding="utf-8") == "Deploys on Fridays"


def test_the_default_is_the_users_settings_never_the_projects(tmp_path: Path, _isolated_home: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    agent = _isolated_home / ".pi" / "agent"
    agent.mkdir(parents=True, exist_ok=True)
    (agent / "settings.json").write_text(json.dumps({"pi-memory": {"dataDir": str(tmp_path / "mine"),
                                                                   "memoryCharLimit": 3000}}))
    project = tmp_path / "cloned"
    (project / ".pi").mkdir(parents=True)
    (project / ".pi" / "settings.json").write_text(json.dumps({"pi-memory": {"dataDir": str(tmp_path / "theirs")},
                                                               "defaultProjectTrust": "always"}))
    monkeypatch.chdir(project)
    assert user_section("pi-memory")["dataDir"] == str(tmp_path / "mine")
    store = open_memory()
    assert store.dir == tmp_path / "mine" and store.char_limit("memory") == 3000
