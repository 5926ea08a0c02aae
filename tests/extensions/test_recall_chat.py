"""End to end: ``pi-memory chat -p --model scripted/echo`` as a subprocess, with the recall and decay
extensions found through their installed entry points. A small ``-e`` extension swaps the scripted
provider's echo for a script that calls ``search_memory`` and then ``get_important_memories``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pi_memory.recall import open_index
from pi_memory.session import SessionManager

PI_MEMORY = str(Path(sys.executable).parent / "pi-memory")

SCRIPT = '''
from pi_memory.providers import ScriptedProvider


def extension(pi, config=None):
    def install(event, ctx):
        ctx.model_registry.set_provider("scripted", ScriptedProvider([
            {"tool_calls": [{"name": "search_memory", "arguments": {"query": "staging database region", "topK": 2}}]},
            {"tool_calls": [{"name": "get_important_memories", "arguments": {"threshold": 0.5}}]},
            "The staging database is in Frankfurt.",
        ]))
    pi.on("session_start", install)
'''


def test_chat_calls_search_memory_and_get_important_memories(tmp_path: Path, _isolated_home: Path) -> None:
    agent = _isolated_home / ".pi" / "agent"
    agent.mkdir(parents=True, exist_ok=True)
    index = open_index(str(agent / "recall.db"))  # the default location: <agentDir>/recall.db
    try:
        index.add([{"id": "earlier:1", "text": "We moved the staging database to the Frankfurt region.",
                    "role": "user", "timestamp": "2025-03-02T10:00:00.000Z", "session_id": "earlier"},
                   {"id": "earlier:2", "text": "My daughter starts violin lessons on Tuesday.",
                    "role": "user", "timestamp": "2025-03-05T18:00:00.000Z", "session_id": "earlier"}])
    finally:
        index.close()
    ext = tmp_path / "script.py"
    ext.write_text(SCRIPT)
    session = tmp_path / "run.jsonl"
    env = {**os.environ, "PI_CODING_AGENT_DIR": str(agent)}
    proc = subprocess.run([PI_MEMORY, "chat", "-p", "Where is the staging database?", "--model", "scripted/echo",
                           "-e", str(ext), "--session", str(session)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "The staging database is in Frankfurt.\n"
    results = [e["message"] for e in SessionManager.open(str(session)).get_entries()
               if e["type"] == "message" and e["message"]["role"] == "toolResult"]
    assert [r["toolName"] for r in results] == ["search_memory", "get_important_memories"]
    search, important = results
    assert search["content"][0]["text"].startswith("[earlier:1] (similarity: ")
    assert search["details"]["results"][0]["id"] == "earlier:1" and not search["isError"]
    assert not important["isError"] and important["details"]["threshold"] == 0.5

    index = open_index(str(agent / "recall.db"))
    try:
        stats = {s.id: s.access_count for s in index.access_stats(["earlier:1"])}
        assert stats == {"earlier:1": 1}  # the search was recorded
        sid = json.loads(session.read_text().splitlines()[0])["id"]
        assert {h.session_id for h in index.search("where is the staging database", top_k=10)} >= {sid}
    finally:
        index.close()
