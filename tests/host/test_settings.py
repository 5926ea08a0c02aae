"""Settings layering, trust gating, interpolation and malformed files (issue 4; pi-memory §8 #85)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from pi_memory.host.settings import deep_merge, interpolate, load_settings
from pi_memory.host.trust import (
    ProjectTrustStore,
    TrustAnswer,
    TrustStoreError,
    has_trust_requiring_resources,
    resolve_project_trusted,
)


def put(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def home(_isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("PI_AGENT_HOME", raising=False)
    return _isolated_home


ENV = {"NAME": "alice", "EMPTY": "", "DIR": "/data"}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("${NAME}", "alice"),
        ("$NAME", "alice"),
        ("${MISSING:-fallback}", "fallback"),
        ("${EMPTY:-fallback}", "fallback"),
        ("${EMPTY:-}", ""),
        ("${MISSING}", ""),
        ("${DIR}/memories for $NAME", "/data/memories for alice"),
        ("${MISSING:-a:-b}", "a:-b"),
        ("$lowercase stays", "$lowercase stays"),
        ("price $5", "price $5"),
    ],
)
def test_interpolation_forms(raw: str, expected: str) -> None:
    assert interpolate(raw, ENV) == expected


def test_interpolation_walks_nested_values_and_leaves_non_strings() -> None:
    value = {"a": ["$NAME", {"b": "${DIR}"}], "n": 3, "t": True, "z": None}
    assert interpolate(value, ENV) == {"a": ["alice", {"b": "/data"}], "n": 3, "t": True, "z": None}


def test_config_layer_overrides_global_per_key(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    put(home / ".pi/agent/settings.json", {"pi-memory": {"dataDir": "/g", "memoryCharLimit": 100}})
    put(tmp_path / "cfg/settings.json", {"pi-memory": {"dataDir": "/c"}})
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "cfg"))
    s = load_settings(tmp_path / "proj", project_trusted=False)
    assert s.section("pi-memory") == {"dataDir": "/c", "memoryCharLimit": 100}
    assert [layer.scope for layer in s.layers] == ["global", "config"]


def test_config_layer_skipped_when_it_is_global(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    put(home / ".pi/agent/settings.json", {"x": 1})
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(home / ".pi/agent"))
    assert [layer.scope for layer in load_settings(tmp_path, project_trusted=False).layers] == ["global"]


def test_pi_agent_home_is_the_config_layer_without_coding_agent_dir(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    put(tmp_path / "ah/settings.json", {"pi-memory": {"userCharLimit": 7}})
    monkeypatch.setenv("PI_AGENT_HOME", str(tmp_path / "ah"))
    assert load_settings(tmp_path, project_trusted=False).section("pi-memory") == {"userCharLimit": 7}


def test_project_layer_only_when_trusted_and_never_interpolated(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET", "s3cr3t")
    put(home / ".pi/agent/settings.json", {"pi-memory": {"dataDir": "${SECRET}", "memoryCharLimit": 1}})
    project = tmp_path / "proj"
    put(project / ".pi/settings.json", {"pi-memory": {"memoryCharLimit": "$SECRET"}, "defaultModel": "m"})
    untrusted = load_settings(project, project_trusted=False)
    assert untrusted.section("pi-memory") == {"dataDir": "s3cr3t", "memoryCharLimit": 1}
    assert untrusted.get("defaultModel") is None
    trusted = load_settings(project, project_trusted=True)
    assert trusted.section("pi-memory") == {"dataDir": "s3cr3t", "memoryCharLimit": "$SECRET"}
    assert trusted.get("defaultModel") == "m"


def test_section_merge_is_shallow_but_full_settings_merge_deeply(home: Path, tmp_path: Path) -> None:
    put(home / ".pi/agent/settings.json",
        {"pi-memory": {"dreaming": {"enabled": False, "minHoursSinceLastRun": 2}}, "compaction": {"a": 1, "b": 2}})
    put(tmp_path / ".pi/settings.json",
        {"pi-memory": {"dreaming": {"enabled": True}}, "compaction": {"b": 3}})
    s = load_settings(tmp_path, project_trusted=True)
    assert s.section("pi-memory") == {"dreaming": {"enabled": True}}
    assert s.get("compaction") == {"a": 1, "b": 3}


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '"text"', "\xff"])
def test_malformed_files_warn_and_are_ignored(home: Path, tmp_path: Path, content: str) -> None:
    path = home / ".pi/agent/settings.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(content.encode("latin-1") if content == "\xff" else content.encode())
    put(tmp_path / ".pi/settings.json", {"pi-memory": {"dataDir": "/p"}})
    s = load_settings(tmp_path, project_trusted=True)
    assert s.section("pi-memory") == {"dataDir": "/p"}
    (warning,) = s.warnings
    assert str(path) in warning and "ignored" in warning


def test_bom_and_pi_migrations(home: Path, tmp_path: Path) -> None:
    put(home / ".pi/agent/settings.json", "\ufeff" + json.dumps({"queueMode": "all", "websockets": True}))
    s = load_settings(tmp_path, project_trusted=False)
    assert s.warnings == []
    assert s.get("steeringMode") == "all" and s.get("transport") == "websocket"


def test_deep_merge_replaces_lists_and_scalars() -> None:
    assert deep_merge({"a": {"x": 1, "l": [1]}, "s": 1}, {"a": {"l": [2]}, "s": None}) == {
        "a": {"x": 1, "l": [2]}, "s": None}


# ------------------------------------------------------------------------------------------ trust


def test_trust_store_nearest_ancestor_and_clearing(tmp_path: Path) -> None:
    store = ProjectTrustStore(tmp_path / "agent")
    project = tmp_path / "src" / "proj"
    project.mkdir(parents=True)
    assert store.get(project) is None
    store.set(tmp_path / "src", True)
    assert store.get(project) is True
    store.set(project, False)
    assert store.get(project) is False
    store.set(project, None)
    assert store.get(project) is True
    data = json.loads((tmp_path / "agent" / "trust.json").read_text())
    assert data == {str((tmp_path / "src").resolve()): True}


def test_corrupt_trust_store_is_an_error_not_trust(tmp_path: Path) -> None:
    put(tmp_path / "agent" / "trust.json", {"/x": "yes"})
    with pytest.raises(TrustStoreError, match="true/false/null"):
        ProjectTrustStore(tmp_path / "agent").get("/x")


def test_trust_resolution_order(tmp_path: Path) -> None:
    store = ProjectTrustStore(tmp_path / "agent")
    plain = tmp_path / "plain"
    plain.mkdir()
    project = tmp_path / "proj"
    put(project / ".pi" / "settings.json", {})
    assert has_trust_requiring_resources(project) and not has_trust_requiring_resources(plain)

    def run(**kw: object) -> bool:
        return asyncio.run(resolve_project_trusted(project, store=store, **kw))  # type: ignore[arg-type]

    assert asyncio.run(resolve_project_trusted(plain, store=store)) is True
    assert run() is False  # headless and undecided: not trusted
    assert run(default="always") is True
    assert run(override=True) is True

    async def hook(cwd: str) -> TrustAnswer:
        assert cwd == str(project.resolve())
        return TrustAnswer(trusted=True, remember=True)

    assert run(extension_hook=hook) is True
    assert store.get(project) is True
    assert run(override=False) is False

    async def no(cwd: str) -> TrustAnswer:
        return TrustAnswer(trusted=False, remember=True)

    store.set(project, None)
    assert run(ask_user=no) is False and store.get(project) is False
