"""``pi-memory mcp`` on the command line: what it refuses before anything is served (a bad store
choice, an exposed or weakly guarded HTTP bind), each exit 2 with what to change. A running server
is tested in tests/mcp."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SERVER_CMD = [sys.executable, "-m", "pi_memory.cli", "mcp"]


def server_env(home: Path) -> dict[str, str]:
    """An isolated HOME / agent dir, nothing from the real user (as tests/mcp starts the server)."""
    return {"HOME": str(home), "PI_AGENT_HOME": str(home / ".pi" / "agent"), "PATH": os.environ.get("PATH", ""),
            "PYTHONPATH": os.environ.get("PYTHONPATH", "")}


def test_bad_settings_exit_2_with_the_key_to_fix(tmp_path: Path) -> None:
    agent = tmp_path / ".pi" / "agent"
    agent.mkdir(parents=True)
    (agent / "settings.json").write_text(json.dumps({"pi-memory": {"backend": "postgres"}}), encoding="utf-8")
    proc = subprocess.run([*SERVER_CMD], input="", capture_output=True, text=True, timeout=60,
                          env=server_env(tmp_path))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "pi-memory.dsn" in proc.stderr
    both = subprocess.run([*SERVER_CMD, "--dir", str(tmp_path), "--dsn", "postgresql://x@h/db"], input="",
                          capture_output=True, text=True, timeout=60, env=server_env(tmp_path))
    assert both.returncode == 2 and "not both" in both.stderr


def test_a_non_loopback_bind_without_a_token_is_refused(tmp_path: Path) -> None:
    proc = subprocess.run([*SERVER_CMD, "--dir", str(tmp_path), "--http", "0.0.0.0:0"], capture_output=True,
                          text=True, timeout=60, env=server_env(tmp_path), stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert "refusing to serve memory on 0.0.0.0" in proc.stderr and "PI_MEMORY_MCP_TOKEN" in proc.stderr
    assert "listening" not in proc.stderr and proc.stdout == ""


def test_a_short_token_is_refused_with_how_to_make_one(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("short\n", encoding="utf-8")
    proc = subprocess.run([*SERVER_CMD, "--dir", str(tmp_path), "--http", ":0", "--token-file", str(token_file)],
                          capture_output=True, text=True, timeout=60, env=server_env(tmp_path),
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and "secrets.token_urlsafe" in proc.stderr
