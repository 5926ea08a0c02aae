"""``pi-memory recall`` end to end in a subprocess (offline, default index under the agent dir)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def _cli(*args: str, agent_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PI_CODING_AGENT_DIR": str(agent_dir)}
    env.pop("PI_MEMORY_RECALL_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "pi_memory.cli", "recall", *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_index_search_status_reindex(tmp_path: Path, pi_sessions: Path) -> None:
    agent = tmp_path / "agent"
    sessions = pi_sessions
    first = _cli("index", "--sessions", str(sessions), "--json", agent_dir=agent)
    assert first.returncode == 0, first.stderr
    indexed = json.loads(first.stdout)
    assert indexed["indexed"] == indexed["count"] > 1000 and (agent / "recall.db").exists()
    again = json.loads(_cli("index", "--sessions", str(sessions), "--json", agent_dir=agent).stdout)
    assert again["indexed"] == 0 and again["files_skipped"] == 2

    found = _cli("search", "session manager", "--json", "--top-k", "3", agent_dir=agent)
    hits = json.loads(found.stdout)["hits"]
    assert len(hits) == 3 and all({"id", "text", "similarity", "score", "threats"} <= set(h) for h in hits)
    human = _cli("search", "session manager", agent_dir=agent)
    assert human.returncode == 0 and "(similarity: " in human.stdout

    status = json.loads(_cli("status", "--json", agent_dir=agent).stdout)
    assert status["backend"] == "sqlite" and status["count"] == indexed["count"]
    assert status["embedder"] == "minilm-static-256"

    redo = _cli("reindex", "--json", agent_dir=agent)
    assert redo.returncode == 0 and json.loads(redo.stdout)["reindexed"] == indexed["count"]


def test_missing_sessions_dir_is_a_clear_error(tmp_path: Path) -> None:
    result = _cli("index", "--sessions", str(tmp_path / "nope"), agent_dir=tmp_path / "agent")
    assert result.returncode == 1 and "no session files" in result.stderr
