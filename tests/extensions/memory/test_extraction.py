"""Background extraction (:mod:`pi_memory.extensions.memory.extraction`, reference §7.4, §8 #80–84):
what counts as the main agent having saved memory, the review text, and the runner that reviews
every few turns inside the real host."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from memext_helpers import DREAM_MODEL, dream_registry, start

from pi_memory.extensions.memory.extraction import (
    count_memory_actions,
    extract_text,
    main_agent_wrote_memory,
    serialize_messages,
)
from pi_memory.memory import MemoryStore
from pi_memory.providers import ModelRegistry

pytestmark = pytest.mark.anyio


def tool_result(name: str, success: bool, *, error: bool = False) -> dict[str, Any]:
    text = '{\n  "success": true\n}' if success else '{\n  "success": false,\n  "error": "x"\n}'
    return {"role": "toolResult", "toolName": name, "content": [{"type": "text", "text": text}], "isError": error}


def test_80_main_agent_wrote_memory() -> None:
    assert main_agent_wrote_memory([tool_result("memory_add", True)])
    assert main_agent_wrote_memory([tool_result("memory_replace", True)])
    assert not main_agent_wrote_memory([tool_result("memory_add", True, error=True)])
    assert not main_agent_wrote_memory([tool_result("memory_read", True), tool_result("memory_remove", True)])
    assert not main_agent_wrote_memory([])
    assert main_agent_wrote_memory([tool_result("other", True), tool_result("memory_add", True)])


def test_81_extract_text() -> None:
    assert extract_text({"content": "plain"}) == "plain"
    blocks = [{"type": "text", "text": "a"}, {"type": "image", "data": "x"}, {"type": "text", "text": "b"}]
    assert extract_text({"content": blocks}) == "a\nb"
    assert extract_text(None) == "" and extract_text(5) == "" and extract_text({"content": 5}) == ""


def test_82_serialize_messages() -> None:
    assert serialize_messages([("user", "hello"), ("assistant", "hi there")]) == "[user] hello\n\n[assistant] hi there"
    assert serialize_messages([]) == ""
    many = [("user", f"{i}:" + "x" * 1000) for i in range(10)]
    text = serialize_messages(many)
    assert len(text) <= 4000 and text.endswith("[user] 9:" + "x" * 1000) and "[user] 5:" not in text
    assert serialize_messages([("user", "y" * 5000)]) == "[user] " + "y" * 5000  # the newest always stays


def test_83_count_memory_actions() -> None:
    results = [tool_result("memory_read", True), tool_result("memory_add", True, error=True),
               tool_result("memory_remove", False), tool_result("memory_add", True),
               tool_result("memory_replace", True)]
    assert count_memory_actions(results) == 2


def extraction_config(tmp_path: Path, model: dict[str, str], interval: int = 2) -> dict[str, Any]:
    return {"store": MemoryStore(tmp_path / "mem"), "dreaming": {"enabled": False}, "extractionModel": model,
            "extractionInterval": interval}


async def test_84_runner_triggers_on_the_interval_and_reports(tmp_path: Path) -> None:
    registry, reviewer = dream_registry([
        {"tool_calls": [{"name": "memory_add", "arguments": {"target": "user", "content": "User drinks oolong"}}]},
        "Saved."])
    h = await start(tmp_path, extraction_config(tmp_path, DREAM_MODEL), registry=registry, chat=["Nice.", "Sure."])
    await h.prompt("I drink oolong every day")
    assert reviewer.requests == []  # one turn: below the interval of 2
    await h.prompt("What a day")
    runner = h.ext.extraction
    assert runner is not None and runner.task is not None and await runner.task == 1
    prompt = reviewer.requests[0].messages[0]["content"][0]["text"]
    assert prompt.startswith("Analyze this recent conversation and save any durable facts worth remembering:")
    assert "[user] I drink oolong every day" in prompt and "[assistant] Nice." in prompt
    assert ("Background memory: 1 action taken.", "info") in h.ui.notifications
    assert MemoryStore(tmp_path / "mem").read("user")["entries"] == ["User drinks oolong"]
    await h.close()


async def test_84_skipped_after_the_main_agent_saved_memory(tmp_path: Path) -> None:
    registry, reviewer = dream_registry(["Nothing."])
    chat = [{"tool_calls": [{"name": "memory_add", "arguments": {"target": "memory", "content": "Uses pnpm"}}]},
            "Saved.", "Ok."]
    h = await start(tmp_path, extraction_config(tmp_path, DREAM_MODEL), registry=registry, chat=chat)
    await h.prompt("We use pnpm")  # two turns, the first saved memory: the counter restarts after it
    assert reviewer.requests == []
    await h.prompt("more")
    assert h.ext.extraction is not None and h.ext.extraction.task is not None
    await h.ext.extraction.task
    assert len(reviewer.requests) == 1
    await h.close()


async def test_84_unknown_model_warns_once_missing_key_is_silent(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    h = await start(tmp_path, extraction_config(tmp_path, {"provider": "nowhere", "model": "x"}, interval=1),
                    registry=ModelRegistry())
    for text in ("one", "two"):
        await h.prompt(text)
        assert h.ext.extraction is not None and h.ext.extraction.task is not None
        await h.ext.extraction.task
    warnings = [n for n in h.ui.notifications if n[0].startswith("Background extraction")]
    assert warnings == [('Background extraction: model "nowhere/x" not found.', "warning")]
    await h.close()
    quiet = await start(tmp_path / "q", extraction_config(tmp_path / "q", {"provider": "openai", "model": "gpt-4.1"},
                                                          interval=1), registry=ModelRegistry())
    await quiet.prompt("one")
    assert quiet.ext.extraction is not None and quiet.ext.extraction.task is not None
    assert await quiet.ext.extraction.task == 0
    assert not [n for n in quiet.ui.notifications if n[1] != "info" or "Background" in n[0]]
    await quiet.close()


async def test_84_nothing_runs_after_shutdown(tmp_path: Path) -> None:
    registry, reviewer = dream_registry(["Nothing."])
    h = await start(tmp_path, extraction_config(tmp_path, DREAM_MODEL, interval=1), registry=registry)
    runner = h.ext.extraction
    await h.close()
    assert runner is not None and runner.closed
    assert runner.on_turn_end([]) is None and await runner.extract([("user", "x")]) == 0
    assert reviewer.requests == []
