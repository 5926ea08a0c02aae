"""``UiConfig``: the UI opens the store the agent's settings choose, once, and closes what the
pages opened when the server stops."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_memory.base.settings import SettingsError
from pi_memory.ui.config import UI_LOCK_TIMEOUT, UiConfig


def _settings(home: Path, section: dict[str, object]) -> None:
    path = home / ".pi" / "agent" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"pi-memory": section}), encoding="utf-8")


def test_the_store_is_the_one_the_settings_choose(_isolated_home: Path, tmp_path: Path) -> None:
    _settings(_isolated_home, {"dataDir": str(tmp_path / "chosen"), "memoryCharLimit": 500})
    config = UiConfig.resolve(tmp_path)
    store = config.store()
    assert store.dir == tmp_path / "chosen"
    assert store.memory_char_limit == 500 and store.lock_timeout == UI_LOCK_TIMEOUT
    assert config.store() is store  # opened once, shared by every request
    assert config.section("pi-memory")["memoryCharLimit"] == 500
    assert config.memory.dreaming.enabled is True and config.recall.enabled is True


def test_the_command_line_wins_over_the_settings(_isolated_home: Path, tmp_path: Path) -> None:
    _settings(_isolated_home, {"dataDir": str(tmp_path / "chosen")})
    config = UiConfig.resolve(tmp_path, dir=tmp_path / "given", user_limit=99)
    assert config.store().dir == tmp_path / "given" and config.store().user_char_limit == 99


def test_a_bad_setting_names_the_key(_isolated_home: Path, tmp_path: Path) -> None:
    _settings(_isolated_home, {"memoryCharLimit": "lots"})
    with pytest.raises(SettingsError, match="memoryCharLimit"):
        UiConfig.resolve(tmp_path)


def test_close_runs_every_cleanup_last_first_even_when_one_fails(tmp_path: Path) -> None:
    config = UiConfig.resolve(tmp_path, dir=tmp_path / "mem")
    ran: list[str] = []
    config.on_close(lambda: ran.append("first"))

    def broken() -> None:
        ran.append("broken")
        raise RuntimeError("boom")

    config.on_close(broken)
    config.on_close(lambda: ran.append("last"))
    store = config.store()
    config.close()
    assert ran == ["last", "broken", "first"]
    assert config.store() is not store  # the store was released; a new one opens on demand
    config.close()
    assert ran == ["last", "broken", "first"]  # each cleanup runs once
