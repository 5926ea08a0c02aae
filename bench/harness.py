"""What the benchmarks share: timing two or more sides call by call in turns, summarising
latencies, loading a peer's script from a path, and printing/writing the JSON report.

Run as scripts (``python bench/x.py``), the benchmarks find this module beside them. Sides take
turns in a rotating order so that the machine's noise (other processes, disk flushes) falls on
every side alike; that is what makes a ratio against a peer in the same run meaningful.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import os
import statistics
import time
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["SHARED", "alternate", "alternate_async", "latency_summary", "load_module", "write_report"]

#: The data beside the repository (``../shared``: peers' scripts, LoCoMo), or where
#: ``$PI_MEMORY_SHARED_DATA`` says (a git worktree has no ``../shared``), as for the tests.
SHARED = Path(os.environ.get("PI_MEMORY_SHARED_DATA") or Path(__file__).resolve().parents[2] / "shared")

Side = Callable[[int], Any]


def latency_summary(samples: list[float]) -> dict[str, float]:
    """p50/p95/mean in milliseconds and calls per second of per-call latencies in seconds."""
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 3),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 3),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 3),
        "calls_per_s": round(len(ordered) / sum(ordered), 1),
    }


def _turns(names: list[str], i: int) -> list[str]:
    shift = i % len(names)
    return names[shift:] + names[:shift]


def alternate(sides: Mapping[str, Side], calls: int, warmup: int,
              run: Callable[[Awaitable[Any]], Any] | None = None) -> dict[str, list[float]]:
    """Each side's latency per call (after ``warmup`` rounds), the sides taking turns in a
    rotating order. ``sides[name](i)`` makes call ``i``; an awaitable it returns is finished by
    ``run`` (e.g. ``loop.run_until_complete``) inside the timed span."""
    samples: dict[str, list[float]] = {name: [] for name in sides}
    for i in range(warmup + calls):
        for name in _turns(list(sides), i):
            begun = time.perf_counter()
            outcome = sides[name](i)
            if inspect.isawaitable(outcome):
                if run is None:
                    raise TypeError(f"side {name!r} returned an awaitable and no run() was given")
                run(outcome)
            elapsed = time.perf_counter() - begun
            if i >= warmup:
                samples[name].append(elapsed)
    return samples


async def alternate_async(sides: Mapping[str, Callable[[int], Awaitable[Any]]], calls: int,
                          warmup: int) -> dict[str, list[float]]:
    """:func:`alternate` for coroutine sides inside a running event loop."""
    samples: dict[str, list[float]] = {name: [] for name in sides}
    for i in range(warmup + calls):
        for name in _turns(list(sides), i):
            begun = time.perf_counter()
            await sides[name](i)
            elapsed = time.perf_counter() - begun
            if i >= warmup:
                samples[name].append(elapsed)
    return samples


def load_module(name: str, path: Path) -> ModuleType:
    """A peer's script (``../shared/bench/...``) imported from its path."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_report(report: Any, path: Path | None) -> str:
    """Print ``report`` as indented JSON and write it to ``path`` (skipped when ``None``)."""
    text = json.dumps(report, indent=2)
    print(text)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    return text
