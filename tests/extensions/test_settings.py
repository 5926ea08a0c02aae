"""The ``pi-memory`` settings section as the extension reads it (reference §6.2, §8 #85): layers,
trust, interpolation, injected config winning, coercion of strings and clear refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from memext_helpers import start

from pi_memory.extensions.memory import ModelRef, SettingsError, parse_settings
from pi_memory.host.settings import interpolate
from pi_memory.memory import default_memory_dir

pytestmark = pytest.mark.anyio


def write(path: Path, section: dict[str, Any], **extra: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"pi-memory": section, **extra}))


def test_defaults() -> None:
    s = parse_settings({})
    assert (s.data_dir, s.memory_char_limit, s.user_char_limit) == (default_memory_dir(), 2200, 1375)
    assert s.extraction_model is None and s.extraction_interval == 5
    assert s.dreaming.enabled and s.dreaming.min_hours_since_last_run == 24 and s.dreaming.min_turns_since_last_run == 5
    assert s.dreaming.model == ModelRef("openai", "gpt-4.1-mini")
    assert s.uses_default_dir


def test_coercion_and_aliases(tmp_path: Path) -> None:
    s = parse_settings({"dataDir": f"  {tmp_path}  ", "memoryCharLimit": "4000", "userCharLimit": 2000.0,
                        "extractionModel": "scripted/x", "extractionInterval": "3",
                        "dreaming": {"enabled": "false", "minHoursSinceLastRun": "1.5", "minSessionsSinceLastRun": "2",
                                     "model": {"provider": "anthropic", "model": "claude-haiku-4-5"}}})
    assert s.data_dir == tmp_path and not s.uses_default_dir
    assert (s.memory_char_limit, s.user_char_limit, s.extraction_interval) == (4000, 2000, 3)
    assert s.extraction_model == ModelRef("scripted", "x")
    assert s.dreaming.enabled is False and s.dreaming.min_hours_since_last_run == 1.5
    assert s.dreaming.min_turns_since_last_run == 2  # the deprecated alias
    assert parse_settings({"dreaming": {"minTurnsSinceLastRun": 7, "minSessionsSinceLastRun": 2}}
                          ).dreaming.min_turns_since_last_run == 7
    assert parse_settings({"dataDir": "   "}).data_dir == default_memory_dir()


@pytest.mark.parametrize(("section", "words"), [
    ({"memoryCharLimit": "lots"}, ["pi-memory.memoryCharLimit", "'lots'", "e.g. 2200"]),
    ({"userCharLimit": 0}, ["pi-memory.userCharLimit", "at least 1"]),
    ({"userCharLimit": True}, ["pi-memory.userCharLimit", "not true"]),
    ({"extractionInterval": 2.5}, ["pi-memory.extractionInterval", "2.5"]),
    ({"extractionModel": "gpt-4.1"}, ["pi-memory.extractionModel", "provider"]),
    ({"dreaming": {"enabled": "maybe"}}, ["pi-memory.dreaming.enabled", "true or false"]),
    ({"dreaming": {"minHoursSinceLastRun": -1}}, ["pi-memory.dreaming.minHoursSinceLastRun", "0 or more"]),
    ({"dreaming": {"minSessionsSinceLastRun": "x"}}, ["pi-memory.dreaming.minSessionsSinceLastRun"]),
    ({"dreaming": {"model": {"provider": "openai"}}}, ["pi-memory.dreaming.model"]),
    ({"dreaming": "yes"}, ["pi-memory.dreaming", "object"]),
    ({"dataDir": 42}, ["pi-memory.dataDir"]),
])
def test_junk_is_refused_with_the_key_and_an_example(section: dict[str, Any], words: list[str]) -> None:
    with pytest.raises(SettingsError) as info:
        parse_settings(section)
    for word in words:
        assert word in str(info.value)


def test_85_interpolation() -> None:
    env = {"HOME_DIR": "/h", "EMPTY": "", "A": "1", "B": "2"}
    assert interpolate("${HOME_DIR}/mem", env) == "/h/mem"
    assert interpolate("$HOME_DIR/mem", env) == "/h/mem"
    assert interpolate("${MISSING:-/fallback}", env) == "/fallback"
    assert interpolate("${EMPTY:-}", env) == "" and interpolate("${MISSING:-}", env) == ""
    assert interpolate("${EMPTY:-x}", env) == "x"
    assert interpolate({"a": ["${A}", {"b": "$B"}], "n": 5, "t": True}, env) == {"a": ["1", {"b": "2"}], "n": 5,
                                                                                  "t": True}
    assert interpolate("${A}-${B}", env) == "1-2"
    assert interpolate("${MISSING:-a:-b}", env) == "a:-b"


async def test_85_layers_trust_and_injected_config(tmp_path: Path, _isolated_home: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEM_LIMIT", "3000")
    global_file = _isolated_home / ".pi" / "agent" / "settings.json"
    write(global_file, {"memoryCharLimit": "${MEM_LIMIT}", "userCharLimit": 1500,
                        "dreaming": {"enabled": False, "minHoursSinceLastRun": 3}})
    config_dir = tmp_path / "config-dir"
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(config_dir))
    write(config_dir / "settings.json", {"userCharLimit": 1600})
    project = tmp_path / "project"
    write(project / ".pi" / "settings.json", {"memoryCharLimit": "${MEM_LIMIT}", "dreaming": {"enabled": False}})

    h = await start(project, {"dataDir": str(tmp_path / "mem")}, trust=False)
    s = h.ext.settings
    assert s is not None and (s.memory_char_limit, s.user_char_limit) == (3000, 1600)  # config layer wins per key
    assert s.dreaming.min_hours_since_last_run == 3 and s.data_dir == tmp_path / "mem"
    await h.close()

    trusted = await start(project, {"dataDir": str(tmp_path / "mem")}, trust=True)
    assert trusted.ui.statuses["pi-memory"] == "memory: unavailable"  # "${MEM_LIMIT}" is not expanded there
    assert any("'${MEM_LIMIT}'" in text for text, _ in trusted.ui.notifications)
    await trusted.close()

    write(project / ".pi" / "settings.json", {"memoryCharLimit": 5000, "dreaming": {"enabled": False}})
    trusted = await start(project, {"dataDir": str(tmp_path / "mem"), "userCharLimit": "999"}, trust=True)
    s = trusted.ext.settings
    assert s is not None and (s.memory_char_limit, s.user_char_limit) == (5000, 999)
    assert s.dreaming.min_hours_since_last_run == 24  # the project's dreaming object replaced the whole object
    assert trusted.ext.store is not None and trusted.ext.store.user_char_limit == 999
    await trusted.close()


async def test_85_config_layer_skipped_when_it_is_the_global_dir(tmp_path: Path, _isolated_home: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    agent = _isolated_home / ".pi" / "agent"
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    write(agent / "settings.json", {"userCharLimit": 1700, "dreaming": {"enabled": False}})
    h = await start(tmp_path, {"dataDir": str(tmp_path / "mem")})
    assert h.ext.settings is not None and h.ext.settings.user_char_limit == 1700
    await h.close()


def test_backend_settings_are_checked_and_the_dsn_falls_back_to_the_environment(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PI_MEMORY_DSN", raising=False)
    files = parse_settings({"namespace": "ignored for files"})
    assert (files.backend, files.shared, files.dsn) == ("file", False, None)
    shared = parse_settings({"backend": " Postgres ", "dsn": "postgresql://agent@db/agents", "namespace": " team ",
                             "poolSize": "2", "statementTimeoutMs": 0, "dataDir": str(tmp_path)})
    assert (shared.backend, shared.shared, shared.namespace, shared.pool_size, shared.statement_timeout_ms) == (
        "postgres", True, "team", 2, 0)
    assert shared.uses_default_dir is False  # a team namespace reads only the current session directory
    assert parse_settings({"backend": "postgres", "dsn": "x=y"}).uses_default_dir is True  # the default namespace
    state = shared.dream_state_file("db:5432/agents#team")
    assert state.parent == tmp_path and state.name.startswith("dreaming-state.pg-") and state.suffix == ".json"
    assert state != shared.dream_state_file("db:5432/agents#other")
    for section, words in [({"backend": "postgres"}, ["pi-memory.dsn", "$PI_MEMORY_DSN"]),
                           ({"backend": "postgres", "dsn": "   "}, ["pi-memory.dsn"]),
                           ({"backend": "postgres", "dsn": 5}, ["pi-memory.dsn", "connection string"]),
                           ({"backend": "postgres", "dsn": "x=y", "poolSize": 0}, ["pi-memory.poolSize", "at least 1"]),
                           ({"backend": "postgres", "dsn": "x=y", "namespace": "n" * 201}, ["pi-memory.namespace"]),
                           ({"backend": ["file"]}, ["pi-memory.backend", '"file" or "postgres"'])]:
        with pytest.raises(SettingsError) as refused:
            parse_settings(section)
        assert all(word in str(refused.value) for word in words), str(refused.value)
    monkeypatch.setenv("PI_MEMORY_DSN", "postgresql://agent@env/agents")
    assert parse_settings({"backend": "postgres"}).dsn == "postgresql://agent@env/agents"
    assert parse_settings({"backend": "postgres", "dsn": "postgresql://agent@file/agents"}).dsn.endswith("@file/agents")
