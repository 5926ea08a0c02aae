#!/usr/bin/env python3
"""One memory call through each framework adapter, against its peer in the same run.

  memory_add / memory_read (each side on its own fresh memory directory)
    direct                    the peer: ``store.add("memory", entry)`` / ``store.read("memory")``
    memory_tools.call         ``MemoryTools.call(name, json_string)``: a hand-written loop's call
    anthropic.MemoryTool      ``MemoryTool.call(input)``: what the SDK's tool runner calls with a
                              ``tool_use`` block's input (``insert`` / ``view``)
    pydantic_ai.tool          the ``memory_add`` / ``memory_read`` function ``MemoryToolset`` registers,
                              awaited (the adapter layer alone)
    pydantic_ai.agent_run     a whole Pydantic AI agent run whose ``FunctionModel`` makes that one call
                              (the framework's run loop, validation and message building included)
    openai_agents             ``FunctionTool.on_invoke_tool(ctx, json)`` from ``openai_agents.memory_tools``
    langchain.invoke          ``BaseTool.invoke(tool_call)`` from ``langchain.memory_tools`` → ToolMessage
    langchain.ainvoke         ``await BaseTool.ainvoke(tool_call)``

  session (one small item per ``add_items``, then ``get_items`` of all of them)
    agents_sqlite             the peer: the Agents SDK's own ``SQLiteSession`` on a file
    pi_session                ``PiSession``: a pi v3 session file, under the session lock, re-read per call

  langgraph_store (put / get / search with a query over 200 items)
    in_memory                 the peer: LangGraph's ``InMemoryStore`` with ``static_embeddings`` as its index
    pi_store                  ``PiStore`` on a SQLite file (hybrid search, scanner on every put)

fsync is on and the memory limit raised so nothing is refused. The sides take turns call by call
(the order rotates), so disk and scheduler noise hits all of them; every call's latency is recorded
after a warm-up. Reported per side: p50/p95/mean in ms and calls/s, and per side other than the
peer its overhead (p50 difference and ratio).

To add a memory-tool adapter, add one entry to ``ADAPTERS``: a name and a factory taking the memory
directory and returning ``(add, read)`` callables (sync or async) that take the call number.

    .venv/bin/python bench/integrations_bench.py          # prints JSON, writes bench/results/integrations_bench.json
    .venv/bin/python bench/integrations_bench.py --calls 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness import alternate, latency_summary, write_report
from pi_memory import __version__
from pi_memory.memory import MemoryStore, create_memory_tools

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results" / "integrations_bench.json"
LIMIT = 1_000_000

Call = Callable[[int], Any]
_LOOP = asyncio.new_event_loop()  # one loop for every async side, as one application has
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


def openai_agents_tool(directory: Path) -> tuple[Call, Call]:
    from pi_memory.integrations.openai_agents import memory_tools

    tools = {tool.name: tool for tool in memory_tools(_store(directory), recall=False)}

    async def add(i: int) -> None:
        await tools["memory_add"].on_invoke_tool(None, json.dumps({"target": "memory", "content": _entry(i)}))  # type: ignore[arg-type]

    async def read(i: int) -> None:
        await tools["memory_read"].on_invoke_tool(None, '{"target": "memory"}')  # type: ignore[arg-type]

    return add, read


def _langchain_calls(directory: Path) -> tuple[Any, Any, Callable[[int, str], dict[str, Any]]]:
    from pi_memory.integrations.langchain import memory_tools

    tools = {tool.name: tool for tool in memory_tools(_store(directory), recall=False)}

    def call(i: int, name: str) -> dict[str, Any]:
        args = {"target": "memory"} if name == "memory_read" else {"target": "memory", "content": _entry(i)}
        return {"type": "tool_call", "id": f"c{i}", "name": name, "args": args}

    return tools["memory_add"], tools["memory_read"], call


def langchain_invoke(directory: Path) -> tuple[Call, Call]:
    add, read, call = _langchain_calls(directory)
    return lambda i: add.invoke(call(i, "memory_add")), lambda i: read.invoke(call(i, "memory_read"))


def langchain_ainvoke(directory: Path) -> tuple[Call, Call]:
    add, read, call = _langchain_calls(directory)
    return lambda i: add.ainvoke(call(i, "memory_add")), lambda i: read.ainvoke(call(i, "memory_read"))


#: The adapters compared with ``direct``; each runs on its own memory directory.
ADAPTERS: dict[str, Factory] = {
    "memory_tools.call": memory_tools_call,
    "anthropic.MemoryTool": anthropic_memory_tool,
    "pydantic_ai.tool": pydantic_ai_tool,
    "pydantic_ai.agent_run": pydantic_ai_agent_run,
    "openai_agents": openai_agents_tool,
    "langchain.invoke": langchain_invoke,
    "langchain.ainvoke": langchain_ainvoke,
}


# ----------------------------------------------------------------------------- the peered sections


def session_sides(directory: Path) -> dict[str, tuple[Call, Call]]:
    """``(add_items of one item, get_items)`` for the Agents SDK's SQLiteSession and PiSession."""
    from agents.memory import SQLiteSession

    from pi_memory.integrations.openai_agents import PiSession

    os.environ["PI_CODING_AGENT_DIR"] = str(directory)
    item = {"role": "user", "content": "A short user message about the deploy schedule."}
    sqlite = SQLiteSession("bench", str(directory / "agents.db"))
    pi = PiSession("bench", cwd="/bench/project")
    return {name: ((lambda i, s=session: s.add_items([dict(item)])), (lambda i, s=session: s.get_items()))
            for name, session in (("agents_sqlite", sqlite), ("pi_session", pi))}


