"""Work the extension starts on its own at ``session_start``: the background dream (reference §6.1,
§8 #58–59), inside the real host (background extraction: test_extraction.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from memext_helpers import DREAM_MODEL, blocked_dreamer, dream_registry, start, write_memory, write_session

from pi_memory.extensions.memory.settings import DreamingSettings, ModelRef
from pi_memory.memory import MemoryStore, default_memory_dir
from pi_memory.providers import ModelRegistry

pytestmark = pytest.mark.anyio


async def test_58_mode_2_dreams_over_the_session_dir_without_waiting(tmp_path: Path) -> None:
    write_session(tmp_path / "sessions", str(tmp_path), [("Remember that I use fish shell", "Noted.")])
    gate = asyncio.Event()
    registry, dreamer = dream_registry(blocked_dreamer(gate))
    store = MemoryStore(tmp_path / "mem")
    h = await start(tmp_path, {"store": store, "dreaming": {"minHoursSinceLastRun": 12, "minTurnsSinceLastRun": 1,
                                                            "model": DREAM_MODEL}}, registry=registry)
    options, task = h.ext.dream_options, h.ext.dream_task
    assert options is not None and task is not None
    assert options.memory_dir == store.dir and options.include_global_sessions is False
    assert options.session_dir == h.session.get_session_dir() and options.model_registry is registry
    assert options.dreaming == DreamingSettings(min_hours_since_last_run=12, min_turns_since_last_run=1,
                                                model=ModelRef("scripted", "dreamer"))
    while not dreamer.requests:
        await asyncio.sleep(0.01)
    assert not task.done()  # session_start returned while the dream is still running
    assert "fish shell" in dreamer.requests[0].messages[0]["content"][0]["text"]
    await h.prompt("the chat works meanwhile")
    gate.set()
    assert await task is True
    await h.close()


async def test_59_mode_1_in_the_default_dir_dreams_over_every_project(tmp_path: Path) -> None:
    h = await start(tmp_path, None)
    options = h.ext.dream_options
    assert options is not None
    assert options.memory_dir == default_memory_dir() and options.include_global_sessions is True
    assert options.dreaming == DreamingSettings()
    assert h.ext.dream_task is not None and await h.ext.dream_task is False  # 0 turns: the gate says no
    await h.close()


async def test_shutdown_aborts_a_running_dream_and_keeps_the_state(tmp_path: Path) -> None:
    write_session(tmp_path / "sessions", str(tmp_path), [("a", "b")])
    registry, dreamer = dream_registry(blocked_dreamer(asyncio.Event()))
    h = await start(tmp_path, {"store": MemoryStore(tmp_path / "mem"), "dreaming": {
        "minHoursSinceLastRun": 0, "minTurnsSinceLastRun": 1, "model": DREAM_MODEL}}, registry=registry)
    while not dreamer.requests:
        await asyncio.sleep(0.01)
    task = h.ext.dream_task
    assert task is not None
    await h.close()
    assert await task is False
    assert not (tmp_path / "mem" / "dreaming-state.json").exists()
    assert not (tmp_path / "mem.lock").exists()


async def test_a_background_dream_writes_memory_the_next_session_sees(tmp_path: Path) -> None:
    write_session(tmp_path / "sessions", str(tmp_path), [("I live in Lisbon", "Noted.")])
    registry, _ = dream_registry([
        {"tool_calls": [{"name": "memory_add", "arguments": {"target": "user", "content": "User lives in Lisbon"}}]},
        "Saved."])
    config = {"store": MemoryStore(tmp_path / "mem"), "dreaming": {"minHoursSinceLastRun": 0,
                                                                  "minTurnsSinceLastRun": 1, "model": DREAM_MODEL}}
    h = await start(tmp_path, config, registry=registry)
    assert h.ext.dream_task is not None and await h.ext.dream_task is True
    assert "Lisbon" not in await h.prompt("hi")  # this session's snapshot is frozen
    await h.close()
    nxt = await start(tmp_path, {**config, "store": MemoryStore(tmp_path / "mem"), "dreaming": {"enabled": False}},
                      registry=registry)
    assert "User lives in Lisbon" in await nxt.prompt("hi")
    await nxt.close()


def test_write_memory_helper(tmp_path: Path) -> None:
    write_memory(tmp_path, ["a", "b"])
    assert (tmp_path / "MEMORY.md").read_text() == "a\n§\nb"


async def test_a_failing_background_dream_is_logged_not_raised(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the memory directory's parent should be")
    h = await start(tmp_path, {"dataDir": str(blocker / "memories"), "dreaming": {"minHoursSinceLastRun": 0}})
    assert h.ui.statuses["pi-memory"] == "memory: unavailable"  # the store cannot load there either
    await h.close()
    from pi_memory.extensions.memory import DreamOptions, run_dream
    from pi_memory.extensions.memory.lifecycle import _report_dream_failure

    failing = asyncio.ensure_future(run_dream(DreamOptions(memory_dir=blocker / "memories",
                                                           model_registry=ModelRegistry())))
    failing.add_done_callback(_report_dream_failure)
    with pytest.raises(OSError):
        await failing
    await asyncio.sleep(0)
    assert "[pi-memory] background dream failed:" in capsys.readouterr().err
