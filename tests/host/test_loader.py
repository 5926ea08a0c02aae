"""host/loader.py: one session's extensions in pi's order — SDK and ``-e`` sources, then the
installed, settings-listed and discovered ones, then the trust decision, then the project's own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_memory.host import EventBus, ExtensionRunner, ExtensionSource, HeadlessUI
from pi_memory.host.loader import ExtensionSwitches, decide_project_trust, load_session_extensions, sdk_sources
from pi_memory.host.settings import Settings, load_settings
from pi_memory.host.trust import ProjectTrustStore

pytestmark = pytest.mark.anyio


def write_extension(path: Path, name: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"ORDER = []\n\ndef extension(pi):\n    pi.register_command({name!r}, lambda args, ctx: None)\n",
                    encoding="utf-8")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with a discovered global extension and a discovered project extension."""
    agent = tmp_path / "agent"
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    write_extension(agent / "extensions" / "global_ext.py", "global")
    cwd = tmp_path / "project"
    write_extension(cwd / ".pi" / "extensions" / "project_ext.py", "project")
    return cwd


def test_sdk_sources_keep_their_order() -> None:
    def factory(pi: Any) -> None:
        pass
    sources = sdk_sources(["pkg.mod", ExtensionSource("x.py", "settings:global")], [factory], [object()])
    assert [(s.spec, s.origin) for s in sources] == [("pkg.mod", "cli"), ("x.py", "settings:global"),
                                                     ("<sdk:tools>", "sdk"), ("<inline:0>", "sdk")]
    assert sources[3].factory is factory
    assert sdk_sources([], [], []) == []


@pytest.mark.parametrize("trusted", [True, False])
async def test_project_sources_load_only_once_trusted(project: Path, trusted: bool) -> None:
    runner = ExtensionRunner()
    bound: list[str] = []
    warnings: list[str] = []
    decided: list[tuple[list[str], list[str], bool]] = []

    async def trust(untrusted: Settings) -> bool:
        decided.append(([e.path for e in runner.extensions], list(bound), untrusted.project_trusted))
        return trusted

    settings, result = await load_session_extensions(
        str(project), [], ExtensionSwitches(entry_points=False), runner, EventBus(),
        bind=lambda api: bound.append(api.extension_path), trust=trust, warn=warnings.append)
    global_path = str(project.parent / "agent" / "extensions" / "global_ext.py")
    # The trust decision sees the global extension loaded and bound (its project_trust handler may answer).
    assert decided == [([global_path], [global_path], False)]
    assert result is trusted and settings.project_trusted is trusted
    assert sorted(runner.commands) == (["global", "project"] if trusted else ["global"])
    assert warnings == []


async def test_switches_turn_discovery_off(project: Path) -> None:
    runner = ExtensionRunner()

    async def trust(untrusted: Settings) -> bool:
        return True

    await load_session_extensions(str(project), [], ExtensionSwitches(False, False, False), runner, EventBus(),
                                  bind=lambda api: None, trust=trust, warn=lambda text: None)
    assert runner.extensions == []


async def test_settings_warnings_are_passed_on(project: Path) -> None:
    (project.parent / "agent" / "settings.json").write_text("{ not json", encoding="utf-8")
    warnings: list[str] = []

    async def trust(untrusted: Settings) -> bool:
        return False

    await load_session_extensions(str(project), [], ExtensionSwitches(False, False, False), ExtensionRunner(),
                                  EventBus(), bind=lambda api: None, trust=trust, warn=warnings.append)
    assert warnings == load_settings(str(project), project_trusted=False).warnings != []


async def test_a_project_trust_handler_decides(project: Path, tmp_path: Path) -> None:
    runner = ExtensionRunner()
    extension = runner.add_extension("<test>")
    runner.add_handler(extension, "project_trust", lambda event: {"trusted": True})
    store = ProjectTrustStore(tmp_path / "trust")
    untrusted = load_settings(str(project), project_trusted=False)
    assert await decide_project_trust(str(project), untrusted, runner, HeadlessUI(), store=store, override=None)
    assert not await decide_project_trust(str(project), untrusted, runner, HeadlessUI(), store=store, override=False)
    # Without a handler and without a UI, a project with a .pi/ folder stays untrusted.
    assert not await decide_project_trust(str(project), untrusted, ExtensionRunner(), HeadlessUI(),
                                          store=ProjectTrustStore(tmp_path / "other"), override=None)