def langgraph_stores(directory: Path) -> dict[str, Any]:
    """LangGraph's InMemoryStore (the peer) and PiStore, each seeded with the same 200 items."""
    from langgraph.store.memory import InMemoryStore

    from pi_memory.integrations.langgraph import STATIC_EMBEDDING_DIMS, PiStore, static_embeddings

    stores = {"in_memory": InMemoryStore(index={"dims": STATIC_EMBEDDING_DIMS, "embed": static_embeddings}),
              "pi_store": PiStore(str(directory / "store.db"))}
    for store in stores.values():
        for i in range(200):
            value = {"text": f"Seed fact {i}: user {i % 10} likes topic {i % 13}"}
            store.put(("users", f"u{i % 10}"), f"seed{i}", value)
    return stores


STORE_OPS: dict[str, Callable[[Any, int], Any]] = {
    "put": lambda s, i: s.put(("users", "bench"), f"k{i}", {"text": f"Bench fact {i} about deploys"}),
    "get": lambda s, i: s.get(("users", "u1"), f"seed{(i * 10 + 1) % 200}"),
    "search_query": lambda s, i: s.search(("users",), query="which topic does the user like", limit=5),
}


# ----------------------------------------------------------------------------- the run


def _against(peer: str, samples: dict[str, list[float]]) -> dict[str, Any]:
    """The summaries, each non-peer side with its p50 overhead over ``peer``."""
    base = latency_summary(samples[peer])
    result: dict[str, Any] = {peer: base}
    for name, measured in samples.items():
        if name != peer:
            stats = latency_summary(measured)
            result[name] = {**stats, "overhead_p50_ms": round(stats["p50_ms"] - base["p50_ms"], 3),
                            f"ratio_p50_over_{peer}": round(stats["p50_ms"] / base["p50_ms"], 2)}
    return result


def _tools(phase: str, base: Path, calls: int, warmup: int) -> dict[str, Any]:
    sides: dict[str, Call] = {}
    for n, (name, factory) in enumerate({"direct": direct, **ADAPTERS}.items()):
        directory = base / f"side{n}"
        if phase == "read":
            seed = _store(directory)
            for i in range(20):
                seed.add("memory", _entry(100_000 + i))
        add, read = factory(directory)
        sides[name] = add if phase == "add" else read
    return _against("direct", alternate(sides, calls, warmup, _LOOP.run_until_complete))


def _session(base: Path, calls: int, warmup: int) -> dict[str, Any]:
    sides = session_sides(base)
    added = alternate({name: add for name, (add, _) in sides.items()}, calls, warmup, _LOOP.run_until_complete)
    read = alternate({name: get for name, (_, get) in sides.items()}, max(10, calls // 10), 2, _LOOP.run_until_complete)
    return {"add_items_one": _against("agents_sqlite", added),
            f"get_items_all_{calls + warmup}": _against("agents_sqlite", read)}


def _langgraph(base: Path, calls: int, warmup: int) -> dict[str, Any]:
    stores = langgraph_stores(base)
    try:
        return {op: _against("in_memory", alternate(
                    {name: (lambda i, s=store, run=run: run(s, i)) for name, store in stores.items()}, calls, warmup,
                    _LOOP.run_until_complete))
                for op, run in STORE_OPS.items()}
    finally:
        stores["pi_store"].close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--no-write", action="store_true", help="print only; keep bench/results as is")
    opts = parser.parse_args()

    import agents
    import anthropic
    import langchain_core
    import langgraph.version
    import pydantic_ai

    agents.set_tracing_disabled(True)
    wall = time.perf_counter()
    report: dict[str, Any] = {
        "bench": "integrations_bench",
        "peer": ("the direct MemoryStore call in the same process (same store code, fsync on); the Agents "
                 "SDK's SQLiteSession; LangGraph's InMemoryStore"),
        "ours_version": f"pi-memory {__version__}",
        "frameworks": {"anthropic": anthropic.__version__, "pydantic_ai": pydantic_ai.__version__,
                       "openai_agents": agents.__version__, "langchain_core": langchain_core.__version__,
                       "langgraph": langgraph.version.__version__},
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "calls": opts.calls,
        "warmup": opts.warmup,
        "phases": {},
    }
    for phase in ("add", "read"):
        with tempfile.TemporaryDirectory() as base:
            report["phases"][f"memory_{phase}"] = _tools(phase, Path(base), opts.calls, opts.warmup)
    with tempfile.TemporaryDirectory() as base:
        report["session"] = _session(Path(base), opts.calls, opts.warmup)
    with tempfile.TemporaryDirectory() as base:
        report["langgraph_store"] = _langgraph(Path(base), opts.calls, opts.warmup)
    report["wall_s"] = round(time.perf_counter() - wall, 1)
    write_report(report, None if opts.no_write else RESULTS)


if __name__ == "__main__":
    main()
