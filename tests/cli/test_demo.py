"""``pi-memory demo``: the README's main job, offline, through the real host and extensions."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from pi_memory.session import SessionManager

EXE = Path(sys.executable).parent / "pi-memory"


def demo(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    """The real console script; TMPDIR keeps the demo's fresh directory inside the test's tmp."""
    env = {**os.environ, "TMPDIR": str(tmp), "COLUMNS": "200"}
    return subprocess.run([str(EXE), "demo", *args], capture_output=True, text=True, env=env, timeout=180)


def test_demo_runs_every_step_in_a_fresh_temp_home(tmp_path: Path) -> None:
    proc = demo(tmp=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    # 1. the scripted model is labelled as such, and the memory tools run through the host
    assert "scripted model, not a real LLM" in out
    assert out.count("▶ memory_add(") == 5
    assert "Entry added. (memory: 3% — 80/2,200 chars)" in out
    # the planted instruction is blocked by the scanner and never reaches memory
    assert "Blocked: content matches threat pattern 'prompt_injection'" in out
    # 2. the next session's frozen prompt carries both blocks
    assert "MEMORY (your personal notes) [3% — 80/2,200 chars]" in out
    assert "USER PROFILE (who the user is)" in out and "User works in Asia/Tokyo time (UTC+9)." in out
    # recall finds the past conversation with scores; decay weights are shown
    # the two recall tools run concurrently, so their results are labelled; the user's own words
    # come first (memory-tool results, which only echo the store, are not indexed)
    assert re.search(r"▶ search_memory\(.*\n\s+▶ get_important_memories\(.*\n\s+✓ search_memory: \[[^\]]+\] "
                     r"\(similarity: 0\.\d\d\) user · .*\n\s+Hi, I'm Dana\.", out)
    assert re.search(r"\n\s+✓ get_important_memories: \[[^\]]+\] \(weight: ", out)
    assert re.search(r"\(weight: [01]\.\d\d, recalled \d+×\)", out)
    # /memory status, the tree view, and the two lines to go live
    assert "MEMORY.md: 2 entries (3% — 80/2,200 chars)" in out and "USER.md: 2 entries" in out
    assert "custom pi-memory:system-prompt-snapshot" in out
    assert "pi-memory chat --model" in out and "pi-memory mcp" in out
    # everything lives in the fresh temp home, nothing in the real one
    (home,) = [p for p in tmp_path.iterdir() if p.name.startswith("pi-memory-demo-")]
    memories = home / ".pi" / "agent" / "memories"
    assert (memories / "MEMORY.md").read_text() == (
        "The shop app uses pnpm, not npm.\n§\nShop staging deploys from the release branch."
    )
    assert "Ignore all previous" not in (memories / "MEMORY.md").read_text()
    assert (home / ".pi" / "agent" / "recall.db").exists()
    sessions = sorted((home / ".pi" / "agent" / "sessions").rglob("*.jsonl"))
    assert len(sessions) == 2
    first = SessionManager.open(str(sessions[0]))
    roles = [m["role"] for m in first.build_session_context().messages]
    assert roles.count("user") == 3 and roles.count("toolResult") == 5


def test_demo_refuses_a_non_empty_dir(tmp_path: Path) -> None:
    target = tmp_path / "busy"
    target.mkdir()
    (target / "keep.txt").write_text("mine")
    proc = demo("--dir", str(target), tmp=tmp_path)
    assert proc.returncode == 1
    assert "is not empty" in proc.stderr
    assert sorted(p.name for p in target.iterdir()) == ["keep.txt"]
