"""Switching installed extensions off: ``-entry:<name>`` in the settings list, ``--no-extensions``
(only ``-e`` sources load, as in pi) and ``-e entry:<name>`` to bring one back explicitly.

These use the package's real entry points (memory, recall, decay) in an isolated agent dir.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pi_memory.extensions.memory.lifecycle import SNAPSHOT_TYPE
from pi_memory.host import HeadlessUI, SessionRuntime
from pi_memory.host.loader import disabled_sources, entry_point_sources
from pi_memory.host.settings import load_settings
from pi_memory.providers import ScriptedProvider, scripted_model
from pi_memory.session import SessionManager

PI_MEMORY = str(Path(sys.executable).parent / "pi-memory")
MEMORY_TOOLS = {"memory_add", "memory_replace", "memory_remove", "memory_read"}


@pytest.fixture()
def agent_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    agent = tmp_path / "agent"
    agent.mkdir()
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return agent


async def _tools(cwd: Path, **kwargs: Any) -> set[str]:
    rt = await SessionRuntime.create(cwd=str(cwd), session_manager=SessionManager.in_memory(str(cwd)),
                                     model=scripted_model(), provider=ScriptedProvider([]), ui=HeadlessUI(),
                                     trust=False, **kwargs)
    try:
        return set(rt.runner.tools)
    finally:
        await rt.shutdown()


def test_entry_points_are_named_and_disabled_by_entry_prefix(agent_dir: Path, tmp_path: Path) -> None:
    names = {s.spec for s in entry_point_sources()}
    assert {"pi_memory.extensions.memory:memory_extension", "pi_memory.extensions.recall:recall_extension"} <= names
    kept = {s.spec for s in entry_point_sources({"entry:recall", "recall", "./recall.py"})}
    assert "pi_memory.extensions.recall:recall_extension" not in kept
    assert "pi_memory.extensions.memory:memory_extension" in kept  # bare names and paths never match
    (agent_dir / "settings.json").write_text(json.dumps({"extensions": ["-entry:recall", "-other.py", "x.py"]}))
    settings = load_settings(tmp_path, project_trusted=False)
    assert disabled_sources(settings, ["config", "global"]) == {"entry:recall", "other.py"}


@pytest.mark.anyio
async def test_settings_switch_off_one_installed_extension(agent_dir: Path, tmp_path: Path) -> None:
    everything = await _tools(tmp_path)
    assert MEMORY_TOOLS | {"search_memory", "get_important_memories"} <= everything
    (agent_dir / "settings.json").write_text(json.dumps({"extensions": ["-entry:recall"]}))
    tools = await _tools(tmp_path)
    assert "search_memory" not in tools and MEMORY_TOOLS | {"get_important_memories"} <= tools


@pytest.mark.anyio
async def test_no_extensions_keeps_only_explicit_sources(agent_dir: Path, tmp_path: Path) -> None:
    (agent_dir / "extensions").mkdir()
    (agent_dir / "extensions" / "auto.py").write_text(
        "def extension(pi):\n    pi.register_command('auto', handler=lambda a, c: None)\n")
    off = {"use_entry_points": False, "discover": False, "settings_extensions": False}
    assert await _tools(tmp_path, **off) == set()
    assert await _tools(tmp_path, extensions=["entry:memory"], **off) == MEMORY_TOOLS


@pytest.mark.anyio
async def test_unknown_entry_name_is_reported_with_the_installed_ones(agent_dir: Path, tmp_path: Path) -> None:
    rt = await SessionRuntime.create(cwd=str(tmp_path), session_manager=SessionManager.in_memory(str(tmp_path)),
                                     model=scripted_model(), provider=ScriptedProvider([]), ui=HeadlessUI(),
                                     trust=False, use_entry_points=False, extensions=["entry:nope"])
    try:
        (error,) = [e.error for e in rt.runner.errors]
    finally:
        await rt.shutdown()
    assert "No installed extension named 'nope'" in error and "memory" in error and "recall" in error


def test_chat_no_extensions_flag(agent_dir: Path, tmp_path: Path) -> None:
    """``pi-memory chat -ne`` in print mode: neither the memory extension (its snapshot entry in the
    session) nor recall (its index file) runs, unless brought back with ``-e entry:<name>``."""
    env = dict(os.environ, PI_CODING_AGENT_DIR=str(agent_dir), HOME=str(tmp_path / "home"))

    def chat(name: str, *args: str) -> tuple[bool, bool]:
        cwd = tmp_path / name
        cwd.mkdir()
        proc = subprocess.run([PI_MEMORY, "chat", "-p", "hello", "--model", "scripted/echo", *args],
                              cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
        assert (proc.returncode, proc.stdout) == (0, "You said: hello\n"), proc.stderr
        (session,) = [p for p in (agent_dir / "sessions").rglob("*.jsonl") if name in str(p.parent)]
        types = {json.loads(line).get("customType") for line in session.read_text().splitlines()}
        recall = agent_dir / "recall.db"
        indexed = recall.exists()
        if indexed:
            recall.unlink()
        return SNAPSHOT_TYPE in types, indexed

    assert chat("all") == (True, True)
    assert chat("bare", "-ne") == (False, False)
    assert chat("explicit", "--no-extensions", "-e", "entry:memory") == (True, False)
