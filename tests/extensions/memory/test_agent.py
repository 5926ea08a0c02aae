"""``agent``: the session-less memory agent runs the host's loop with only the four memory tools and
reports every memory call with the store's answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_memory.extensions.memory.agent import run_memory_agent
from pi_memory.host import Event
from pi_memory.memory import MemoryStore
from pi_memory.providers import ScriptedProvider, scripted_model

pytestmark = pytest.mark.anyio


def call(name: str, **args: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": args}]}


async def test_actions_carry_the_arguments_and_the_structured_results(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "mem")
    store.add("memory", "Project uses npm")
    provider = ScriptedProvider([
        call("memory_add", target="user", content="User is called Ada"),
        call("memory_add", target="memory", content="Project uses npm"),  # already there
        call("memory_remove", target="memory", oldText="no such entry"),
        call("memory_read", target="memory"),
        "Saved the name.",
    ])
    events: list[Event] = []
    run = await run_memory_agent(model=scripted_model(), provider=provider, store=store, system_prompt="Tidy memory.",
                                 prompt="Ada joined.", max_turns=8, listener=events.append)
    assert run.stop == "stop" and not run.failed and run.error is None
    assert run.turns == 5 and run.final_text == "Saved the name."
    added, duplicate, missing, read = run.actions
    assert added.tool == "memory_add" and added.args == {"target": "user", "content": "User is called Ada"}
    assert added.succeeded and added.changes_memory and not added.duplicate
    assert duplicate.succeeded and duplicate.duplicate and not duplicate.changes_memory
    assert not missing.succeeded and not missing.changes_memory
    assert read.succeeded and not read.changes_memory
    assert store.read("user")["entries"] == ["User is called Ada"]
    assert store.read("memory")["entries"] == ["Project uses npm"]
    assert [e["type"] for e in events].count("turn_end") == 5
    # the model saw the system prompt, the task and only the memory tools
    first = provider.requests[0]
    assert first.system_prompt == "Tidy memory."
    assert sorted(t["name"] for t in first.tools or []) == ["memory_add", "memory_read", "memory_remove",
                                                           "memory_replace"]


async def test_the_turn_cap_ends_the_run(tmp_path: Path) -> None:
    provider = ScriptedProvider(lambda context: call("memory_read", target="memory"))
    run = await run_memory_agent(model=scripted_model(), provider=provider, store=MemoryStore(tmp_path / "mem"),
                                 system_prompt="s", prompt="p", max_turns=3)
    assert run.stop == "turn_limit" and run.turns == 3 and len(run.actions) == 3 and not run.failed


async def test_a_failing_model_is_a_result_not_an_exception(tmp_path: Path) -> None:
    provider = ScriptedProvider([{"error": "quota exceeded"}])
    run = await run_memory_agent(model=scripted_model(), provider=provider, store=MemoryStore(tmp_path / "mem"),
                                 system_prompt="s", prompt="p", max_turns=3)
    assert run.failed and run.error == "quota exceeded" and run.actions == []
