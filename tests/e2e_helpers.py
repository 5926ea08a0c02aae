"""What the end-to-end tests of the ``pi-memory`` command share (tests/cli, tests/extensions): an
agent's settings naming the loopback LLM server, its replies in OpenAI's wire format, the command
as a real subprocess, and memory and session files as the host writes them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

import loopback
from pi_memory.session import SessionManager

PI_MEMORY = str(Path(sys.executable).parent / "pi-memory")
chunk = loopback.chunk


def agent_env(tmp_path: Path, home: Path, server: Any) -> dict[str, Any]:
    """An agent whose settings (in ``home``) name the loopback ``server`` as provider ``loop`` and
    ``tmp_path/mem`` as the memory directory, dreaming off; the paths and environment a run uses."""
    mem = tmp_path / "mem"
    settings = {
        "providers": {"loop": {"api": "openai-completions", "baseUrl": server.url + "/v1", "apiKey": "sk-test",
                               "models": [{"id": "gpt-loop", "contextWindow": 100000}]}},
        "compaction": {"keepRecentTokens": 1},
        "pi-memory": {"dataDir": str(mem), "dreaming": {"enabled": False}},
    }
    agent = home / ".pi" / "agent"
    agent.mkdir(parents=True, exist_ok=True)
    (agent / "settings.json").write_text(json.dumps(settings))
    project = tmp_path / "project"
    project.mkdir()
    environ = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return {"mem": mem, "cwd": project, "session": str(tmp_path / "run.jsonl"), "env": environ,
            "sessions": tmp_path / "sessions"}


def text_reply(server: Any, text: str, **kw: Any) -> None:
    server.openai_stream([chunk({"role": "assistant", "content": text}), chunk({}, "stop"),
                          chunk(usage={"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12},
                                choices=False)], **kw)


def tool_reply(server: Any, name: str, arguments: dict[str, Any]) -> None:
    server.openai_stream([
        chunk({"role": "assistant", "content": None, "tool_calls": [{"index": 0, "id": f"call_{name}",
               "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}]}),
        chunk({}, "tool_calls")])


def held_reply(server: Any) -> None:
    """A reply that starts streaming and then waits for ``server.release``: a model "thinking"."""
    server.openai_stream([chunk({"role": "assistant", "content": "Thinking"}), chunk({"content": "..."}),
                          chunk({}, "stop")], delay=120)


def pi_memory(env: dict[str, Any], *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PI_MEMORY, *args], cwd=env["cwd"], env=env["env"], input=stdin, capture_output=True,
                          text=True, timeout=60)


def system_prompt(request: Any) -> str:
    first = request.body["messages"][0]
    assert first["role"] in ("system", "developer")
    return str(first["content"])


def wait_for(predicate: Any, what: str) -> None:
    deadline = time.monotonic() + 30
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)


def write_memory(directory: Path, memory: Iterable[str] = (), user: Iterable[str] = ()) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "MEMORY.md").write_text("\n§\n".join(memory), encoding="utf-8")
    (directory / "USER.md").write_text("\n§\n".join(user), encoding="utf-8")


def write_session(session_dir: Path, cwd: str, turns: Iterable[tuple[str, str]], *, id: str | None = None,
                  start_ms: int | None = None) -> str:
    """A session file written by our SessionManager: user/assistant pairs, one second apart."""
    sm = SessionManager.create(cwd, str(session_dir), id=id)
    clock = start_ms if start_ms is not None else int(time.time() * 1000) - 60_000
    for user, assistant in turns:
        clock += 1000
        sm.append_message({"role": "user", "content": [{"type": "text", "text": user}], "timestamp": clock})
        clock += 1000
        sm.append_message({"role": "assistant", "content": [{"type": "text", "text": assistant}],
                           "api": "scripted", "provider": "scripted", "model": "echo",
                           "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
                                     "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                           "stopReason": "stop", "timestamp": clock})
    path = sm.get_session_file()
    assert path is not None
    return path
