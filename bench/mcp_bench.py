#!/usr/bin/env python3
"""Tool-call round trip through ``pi-memory mcp`` over stdio, against the in-process call.

  mcp     the official SDK ``ClientSession`` calling the tool on a ``pi-memory mcp`` subprocess
          (JSON-RPC over pipes, the SDK on both ends, the store in the server)
  direct  the peer: ``await tools[name](**args)`` in this process — the same tool object, the
          same store code, the same bounded ToolResult, no protocol

Phases (each on a fresh memory directory, fsync on): ``memory_read`` of a 20-entry MEMORY.md,
and ``memory_add`` of distinct ~80-char entries (limit raised so nothing is refused; add results
grow to the 12 KiB / 100-entry bound, so later adds carry bigger payloads). The two sides
alternate call by call, so disk and scheduler noise hits both; every call's latency is recorded
after a warm-up. Reported: p50/p95/mean in ms, calls/s, and the
overhead of MCP per call (p50 mcp - p50 direct). Also reported: the server's start-up time (spawn
to initialized), which an MCP client pays once per session.

    .venv/bin/python bench/mcp_bench.py              # prints JSON, writes bench/results/mcp_bench.json
    .venv/bin/python bench/mcp_bench.py --calls 100
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

from harness import alternate_async, latency_summary, write_report
from pi_memory import __version__
from pi_memory.memory import MemoryStore, create_memory_tools

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results" / "mcp_bench.json"
LIMIT = 1_000_000


def _entry(i: int) -> str:
    return f"Fact {i:05d}: the staging deploy for service {i % 7} runs after the nightly build."


def _seed(directory: Path) -> None:
    store = MemoryStore(directory, memory_char_limit=LIMIT)
    for i in range(20):
        store.add("memory", _entry(100_000 + i))


def _args(phase: str, i: int) -> dict[str, Any]:
    return {"target": "memory"} if phase == "read" else {"target": "memory", "content": _entry(i)}


async def _compare(phase: str, mcp_dir: Path, direct_dir: Path, calls: int, warmup: int) -> dict[str, Any]:
    """Time the two sides call by call, alternating which goes first, so disk noise hits both."""
    name = "memory_read" if phase == "read" else "memory_add"
    tools = create_memory_tools(MemoryStore(direct_dir, memory_char_limit=LIMIT))
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "pi_memory.cli", "mcp", "--dir", str(mcp_dir), "--memory-limit", str(LIMIT)],
    )
    started = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        startup = time.perf_counter() - started
        await session.list_tools()  # the client validates results against the listed output schemas

        async def via_mcp(i: int) -> None:
            if (await session.call_tool(name, _args(phase, i))).is_error:
                raise SystemExit(f"{name} failed during the benchmark (mcp)")

        async def direct(i: int) -> None:
            if (await tools[name](**_args(phase, i))).is_error:
                raise SystemExit(f"{name} failed during the benchmark (direct)")

        samples = await alternate_async({"mcp": via_mcp, "direct": direct}, calls, warmup)
    return {"samples": samples, "startup": startup}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--no-write", action="store_true", help="print only; keep bench/results as is")
    opts = parser.parse_args()

    wall = time.perf_counter()
    report: dict[str, Any] = {
        "bench": "mcp_bench",
        "peer": "direct in-process tool call (same tool objects and store)",
        "ours_version": f"pi-memory {__version__}",
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {__import__('os').cpu_count()} CPUs",
        "transport": "stdio, official mcp SDK ClientSession <-> pi-memory mcp subprocess",
        "calls": opts.calls,
        "warmup": opts.warmup,
        "phases": {},
    }
    startups = []
    for phase in ("read", "add"):
        with tempfile.TemporaryDirectory() as base:
            mcp_dir, direct_dir = Path(base) / "mcp", Path(base) / "direct"
            if phase == "read":
                _seed(mcp_dir)
                _seed(direct_dir)
            measured = anyio.run(_compare, phase, mcp_dir, direct_dir, opts.calls, opts.warmup)
        mcp_samples, direct_samples = measured["samples"]["mcp"], measured["samples"]["direct"]
        startups.append(measured["startup"])
        mcp_stats, direct_stats = latency_summary(mcp_samples), latency_summary(direct_samples)
        report["phases"][f"memory_{phase}"] = {
            "mcp": mcp_stats,
            "direct": direct_stats,
            "overhead_p50_ms": round(mcp_stats["p50_ms"] - direct_stats["p50_ms"], 3),
            "ratio_p50_mcp_over_direct": round(mcp_stats["p50_ms"] / direct_stats["p50_ms"], 2),
        }
    report["server_startup_s"] = round(statistics.median(startups), 2)
    report["wall_s"] = round(time.perf_counter() - wall, 1)
    write_report(report, None if opts.no_write else RESULTS)


if __name__ == "__main__":
    main()
