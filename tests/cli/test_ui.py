"""``pi-memory ui`` on the command line: what it refuses before anything is served, each with a
message naming what to change (a running server is tested in tests/ui)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


def _ui(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"HOME": str(tmp_path), "PI_AGENT_HOME": str(tmp_path / ".pi" / "agent"), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "pi_memory.cli", "ui", "--no-browser", *args],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)


def test_there_is_no_way_to_bind_another_address(tmp_path: Any) -> None:
    proc = subprocess.run([sys.executable, "-m", "pi_memory.cli", "ui", "--no-browser", "--host", "0.0.0.0"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 2
    assert "No such option" in proc.stderr and "--host" in proc.stderr


@pytest.mark.parametrize("port", ["0", "65536", "http"])
def test_a_port_that_is_no_port_is_refused_by_name(tmp_path: Path, port: str) -> None:
    proc = _ui(tmp_path, "--port", port)
    assert proc.returncode == 2 and "--port" in proc.stderr
    assert "127.0.0.1" not in proc.stdout  # nothing was served


def test_a_memory_dir_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("not a directory", encoding="utf-8")
    proc = _ui(tmp_path, "--dir", "notes")
    assert proc.returncode == 2 and "is a file" in proc.stderr
    assert (tmp_path / "notes").read_text(encoding="utf-8") == "not a directory"


def test_an_unreachable_postgresql_says_what_to_check_and_never_prints_the_password(tmp_path: Path) -> None:
    proc = _ui(tmp_path, "--dsn", f"postgresql://bob:s3cret-pw@/memory?host={tmp_path / 'no-socket'}")
    assert proc.returncode == 1
    assert "unreachable" in proc.stderr and "check that the server is running" in proc.stderr
    assert "s3cret-pw" not in proc.stderr + proc.stdout
    assert "127.0.0.1" not in proc.stdout
