"""The ``pi-memory`` settings section as the extension reads it (reference §6.2, §8 #85): layers,
trust, interpolation, injected config winning, coercion of strings and clear refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from memext_helpers import NO_DREAMS, start

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


def test_interpolation_is_pis_template_rule_not_upstream_pi_memorys() -> None:
    """pi-memory's ``${VAR:-default}`` and "unset gives empty" are gone: pi's own rule (the one for
    ``apiKey`` in models.json) has ``$$`` as its escape and leaves a value naming an unset variable
    unresolved, so a ``$`` in a password or a path is never eaten."""
    env = {"HOME_DIR": "/h", "EMPTY": "", "A": "1", "B": "2"}
    assert interpolate("${HOME_DIR}/mem", env) == "/h/mem"
    assert interpolate("$HOME_DIR/mem", env) == "/h/mem"
    assert interpolate("${MISSING:-/fallback}", env) == "${MISSING:-/fallback}"
    assert interpolate("${EMPTY}", env) is None and interpolate("$MISSING", env) is None
    assert interpolate({"a": ["${A}", {"b": "$B"}], "n": 5, "t": True}, env) == {"a": ["1", {"b": "2"}], "n": 5,
                                                                                  "t": True}
    assert interpolate("${A}-${B}", env) == "1-2"
    assert interpolate("postgresql://u:pa$$Xw@h/db", env) == "postgresql://u:pa$Xw@h/db"


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


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` with its bytes (``None`` for a directory): what "nothing changed" means."""
    return {str(p.relative_to(root)): (None if p.is_dir() else p.read_bytes()) for p in sorted(root.rglob("*"))}


@pytest.mark.parametrize(("data_dir", "words"), [
    ("{tmp}/a-file", ["is a file, not a directory", "pi-memory.dataDir"]),
    ("{tmp}/a-file/memories", ["cannot be created", "a-file is a file", "pi-memory.dataDir"]),
    ("{tmp}/mem\u0000ories", ["pi-memory.dataDir", "NUL"]),
    ("{tmp}/pa$SSWORD-dir", ["pi-memory.dataDir", "$SSWORD is not set", "write $$ for a literal $"]),
])
async def test_the_host_says_what_to_fix_in_datadir_and_changes_nothing(
        tmp_path: Path, _isolated_home: Path, monkeypatch: pytest.MonkeyPatch, data_dir: str, words: list[str]) -> None:
    """The agent keeps running without memory; the error names the setting; no directory appears."""
    monkeypatch.delenv("SSWORD", raising=False)
    (tmp_path / "a-file").write_text("not a directory")
    settings = _isolated_home / ".pi" / "agent" / "settings.json"
    write(settings, {"dataDir": data_dir.format(tmp=tmp_path), "dreaming": {"enabled": False}})
    before, home_before = _tree(tmp_path), _tree(_isolated_home)
    h = await start(tmp_path / "work")
    assert h.ui.statuses["pi-memory"] == "memory: unavailable"
    errors = [text for text, kind in h.ui.notifications if kind == "error"]
    assert len(errors) == 1 and all(word in errors[0] for word in words), errors
    assert await h.prompt("still there?")  # the host answers without memory
    await h.close()
    after = {k: v for k, v in _tree(tmp_path).items() if not k.startswith("work")}
    assert after == before and _tree(_isolated_home) == home_before
    assert not (tmp_path / "pa-dir").exists()


async def test_the_host_warns_about_a_section_that_is_not_an_object_and_about_deep_json(
        tmp_path: Path, _isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = _isolated_home / ".pi" / "agent" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"pi-memory": ["dataDir", str(tmp_path / "elsewhere")]}))
    h = await start(tmp_path, {"dataDir": str(tmp_path / "mem"), **NO_DREAMS})
    assert [kind for text, kind in h.ui.notifications
            if text.startswith(f'pi-memory: {settings}: "pi-memory" must be an object') and "a list" in text
            ] == ["warning"]
    assert h.ui.statuses["pi-memory"] == "memory: empty"
    await h.close()
    settings.write_text("[" * 100_000 + "]" * 100_000)
    h = await start(tmp_path, {"dataDir": str(tmp_path / "mem"), **NO_DREAMS})
    assert any(str(settings) in text and "too deeply" in text for text, kind in h.ui.notifications if kind == "warning")
    assert await h.prompt("hello")
    await h.close()


async def test_a_relative_datadir_is_relative_to_its_settings_file_not_the_cwd(
        tmp_path: Path, _isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    agent = _isolated_home / ".pi" / "agent"
    write(agent / "settings.json", {"dataDir": "team-notes", "dreaming": {"enabled": False}})
    monkeypatch.chdir(tmp_path)
    h = await start(tmp_path / "work")
    assert h.ext.store is not None and h.ext.store.dir == agent / "team-notes"
    await h.close()
