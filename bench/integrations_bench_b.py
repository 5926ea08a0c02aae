#!/usr/bin/env python3
"""One memory call through each framework adapter (OpenAI Agents SDK, LangChain, LangGraph),
against the direct call in the same run.

  memory_read / memory_add
    direct            the peer: ``store.read(target)`` / ``store.add(target, content)`` on a MemoryStore
    openai_agents     ``FunctionTool.on_invoke_tool(ctx, json)`` from ``memory_tools`` (JSON in, JSON text out)
    langchain_sync    ``BaseTool.invoke(tool_call)`` from ``langchain.memory_tools`` → ToolMessage + artifact
    langchain_async   ``await BaseTool.ainvoke(tool_call)``

  session (100 small items, then ``get_items``)
    agents_sqlite     the peer: the Agents SDK's own ``SQLiteSession`` on a file
    pi_session        ``PiSession``: a pi v3 session file, under the session lock, re-read per call

  langgraph store (put / get / search with a query over 200 items)
    in_memory         the peer: LangGraph's ``InMemoryStore`` with ``static_embeddings`` as its index
    pi_store          ``PiStore`` on a SQLite file (hybrid search, scanner on every put, fsync by SQLite)

The sides alternate call by call so disk and scheduler noise hits both. Reported per side: p50,
p95 and mean in ms; per adapter: the p50 overhead over its peer.

    .venv/bin/python bench/integrations_bench_b.py   # prints JSON, writes bench/results/integrations_bench_b.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results" / "integrations_bench_b.json"
LIMIT = 1_000_000


def _summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"p50_ms": round(statistics.median(ordered) * 1000, 3),
            "p95_ms": round(ordered[int(len(ordered) * 0.95) - 1] * 1000, 3),
            "mean_ms": round(statistics.fmean(ordered) * 1000, 3)}


def _timed(call: Callable[[], Any]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def _alternate(sides: dict[str, Callable[[int], Any]], calls: int, warmup: int) -> dict[str, Any]:
    samples: dict[str, list[float]] = {name: [] for name in sides}
    for i in range(warmup + calls):
        for name, side in sides.items():
            took = _timed(lambda side=side, i=i: side(i))
            if i >= warmup:
                samples[name].append(took)
    return {name: _summary(values) for name, values in samples.items()}


def _overheads(result: dict[str, Any], peer: str) -> dict[str, float]:
    return {f"overhead_p50_ms_{name}": round(stats["p50_ms"] - result[peer]["p50_ms"], 3)
            for name, stats in result.items() if name != peer}


def _tool_phase(phase: str, calls: int, warmup: int, loop: asyncio.AbstractEventLoop) -> dict[str, Any]:
    from pi_memory import MemoryStore
    from pi_memory.integrations import langchain as lc
    from pi_memory.integrations import openai_agents as oa

    store = MemoryStore(tempfile.mkdtemp(prefix="integ-bench-"), memory_char_limit=LIMIT)
    store.load_from_disk()
    for i in range(20):
        store.add("memory", f"Seed fact {i:03d}: the staging deploy runs after the nightly build.")
    index = ("memory_add", "memory_replace", "memory_remove", "memory_read").index(phase)
    agents_tool = oa.memory_tools(store, recall=False)[index]
    lc_tool = lc.memory_tools(store, recall=False)[index]

    def args(i: int, side: str) -> dict[str, Any]:
        if phase == "memory_read":
            return {"target": "memory"}
        return {"target": "memory", "content": f"{side} fact {i:05d}: service {i % 7} deploys after the build."}

    def call(i: int, side: str) -> dict[str, Any]:
        return {"type": "tool_call", "id": f"c{i}", "name": phase, "args": args(i, side)}

    def direct(i: int) -> Any:
        return store.read("memory") if phase == "memory_read" else store.add("memory", args(i, "direct")["content"])

    sides: dict[str, Callable[[int], Any]] = {
        "direct": direct,
        "openai_agents": lambda i: loop.run_until_complete(
            agents_tool.on_invoke_tool(None, json.dumps(args(i, "agents")))),  # type: ignore[arg-type]
        "langchain_sync": lambda i: lc_tool.invoke(call(i, "lcsync")),
        "langchain_async": lambda i: loop.run_until_complete(lc_tool.ainvoke(call(i, "lcasync"))),
    }
    result = _alternate(sides, calls, warmup)
    return {**result, **_overheads(result, "direct")}


def bench_tools(calls: int, warmup: int) -> dict[str, Any]:
    loop = asyncio.new_event_loop()
    try:
        return {phase: _tool_phase(phase, calls, warmup, loop) for phase in ("memory_read", "memory_add")}
    finally:
        loop.close()


def bench_session(calls: int, warmup: int) -> dict[str, Any]:
    from agents.memory import SQLiteSession

    from pi_memory.integrations.openai_agents import PiSession

    loop = asyncio.new_event_loop()
    directory = tempfile.mkdtemp(prefix="integ-bench-session-")
    os.environ["PI_CODING_AGENT_DIR"] = directory
    sqlite = SQLiteSession("bench", os.path.join(directory, "agents.db"))
    pi = PiSession("bench", cwd="/bench/project")
    item = {"role": "user", "content": "A short user message about the deploy schedule."}
    sides: dict[str, Callable[[int], Any]] = {
        "agents_sqlite": lambda i: loop.run_until_complete(sqlite.add_items([dict(item)])),
        "pi_session": lambda i: loop.run_until_complete(pi.add_items([dict(item)])),
    }
    add = _alternate(sides, calls, warmup)
    reads = {"agents_sqlite": lambda i: loop.run_until_complete(sqlite.get_items()),
             "pi_session": lambda i: loop.run_until_complete(pi.get_items())}
    get = _alternate(reads, max(10, calls // 10), 2)
    loop.close()
    return {"add_items_one": {**add, **_overheads(add, "agents_sqlite")},
            f"get_items_all_{calls + warmup}": {**get, **_overheads(get, "agents_sqlite")}}


def bench_store(calls: int, warmup: int) -> dict[str, Any]:
    from langgraph.store.memory import InMemoryStore

    from pi_memory.integrations.langgraph import STATIC_EMBEDDING_DIMS, PiStore, static_embeddings

    directory = tempfile.mkdtemp(prefix="integ-bench-store-")
    stores = {"in_memory": InMemoryStore(index={"dims": STATIC_EMBEDDING_DIMS, "embed": static_embeddings}),
              "pi_store": PiStore(os.path.join(directory, "store.db"))}
    for store in stores.values():
        for i in range(200):
            value = {"text": f"Seed fact {i}: user {i % 10} likes topic {i % 13}"}
            store.put(("users", f"u{i % 10}"), f"seed{i}", value)
    out: dict[str, Any] = {}
    for name, op in (
        ("put", lambda s, i: s.put(("users", "bench"), f"k{i}", {"text": f"Bench fact {i} about deploys"})),
        ("get", lambda s, i: s.get(("users", "u1"), f"seed{(i * 10 + 1) % 200}")),
        ("search_query", lambda s, i: s.search(("users",), query="which topic does the user like", limit=5)),
    ):
        result = _alternate({k: (lambda i, s=s, op=op: op(s, i)) for k, s in stores.items()}, calls, warmup)
        out[name] = {**result, **_overheads(result, "in_memory")}
    stores["pi_store"].close()  # type: ignore[attr-defined]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    args = parser.parse_args()
    from agents import set_tracing_disabled

    from pi_memory import __version__

    set_tracing_disabled(True)
    report = {
        "bench": "integrations_bench_b",
        "peer": "the direct MemoryStore call; the Agents SDK's SQLiteSession; LangGraph's InMemoryStore",
        "ours_version": f"pi-memory {__version__}",
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "calls": args.calls,
        "warmup": args.warmup,
        "tools": bench_tools(args.calls, args.warmup),
        "session": bench_session(args.calls, args.warmup),
        "langgraph_store": bench_store(args.calls, args.warmup),
    }
    text = json.dumps(report, indent=2)
    print(text)
    RESULTS.write_text(text + "\n", encoding="utf-8")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
