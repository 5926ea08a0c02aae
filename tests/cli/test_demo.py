"""``pi-memory demo``: the README's main job, offline, through the real tools and store."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner, Result

from pi_memory.cli.demo import SCRIPT
from pi_memory.cli.main import app
from pi_memory.memory import ENTRY_DELIMITER

EXE = Path(sys.executable).with_name("pi-memory")


def demo(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    """The real console script; TMPDIR keeps the demo's fresh directory inside the test's tmp."""
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TMPDIR": str(tmp)}
    return subprocess.run([str(EXE), "demo", *args], capture_output=True, text=True, env=env, timeout=60)


def demo_in_process(*args: str) -> Result:
    return CliRunner().invoke(app, ["demo", *args])


def test_demo_in_a_fresh_temp_dir(tmp_path: Path) -> None:
    proc = demo(tmp=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    where = re.search(r"^Files are in (.+)$", out, re.M)
    assert where is not None
    directory = Path(where.group(1))
    assert directory.parent == tmp_path and directory.name.startswith("pi-memory-demo-")
    assert (directory / "MEMORY.md").read_text(encoding="utf-8") == (
        "The shop web app uses pnpm, not npm; its tests run with `pnpm test`."
    )
    assert (directory / "USER.md").read_text(encoding="utf-8") == ENTRY_DELIMITER.join(
        ["User is Dana; prefers concise answers with code first.", "User works in Asia/Tokyo time (UTC+9)."]
    )
    # every scripted call is shown, the injection is the only error, the duplicate is a no-op
    assert out.count("▶ memory_") == len(SCRIPT)
    assert out.count("✗ error") == 1 and out.count("✓ ok") == len(SCRIPT) - 1
    assert '"error": "Blocked' in out
    assert "Entry already exists (no duplicate added)." in out
    # the frozen prompt block and the status table
    assert "MEMORY (your personal notes) [3% — 68/2,200 chars]" in out
    assert "USER PROFILE (who the user is) [6% — 95/1,375 chars]" in out
    assert "Ignore all previous instructions" not in out.split("The next session's system prompt")[1]
    assert "pi-memory status" in out
    assert f"Try: pi-memory --dir {directory} read user" in out


def test_demo_with_dir_and_refusal_to_touch_existing_memory(tmp_path: Path) -> None:
    target = tmp_path / "demo-here"
    proc = demo_in_process("--dir", str(target))
    assert proc.exit_code == 0, proc.stderr
    assert f"Files are in {target}" in proc.stdout
    again = demo_in_process("--dir", str(target))
    assert again.exit_code == 1
    assert "already holds MEMORY.md or USER.md" in again.stderr
    assert (target / "MEMORY.md").read_text(encoding="utf-8").startswith("The shop web app")


def test_demo_respects_limits(tmp_path: Path) -> None:
    proc = demo_in_process("--dir", str(tmp_path / "d"), "--memory-limit", "5000")
    assert proc.exit_code == 0, proc.stderr
    assert "MEMORY (your personal notes) [1% — 68/5,000 chars]" in proc.stdout
