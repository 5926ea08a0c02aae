"""Settings layering, trust gating, interpolation (pi's template rule) and malformed files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_memory.base.settings import SettingsError
from pi_memory.host.settings import load_settings
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


def test_only_extension_sections_expand_and_unset_variables_are_errors_naming_file_and_key(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pi expands nothing in settings.json, so its own keys stay as written; a section value naming
    an unset variable is left out and reported, never silently changed (``pa$SSWORD-dir`` → ``pa-dir``)."""
    monkeypatch.setenv("MEMDIR", "/m")
    monkeypatch.delenv("SSWORD", raising=False)
    path = put(home / ".pi/agent/settings.json", {
        "shellCommandPrefix": "export A=$MEMDIR", "pi-memory": {"dataDir": "pa$SSWORD-dir", "userCharLimit": "$$5"},
        "pi-memory-recall": {"url": "$MEMDIR/recall.db"}})
    s = load_settings(tmp_path, project_trusted=False)
    assert s.get("shellCommandPrefix") == "export A=$MEMDIR"
    assert s.section("pi-memory") == {"userCharLimit": "$5"}
    assert s.section("pi-memory-recall") == {"url": "/m/recall.db"}
    (error,) = s.section_errors("pi-memory")
    assert error.startswith(f"pi-memory.dataDir in {path}: $SSWORD is not set") and "write $$" in error
    assert s.warnings == [] and s.section_warnings("pi-memory") == [] and s.section_errors("pi-memory-recall") == []


@pytest.mark.parametrize(("value", "kind"), [("/tmp/mem", "a string ('/tmp/mem')"), (["dataDir"], "a list"),
                                              (3, "a number (3)"), (True, "true")])
def test_a_section_that_is_not_an_object_is_ignored_with_a_warning_naming_file_and_key(
    home: Path, tmp_path: Path, value: object, kind: str
) -> None:
    path = put(home / ".pi/agent/settings.json", {"pi-memory": value})
    project = put(tmp_path / ".pi/settings.json", {"pi-memory": {"userCharLimit": 7}})
    s = load_settings(tmp_path, project_trusted=True)
    assert s.section("pi-memory") == {"userCharLimit": 7}
    (warning,) = s.section_warnings("pi-memory")
    assert warning.startswith(f'{path}: "pi-memory" must be an object') and kind in warning and "ignored" in warning
    assert str(project) not in warning and s.section_warnings("other") == []


def test_checked_section_warns_of_what_is_ignored_and_refuses_unset_variables(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one way every reader treats a section: warnings passed on naming the file, errors refused."""
    monkeypatch.delenv("SSWORD", raising=False)
    path = put(home / ".pi/agent/settings.json", {"pi-memory": "/tmp/mem", "pi-memory-recall": {"url": "a$SSWORD"}})
    put(tmp_path / ".pi/settings.json", {"pi-memory": {"userCharLimit": 7}})
    s = load_settings(tmp_path, project_trusted=True)
    warned: list[str] = []
    assert s.checked_section("pi-memory", warned.append) == {"userCharLimit": 7}
    (warning,) = warned
    assert warning.startswith(f'{path}: "pi-memory" must be an object')
    with pytest.raises(SettingsError, match=r"pi-memory-recall\.url in .*\$SSWORD is not set"):
        s.checked_section("pi-memory-recall", warned.append)


def test_relative_paths_in_a_section_resolve_against_the_settings_file_directory(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    put(home / ".pi/agent/settings.json", {"pi-memory": {"dataDir": "mem"}, "pi-memory-recall": {"url": "r.db"}})
    project = tmp_path / "proj"
    monkeypatch.chdir(tmp_path)  # never the current directory
    s = load_settings(project, project_trusted=True)
    assert s.section("pi-memory") == {"dataDir": str(home / ".pi/agent/mem")}
    assert s.section("pi-memory-recall") == {"url": str(home / ".pi/agent/r.db")}
    put(project / ".pi/settings.json", {"pi-memory": {"dataDir": "../notes"},
                                         "pi-memory-recall": {"url": "postgresql://h/db"}})
    s = load_settings(project, project_trusted=True)
    assert s.section("pi-memory") == {"dataDir": str(project / ".pi/../notes")}
    assert s.section("pi-memory-recall") == {"url": "postgresql://h/db"}
    for kept in ("/abs/mem", "~/mem", "", 42):
        put(project / ".pi/settings.json", {"pi-memory": {"dataDir": kept}})
        assert load_settings(project, project_trusted=True).section("pi-memory") == {"dataDir": kept}


@pytest.mark.parametrize("depth", [2_000, 100_000])
def test_deeply_nested_settings_and_trust_store_are_messages_not_crashes(
    home: Path, tmp_path: Path, depth: int
) -> None:
    deep = "[" * depth + "]" * depth
    path = put(home / ".pi/agent/settings.json", '{"pi-memory": ' + deep + "}")
    s = load_settings(tmp_path, project_trusted=False)
    (warning,) = s.warnings
    assert str(path) in warning and "too deeply" in warning and "ignored" in warning
    trust = put(home / ".pi/agent/trust.json", deep)
    with pytest.raises(TrustStoreError, match="too deeply"):
        ProjectTrustStore(trust.parent).get(tmp_path)
    assert path.read_text() == '{"pi-memory": ' + deep + "}" and trust.read_text() == deep


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
    assert untrusted.section("pi-memory") == {"dataDir": str(home / ".pi/agent/s3cr3t"), "memoryCharLimit": 1}
    assert untrusted.get("defaultModel") is None
    trusted = load_settings(project, project_trusted=True)
    assert trusted.section("pi-memory") == {"dataDir": str(home / ".pi/agent/s3cr3t"), "memoryCharLimit": "$SECRET"}
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


@pytest.mark.anyio
async def test_trust_resolution_order(tmp_path: Path) -> None:
    store = ProjectTrustStore(tmp_path / "agent")
    plain = tmp_path / "plain"
    plain.mkdir()
    project = tmp_path / "proj"
    put(project / ".pi" / "settings.json", {})
    assert has_trust_requiring_resources(project) and not has_trust_requiring_resources(plain)

    async def run(**kw: object) -> bool:
        return await resolve_project_trusted(project, store=store, **kw)  # type: ignore[arg-type]

    assert await resolve_project_trusted(plain, store=store) is True
    assert await run() is False  # headless and undecided: not trusted
    assert await run(default="always") is True
    assert await run(override=True) is True

    async def hook(cwd: str) -> TrustAnswer:
        assert cwd == str(project.resolve())
        return TrustAnswer(trusted=True, remember=True)

    assert await run(extension_hook=hook) is True
    assert store.get(project) is True
    assert await run(override=False) is False

    async def no(cwd: str) -> TrustAnswer:
        return TrustAnswer(trusted=False, remember=True)

    store.set(project, None)
    assert await run(ask_user=no) is False and store.get(project) is False
