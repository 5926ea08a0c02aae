"""End to end as real subprocesses: ``pi-memory chat`` with the memory extension installed (Mode 1,
through the entry point), against a loopback server speaking OpenAI's wire format to the real
``openai`` SDK. ``pi-memory dream`` is tested the same way in tests/cli/test_dream.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from e2e_helpers import agent_env, pi_memory, system_prompt, text_reply, write_memory


@pytest.fixture
def env(tmp_path: Path, _isolated_home: Path, server: Any) -> dict[str, Any]:
    return agent_env(tmp_path, _isolated_home, server)


# --- chat: the frozen snapshot across processes ----------------------------------------------


@pytest.mark.slow
def test_resume_sends_a_byte_identical_system_prompt_and_fork_sends_new_memory(env: dict[str, Any],
                                                                              server: Any) -> None:
    write_memory(env["mem"], ["cobalt memory"])
    text_reply(server, "Hello.")
    first = pi_memory(env, "chat", "-p", "hi", "--model", "loop/gpt-loop", "--session", env["session"])
    assert first.returncode == 0, first.stderr
    prompt_1 = system_prompt(server.requests[0])
    assert "cobalt memory" in prompt_1
    names = [t["function"]["name"] for t in server.requests[0].body["tools"]]
    # every installed extension's tools are sent (recall and decay too); the memory tools in their order
    assert [n for n in names if n.startswith("memory_")] == [
        "memory_add", "memory_replace", "memory_remove", "memory_read"]

    write_memory(env["mem"], ["amber memory"])
    text_reply(server, "Hello again.")
    again = pi_memory(env, "chat", "-p", "again", "--session", env["session"])
    assert again.returncode == 0, again.stderr
    assert system_prompt(server.requests[1]) == prompt_1

    text_reply(server, "Forked.")
    forked = pi_memory(env, "chat", "-p", "forked", "--fork", env["session"])
    assert forked.returncode == 0, forked.stderr
    prompt_3 = system_prompt(server.requests[2])
    assert "amber memory" in prompt_3 and "cobalt memory" not in prompt_3


@pytest.mark.slow
def test_after_compaction_the_new_memory_appears(env: dict[str, Any], server: Any) -> None:
    write_memory(env["mem"], ["cobalt memory"])
    for n in range(2):
        text_reply(server, f"Answer {n}.")
        proc = pi_memory(env, "chat", "-p", f"question {n}", "--model", "loop/gpt-loop", "--session", env["session"])
        assert proc.returncode == 0, proc.stderr
    write_memory(env["mem"], ["amber memory"])
    for _ in range(3):  # the summary (maybe two calls), then the answer
        text_reply(server, "A summary of the talk.")
    proc = pi_memory(env, "chat", "--session", env["session"], stdin="/compact\nafter compaction\n/quit\n")
    assert proc.returncode == 0, proc.stderr
    after = next(r for r in server.requests if "after compaction" in json.dumps(r.body["messages"][-1]))
    assert "amber memory" in system_prompt(after) and "cobalt memory" not in system_prompt(after)
    assert "cobalt memory" in system_prompt(server.requests[1])
