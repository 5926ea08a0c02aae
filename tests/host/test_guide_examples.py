"""The two example extensions of DESIGN.md §4, in the guide dialect, exactly as docs/extensions.md
prints them, run against the host with the scripted provider."""

from __future__ import annotations

import math
import re
import types
from pathlib import Path
from typing import Any

import pytest
from host_helpers import make_runtime, texts

from pi_memory.session import SessionManager

DOC = Path(__file__).resolve().parents[2] / "docs" / "extensions.md"


def example(name: str) -> types.ModuleType:
    """The doc block whose first line is ``# extension: <name>``, loaded as a module (not __main__)."""
    blocks = re.findall(r"^```python\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.S | re.M)
    (code,) = [b for b in blocks if b.startswith(f"# extension: {name}\n")]
    module = types.ModuleType(f"doc_{name}")
    exec(compile(code, f"{DOC}:{name}", "exec"), module.__dict__)
    return module


def tool_results(sm: SessionManager) -> list[str]:
    return [texts(e["message"]) for e in sm.get_entries()
            if e["type"] == "message" and e["message"]["role"] == "toolResult"]


@pytest.mark.anyio
async def test_vector_retrieval_batches_and_searches(tmp_path: Path) -> None:
    vr = example("vector_retrieval")
    now = [1000.0]
    vr.clock = lambda: now[0]
    store = vr.VectorStore()

    replies = [f"Reply {n}." for n in range(5)] + [
        {"tool_calls": [{"name": "search_memory", "arguments": {"query": "green tea", "topK": "1"}}]},
        "You drink green tea."]
    rt, _, _ = await make_runtime(tmp_path, replies, lambda pi: vr.extension(pi, {"store": store}))
    await rt.prompt("I drink green tea every morning.")
    for n in range(1, 4):
        await rt.prompt(f"Unrelated remark number {n}.")
    assert store.items == {}  # 8 messages pending: below the batch size
    await rt.prompt("Fifth message.")
    assert len(store.items) == 10  # flushed at 10
    sm = rt.session_manager
    first = next(e for e in sm.get_entries() if e["type"] == "message")
    record = store.items[first["id"]]
    assert (record["role"], record["text"]) == ("user", "I drink green tea every morning.")
    assert record["timestamp"] == first["message"]["timestamp"]

    now[0] += 6  # the next message finds the oldest pending one older than 5 s
    run_ = await rt.prompt("What do I drink?")
    assert run_ is not None
    lines = tool_results(sm)[0].splitlines()
    assert len(lines) == 1  # topK "1" was coerced to an integer (slicing with a string would fail)
    match = re.fullmatch(r"\[([0-9a-f]{8})\] \(similarity: (0\.\d\d)\) user: I drink green tea every morning\.",
                         lines[0])
    assert match is not None and match.group(1) == first["id"]
    assert sm.get_entry(match.group(1)) is not None
    assert float(match.group(2)) == pytest.approx(2 / math.sqrt(6 * 2), abs=0.005)
    pending_before_shutdown = len(store.items)
    await rt.shutdown()
    assert len(store.items) > pending_before_shutdown  # flushed at shutdown


@pytest.mark.anyio
async def test_vector_retrieval_time_flush(tmp_path: Path) -> None:
    vr = example("vector_retrieval")
    now = [0.0]
    vr.clock = lambda: now[0]
    store = vr.VectorStore()

    rt, _, _ = await make_runtime(tmp_path, ["a", "b"], lambda pi: vr.extension(pi, {"store": store}))
    await rt.prompt("one")
    assert store.items == {}
    now[0] = 5.0
    await rt.prompt("two")
    assert len(store.items) == 3  # user, assistant, and the user message that arrived at 5 s


@pytest.mark.anyio
async def test_time_decay_weights_access_tracking_and_restart(tmp_path: Path) -> None:
    td = example("time_decay")
    assert td.weight(0, 0) == 1.0
    assert td.weight(48, 0) == pytest.approx(math.exp(-0.0048))
    assert td.weight(48, 3, rate=0.01) == pytest.approx(math.exp(-0.48) + math.log(4) / 10)
    assert td.weight(10_000, 0, rate=0.01) < 0.001

    sm = SessionManager.create(str(tmp_path), str(tmp_path / "sessions"))
    old = 1_700_000_000_000
    sm.append_message({"role": "user", "content": "An old fact about the garden.", "timestamp": old})
    sm.append_message({"role": "assistant", "content": [{"type": "text", "text": "Noted about the garden."}],
                       "api": "scripted", "provider": "scripted", "model": "echo", "usage": {}, "stopReason": "stop",
                       "timestamp": old + 1000})
    td.clock = lambda: old / 1000 + 30 * 24 * 3600  # thirty days later
    ask = {"tool_calls": [{"name": "get_important_memories", "arguments": {"threshold": 0.7}}]}

    rt, _, _ = await make_runtime(tmp_path, ["Deadline noted.", ask, "Done."],
                                  lambda pi: td.extension(pi, {"rate": 0.01}), session=sm)
    td.clock = lambda: (old + 30 * 24 * 3600 * 1000) / 1000
    await rt.prompt("The deadline is Friday.")
    await rt.prompt("What matters?")
    (result,) = tool_results(rt.session_manager)
    state = [e for e in rt.session_manager.get_entries() if e["type"] == "custom"]
    assert len(state) == 1 and state[0]["customType"] == "decay-access"
    path = rt.session_manager.get_session_file()
    assert path is not None
    await rt.shutdown()

    lines = result.splitlines()
    assert all(re.fullmatch(r"\[[0-9a-f]{8}\] \(weight: \d\.\d\d\) .+", line) for line in lines)
    assert any("The deadline is Friday." in line for line in lines)
    assert not any("garden" in line for line in lines)  # thirty days old at rate 0.01: forgotten

    reopened = SessionManager.open(str(sm.get_session_file()))
    captured: dict[str, Any] = {}

    def spy(pi: Any) -> None:
        td.extension(pi, {"rate": 0.01})
        pi.on("session:loaded", lambda e: captured.update(
            counts=[en["data"]["counts"] for en in pi.get_entries() if en["type"] == "custom"][-1]))
    await make_runtime(tmp_path, [], spy, session=reopened)
    counts = captured["counts"]

    assert counts and all(v == 1 for v in counts.values())
