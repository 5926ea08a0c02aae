"""The storage keys of the ``pi-memory`` section are parsed one way, whoever opens the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_memory.backends import (
    SettingsError,
    StoreSettings,
    close_store,
    describe_store,
    open_store,
    parse_store_settings,
)
from pi_memory.extensions.memory.settings import open_settings_store, parse_settings


def test_open_store_refuses_what_the_agent_refuses_naming_the_key(tmp_path: Path) -> None:
    for section, key in [({"memoryCharLimit": True}, "pi-memory.memoryCharLimit"),
                         ({"userCharLimit": "lots"}, "pi-memory.userCharLimit"),
                         ({"backend": "postgres", "dsn": "postgresql://a@h/d", "poolSize": 0}, "pi-memory.poolSize"),
                         ({"backend": "postgres", "dsn": "postgresql://a@h/d", "namespace": "n" * 201},
                          "pi-memory.namespace")]:
        with pytest.raises(SettingsError, match=key.replace(".", r"\.")) as lenient:
            open_store({"dataDir": str(tmp_path), **section})
        with pytest.raises(SettingsError) as strict:
            parse_settings({"dataDir": str(tmp_path), **section})
        assert str(lenient.value) == str(strict.value)


def test_open_store_accepts_what_the_agent_accepts(tmp_path: Path) -> None:
    store = open_store({"backend": " File ", "dataDir": str(tmp_path / "m"), "memoryCharLimit": "3000"})
    assert store.dir == tmp_path / "m" and store.memory_char_limit == 3000
    shared = open_store({"backend": "Postgres", "dsn": "postgresql://agent@db.invalid/agents", "namespace": " team ",
                         "poolSize": "2"})
    try:
        assert describe_store(shared) == "PostgreSQL agent@db.invalid:5432/agents, namespace team"
    finally:
        close_store(shared)


def test_explicit_arguments_win_over_the_section(tmp_path: Path) -> None:
    section = {"backend": "postgres", "dsn": "postgresql://agent@db.invalid/agents", "dataDir": str(tmp_path / "x")}
    assert open_store(section, dir=tmp_path / "files").dir == tmp_path / "files"
    forced = open_store({"dataDir": str(tmp_path)}, dsn="postgresql://agent@db.invalid/agents", namespace="ns")
    try:
        assert describe_store(forced) == "PostgreSQL agent@db.invalid:5432/agents, namespace ns"
    finally:
        close_store(forced)


def test_the_extension_settings_are_store_settings_opened_as_they_are(tmp_path: Path) -> None:
    settings = parse_settings({"dataDir": str(tmp_path), "userCharLimit": 900, "extractionInterval": "3"})
    assert isinstance(settings, StoreSettings)
    assert parse_store_settings({"dataDir": str(tmp_path), "userCharLimit": 900}) == StoreSettings(
        data_dir=tmp_path, user_char_limit=900)
    store = open_settings_store(settings)
    assert (store.dir, store.user_char_limit, settings.extraction_interval) == (tmp_path, 900, 3)
