"""Settings the memory commands cannot use: real ``pi-memory`` subprocesses, real settings files.

Each bad ``pi-memory`` section ends in a message that names what to fix (exit 2 for a setting,
1 for a directory that cannot hold memory), never a traceback, and nothing on disk changes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).with_name("pi-memory")


def run(home: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "PI_AGENT_HOME": str(home / ".pi" / "agent"), "COLUMNS": "200"}
    env.pop("PI_CODING_AGENT_DIR", None)
    env.pop("SSWORD", None)
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, env=env, timeout=60, cwd=cwd,
                          stdin=subprocess.DEVNULL)


def tree(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (None if p.is_dir() else p.read_bytes()) for p in sorted(root.rglob("*"))}


def settings_file(home: Path, content: object) -> Path:
    path = home / ".pi" / "agent" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


BAD_DATA_DIRS = [
    ("{tmp}/a-file", 1, ["a-file is a file, not a directory", "pi-memory.dataDir"]),
    ("{tmp}/a-file/memories", 1, ["cannot be created", "a-file is a file", "pi-memory.dataDir"]),
    ("{tmp}/mem\u0000ories", 2, ["pi-memory.dataDir holds a NUL character"]),
    ("{tmp}/pa$SSWORD-dir", 2, ["pi-memory.dataDir in {settings}", "$SSWORD is not set", "write $$ for a literal $"]),
]


@pytest.mark.parametrize(("data_dir", "code", "words"), BAD_DATA_DIRS)
def test_a_datadir_that_cannot_hold_memory_is_a_message_and_changes_nothing(
        tmp_path: Path, data_dir: str, code: int, words: list[str]) -> None:
    home = tmp_path / "home"
    (tmp_path / "a-file").write_text("not a directory")
    settings = settings_file(home, {"pi-memory": {"dataDir": data_dir.format(tmp=tmp_path)}})
    before = tree(tmp_path)
    for args in (["status"], ["add", "a fact"], ["read"]):
        proc = run(home, *args, cwd=tmp_path)
        assert proc.returncode == code, (args, proc.stdout, proc.stderr)
        assert "Traceback" not in proc.stderr
        for word in words:
            assert word.format(settings=settings) in proc.stderr, (args, proc.stderr)
    assert tree(tmp_path) == before


@pytest.mark.parametrize(("data_dir", "code", "words"), BAD_DATA_DIRS)
def test_mcp_refuses_to_serve_a_datadir_that_cannot_hold_memory(
        tmp_path: Path, data_dir: str, code: int, words: list[str]) -> None:
    home = tmp_path / "home"
    (tmp_path / "a-file").write_text("not a directory")
    settings = settings_file(home, {"pi-memory": {"dataDir": data_dir.format(tmp=tmp_path)}})
    before = tree(tmp_path)
    proc = run(home, "mcp", cwd=tmp_path)  # stdin is not a client: the server must stop before serving
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    for word in words:
        assert word.format(settings=settings) in proc.stderr, proc.stderr
    assert tree(tmp_path) == before


def test_dollar_dollar_is_a_literal_dollar_in_datadir(tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings_file(home, {"pi-memory": {"dataDir": str(tmp_path / "pa$$SSWORD-dir")}})
    proc = run(home, "add", "a fact", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "pa$SSWORD-dir" / "MEMORY.md").read_text() == "a fact"


def test_deeply_nested_settings_are_a_warning_and_change_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings = settings_file(home, "[" * 100_000 + "]" * 100_000)
    before = tree(tmp_path)
    proc = run(home, "status", cwd=tmp_path)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert f"Warning: {settings} nests objects or lists too deeply" in proc.stderr
    assert tree(tmp_path) == before


@pytest.mark.parametrize("section", ["/tmp/somewhere", ["dataDir", "/tmp/somewhere"]])
def test_a_section_that_is_not_an_object_is_named_in_a_warning(tmp_path: Path, section: object) -> None:
    home = tmp_path / "home"
    settings = settings_file(home, {"pi-memory": section})
    proc = run(home, "status", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f'Warning: {settings}: "pi-memory" must be an object' in proc.stderr
    assert json.loads(proc.stdout)["dir"] == str(home / ".pi" / "agent" / "memories")


def test_a_relative_datadir_is_relative_to_the_settings_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings_file(home, {"pi-memory": {"dataDir": "notes"}})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = run(home, "add", "a fact", cwd=elsewhere)
    assert proc.returncode == 0, proc.stderr
    assert (home / ".pi" / "agent" / "notes" / "MEMORY.md").read_text() == "a fact"
    assert list(elsewhere.iterdir()) == []
