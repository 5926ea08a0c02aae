"""The Dreaming page's data: gates, readiness, the last report, and dream-now with progress."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from peer_modules import load_test_module
from pi_memory.extensions.memory import parse_settings, read_state
from pi_memory.memory import MemoryStore
from pi_memory.providers import ModelRegistry, ScriptedProvider
from pi_memory.ui import api_dreaming

fixtures = load_test_module("ui/uidata_fixtures.py")
seeded = fixtures.seeded

DREAMER = {"provider": "scripted", "model": "dreamer"}
SCRIPT = [
    {"tool_calls": [{"name": "memory_add", "arguments": {"target": "memory",
                                                         "content": "Staging database lives in Frankfurt"}}]},
    {"tool_calls": [{"name": "memory_add", "arguments": {"target": "user", "content": "User runs the ops team"}}]},
    "Verified: two facts consolidated.",
]


def _registry(script: Any) -> tuple[ModelRegistry, ScriptedProvider]:
    registry = ModelRegistry()
    provider = ScriptedProvider(script)
    registry.set_provider("scripted", provider)
    return registry, provider


def _settings(memory_dir: Path, **dreaming: Any) -> Any:
    return parse_settings({"dataDir": str(memory_dir), "dreaming": {"model": DREAMER, **dreaming}})


def test_status_before_any_dream(seeded: Any) -> None:
    settings = _settings(seeded.memory_dir, minTurnsSinceLastRun=3)
    registry, _ = _registry([])
    status = api_dreaming.dreaming_status(settings, MemoryStore(seeded.memory_dir), registry,
                                          session_dir=None)
    assert status["lastRun"] is None and status["lastReport"] is None
    gates = status["gates"]
    assert gates["timeOpen"] is True and gates["turns"] >= 3 and gates["turnsOpen"] is True and gates["open"]
    assert status["dreamNow"]["available"] is True and status["background"]["on"] is True
    quick = api_dreaming.dreaming_status(settings, MemoryStore(seeded.memory_dir), registry, session_dir=None,
                                         count_turns=False)
    assert quick["gates"]["turns"] is None and quick["gates"]["turnsOpen"] is None and not quick["gates"]["open"]


def test_dream_now_runs_reports_progress_and_records_the_report(seeded: Any) -> None:
    settings = _settings(seeded.memory_dir)
    registry, _provider = _registry(SCRIPT)
    store = MemoryStore(seeded.memory_dir)
    jobs = api_dreaming.DreamJobs()
    job = jobs.start(api_dreaming.dream_options(settings, store, registry, session_dir=None))
    assert jobs.wait(60)
    snap = jobs.snapshot()
    assert snap["job"] == job and snap["running"] is False
    kinds = [e["type"] for e in snap["events"]]
    assert kinds[0] == "turns" and kinds.count("model-call") == 3 and kinds[-1] == "done"
    actions = [e for e in snap["events"] if e["type"] == "action"]
    assert [(a["target"], a["text"], a["success"]) for a in actions] == [
        ("memory", "Staging database lives in Frankfurt", True), ("user", "User runs the ops team", True)]
    assert snap["outcome"]["ran"] is True
    assert jobs.snapshot(since=len(snap["events"]) - 1)["events"] == [snap["events"][-1]]
    # the report is in the state file, so another process (this page after a restart) shows it
    state = read_state(seeded.memory_dir)
    assert state.last_consolidated_at is not None
    status = api_dreaming.dreaming_status(settings, store, registry, session_dir=None)
    report = status["lastReport"]
    assert report["finalText"] == "Verified: two facts consolidated."
    assert report["changes"]["memory"]["added"] == 1 and report["changes"]["user"]["added"] == 1
    assert report["modelCalls"] == 3 and report["turns"] >= 1
    assert status["lastRun"] == state.last_consolidated_at
    gates = status["gates"]
    assert gates["timeOpen"] is False and gates["nextTimeAt"] is not None and gates["turns"] == 0
    assert "Staging database lives in Frankfurt" in (seeded.memory_dir / "MEMORY.md").read_text()


def test_dream_now_is_refused_without_a_model(seeded: Any) -> None:
    settings = parse_settings({"dataDir": str(seeded.memory_dir),
                               "dreaming": {"model": {"provider": "nowhere", "model": "x"}}})
    registry = ModelRegistry()
    status = api_dreaming.dreaming_status(settings, MemoryStore(seeded.memory_dir), registry, session_dir=None)
    assert status["dreamNow"]["available"] is False and status["dreamNow"]["reason"] == "no-model"
    with pytest.raises(api_dreaming.DreamRefused, match="Unknown provider 'nowhere'") as refused:
        api_dreaming.DreamJobs().start(api_dreaming.dream_options(settings, MemoryStore(seeded.memory_dir), registry,
                                                                  session_dir=None))
    assert refused.value.reason == "no-model"
    assert not (seeded.memory_dir / "dreaming-state.json").exists()


def test_a_second_dream_now_waits_for_the_first(seeded: Any) -> None:
    gate = asyncio.Event()
    loop_box: list[asyncio.AbstractEventLoop] = []

    async def slow(context: Any) -> Any:
        loop_box.append(asyncio.get_running_loop())
        await gate.wait()
        return "Nothing to change."

    settings = _settings(seeded.memory_dir)
    registry, _ = _registry(slow)
    jobs = api_dreaming.DreamJobs()
    options = api_dreaming.dream_options(settings, MemoryStore(seeded.memory_dir), registry, session_dir=None)
    jobs.start(options)
    deadline = time.monotonic() + 30
    while not loop_box and time.monotonic() < deadline:
        time.sleep(0.02)
    assert jobs.snapshot()["running"] is True
    with pytest.raises(api_dreaming.DreamRefused) as refused:
        jobs.start(api_dreaming.dream_options(settings, MemoryStore(seeded.memory_dir), registry, session_dir=None))
    assert refused.value.reason == "running"
    loop_box[0].call_soon_threadsafe(gate.set)
    assert jobs.wait(30) and jobs.snapshot()["outcome"]["ran"] is True
