#!/usr/bin/env python3
"""One memory call through each framework adapter, against the direct ``MemoryStore`` call.

  direct                    the peer: ``store.add("memory", entry)`` / ``store.read("memory")``
  memory_tools.call         ``MemoryTools.call(name, json_string)``: a hand-written loop's call
  anthropic.MemoryTool      ``MemoryTool.call(input)``: what the SDK's tool runner calls with a
                            ``tool_use`` block's input (``insert`` / ``view``)
  pydantic_ai.tool          the ``memory_add`` / ``memory_read`` function ``MemoryToolset`` registers,
                            awaited (the adapter layer alone)
  pydantic_ai.agent_run     a whole Pydantic AI agent run whose ``FunctionModel`` makes that one call
                            (the framework's run loop, validation and message building included)

Phases (each side on its own fresh memory directory, fsync on, limit raised so nothing is refused):
``add`` of distinct ~80-char entries and ``read`` of a 20-entry MEMORY.md. The sides take turns call
by call (the order rotates), so disk and scheduler noise hits all of them; every call's latency is
recorded after a warm-up. Reported per side: p50/p95/mean in ms and calls/s, and per adapter the
overhead over direct (p50 difference and ratio).

To add an adapter, add one entry to ``ADAPTERS``: a name and a factory taking the memory directory
and returning ``(add, read)`` callables (sync or async) that take the call number.

    .venv/bin/python bench/integrations_bench.py          # prints JSON, writes bench/results/integrations_bench.json
    .venv/bin/python bench/integrations_bench.py --calls 100
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import os
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pi_memory import __version__
from pi_memory.memory import MemoryStore, create_memory_tools

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results" / "integrations_bench.json"
LIMIT = 1_000_000

Call = Callable[[int], Any]
Factory = Callable[[Path], tuple[Call, Call]]


def _entry(i: int) -> str:
    return f"Fact {i:05d}: the staging deploy for service {i % 7} runs after the nightly build."


def _store(directory: Path) -> MemoryStore:
    return MemoryStore(directory, memory_char_limit=LIMIT)


def _check(ok: bool, side: str) -> None:
    if not ok:
        raise SystemExit(f"a call failed during the benchmark ({side})")


# ----------------------------------------------------------------------------- the sides


def direct(directory: Path) -> tuple[Call, Call]:
    store = _store(directory)
    return (lambda i: _check(store.add("memory", _entry(i))["success"], "direct"),
            lambda i: _check(store.read("memory")["success"], "direct"))


def memory_tools_call(directory: Path) -> tuple[Call, Call]:
    tools = create_memory_tools(_store(directory))

    def add(i: int) -> None:
        _check(not tools.call("memory_add", json.dumps({"target": "memory", "content": _entry(i)})).is_error, "call")

    return add, lambda i: _check(not tools.call("memory_read", '{"target": "memory"}').is_error, "call")


def anthropic_memory_tool(directory: Path) -> tuple[Call, Call]:
    from pi_memory.integrations.anthropic import MemoryTool

    tool = MemoryTool(_store(directory))
    path = "/memories/MEMORY.md"
    return (lambda i: tool.call({"command": "insert", "path": path, "insert_line": 0, "insert_text": _entry(i)}),
            lambda i: tool.call({"command": "view", "path": path}))


def pydantic_ai_tool(directory: Path) -> tuple[Call, Call]:
    from pi_memory.integrations.pydantic_ai import MemoryToolset

    toolset = MemoryToolset(_store(directory), recall=False)
    add, read = toolset.tools["memory_add"].function, toolset.tools["memory_read"].function

    async def add_call(i: int) -> None:
        _check((await add(target="memory", content=_entry(i)))["success"], "pydantic_ai.tool")

    async def read_call(i: int) -> None:
        _check((await read(target="memory"))["success"], "pydantic_ai.tool")

    return add_call, read_call


def pydantic_ai_agent_run(directory: Path) -> tuple[Call, Call]:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import FunctionModel

    from pi_memory.integrations.pydantic_ai import MemoryToolset

    toolset = MemoryToolset(_store(directory), recall=False)
    pending: list[tuple[str, dict[str, Any]]] = []

    def model(messages: list[Any], info: Any) -> ModelResponse:
        last = messages[-1]
        if isinstance(last, ModelRequest) and any(p.part_kind == "tool-return" for p in last.parts):
            failed = any(getattr(p, "outcome", "success") != "success" for p in last.parts)
            _check(not failed, "pydantic_ai.agent_run")
            return ModelResponse(parts=[TextPart("done")])
        name, args = pending.pop()
        return ModelResponse(parts=[ToolCallPart(name, args, tool_call_id="call_1")])

    agent = Agent(FunctionModel(model), toolsets=[toolset])

    async def add(i: int) -> None:
        pending.append(("memory_add", {"target": "memory", "content": _entry(i)}))
        await agent.run("save it")

    async def read(i: int) -> None:
        pending.append(("memory_read", {"target": "memory"}))
        await agent.run("read it")

    return add, read


#: The adapters compared with ``direct``; each runs on its own memory directory.
ADAPTERS: dict[str, Factory] = {
    "memory_tools.call": memory_tools_call,
    "anthropic.MemoryTool": anthropic_memory_tool,
    "pydantic_ai.tool": pydantic_ai_tool,
    "pydantic_ai.agent_run": pydantic_ai_agent_run,
}


# ----------------------------------------------------------------------------- the run


def _summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 3),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 3),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 3),
        "calls_per_s": round(len(ordered) / sum(ordered), 1),
    }


async def _compare(phase: str, base: Path, calls: int, warmup: int) -> dict[str, list[float]]:
    factories: dict[str, Factory] = {"direct": direct, **ADAPTERS}
    sides: dict[str, Call] = {}
    for n, (name, factory) in enumerate(factories.items()):
        directory = base / f"side{n}"
        if phase == "read":
            seed = _store(directory)
            for i in range(20):
                seed.add("memory", _entry(100_000 + i))
        add, read = factory(directory)
        sides[name] = add if phase == "add" else read
    samples: dict[str, list[float]] = {name: [] for name in sides}
    names = list(sides)
    for i in range(warmup + calls):
        shift = i % len(names)
        for name in names[shift:] + names[:shift]:
            begun = time.perf_counter()
            outcome = sides[name](i)
            if inspect.isawaitable(outcome):
                await outcome
            elapsed = time.perf_counter() - begun
            if i >= warmup:
                samples[name].append(elapsed)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--no-write", action="store_true", help="print only; keep bench/results as is")
    opts = parser.parse_args()

    import anthropic
    import pydantic_ai

    wall = time.perf_counter()
    report: dict[str, Any] = {
        "bench": "integrations_bench",
        "peer": "direct MemoryStore call in the same process (same store code, fsync on)",
        "ours_version": f"pi-memory {__version__}",
        "frameworks": {"anthropic": anthropic.__version__, "pydantic_ai": pydantic_ai.__version__},
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "calls": opts.calls,
        "warmup": opts.warmup,
        "phases": {},
    }
    for phase in ("add", "read"):
        with tempfile.TemporaryDirectory() as base:
            samples = asyncio.run(_compare(phase, Path(base), opts.calls, opts.warmup))
        peer = _summary(samples.pop("direct"))
        result: dict[str, Any] = {"direct": peer}
        for name, measured in samples.items():
            stats = _summary(measured)
            result[name] = {
                **stats,
                "overhead_p50_ms": round(stats["p50_ms"] - peer["p50_ms"], 3),
                "ratio_p50_over_direct": round(stats["p50_ms"] / peer["p50_ms"], 2),
            }
        report["phases"][f"memory_{phase}"] = result
    report["wall_s"] = round(time.perf_counter() - wall, 1)
    text = json.dumps(report, indent=2)
    print(text)
    if not opts.no_write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
