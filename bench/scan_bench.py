"""Threat-scanner benchmark: throughput on mixed memory text and growth on adversarial inputs.

Compares ``pi_memory.security.scan`` (scope ``strict``) with the hermes pattern list and the
pi-memory (unbounded filler) list, both taken at run time from the evaluation harness we were
given (``/work/shared/bench/threats/threat_eval.py``, loaded by path, not copied).

Prints JSON and writes ``bench/results/scan_bench.json``::

    .venv/bin/python bench/scan_bench.py [--mb 10] [--harness PATH] [--corpus PATH]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from pi_memory.security import MAX_SCAN_CHARS, scan

HERE = Path(__file__).resolve().parent
DEFAULT_HARNESS = Path("/work/shared/bench/threats/threat_eval.py")
Scanner = Callable[[str], Any]


def _load_harness(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("threat_eval", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mixed_entries(rows: list[dict[str, str]], target_bytes: int, seed: int = 7) -> list[str]:
    """~2 KB memory entries: 80 % benign notes (incl. multilingual and emoji), 20 % threats."""
    rnd = random.Random(seed)
    benign = [r["text"] for r in rows if r["label"] == "benign"]
    threats = [r["text"] for r in rows if r["label"] == "threat"]
    entries: list[str] = []
    total = 0
    while total < target_bytes:
        parts: list[str] = []
        size = 0
        while size < 2000:
            text = rnd.choice(threats if rnd.random() < 0.2 else benign)
            parts.append(text)
            size += len(text) + 1
        entry = "\n".join(parts)
        entries.append(entry)
        total += len(entry.encode("utf-8"))
    return entries


def throughput(fn: Scanner, entries: list[str]) -> dict[str, float]:
    total = sum(len(e.encode("utf-8")) for e in entries)
    latencies: list[float] = []
    t0 = time.perf_counter()
    for entry in entries:
        s = time.perf_counter()
        fn(entry)
        latencies.append(time.perf_counter() - s)
    elapsed = time.perf_counter() - t0
    latencies.sort()
    return {
        "mb": round(total / 1e6, 2),
        "seconds": round(elapsed, 3),
        "mb_per_s": round(total / 1e6 / elapsed, 3),
        "p50_ms": round(1000 * latencies[len(latencies) // 2], 3),
        "p99_ms": round(1000 * latencies[int(len(latencies) * 0.99)], 3),
    }


ADVERSARIAL: dict[str, Callable[[int], str]] = {
    "ignore_all_repeated": lambda n: ("ignore all " * (n // 11 + 1))[:n],
    "filler_between_triggers": lambda n: "ignore " + ("word " * (n // 5 + 1))[: max(0, n - 20)] + "instructions",
    "curl_line_without_secret": lambda n: "curl " + ("-x " * (n // 3 + 1))[:n],
}


def best_time(fn: Scanner, text: str, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(text)
        best = min(best, time.perf_counter() - t0)
    return best


def growth(fn: Scanner, sizes: list[int]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for name, make in ADVERSARIAL.items():
        out[name] = {str(n): round(best_time(fn, make(n)), 5) for n in sizes}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--mb", type=float, default=10.0)
    ap.add_argument("--harness", type=Path, default=DEFAULT_HARNESS)
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=HERE / "results" / "scan_bench.json")
    args = ap.parse_args(argv)

    harness = _load_harness(args.harness)
    corpus = args.corpus or Path(harness.DEFAULT_CORPUS)
    rows = harness.load_corpus(str(corpus))
    entries = mixed_entries(rows, int(args.mb * 1_000_000))
    ours: Scanner = scan
    hermes: Scanner = harness.hermes_scan
    pi_memory: Scanner = harness.pi_memory_scan
    scan("warm up: compile the rule table")

    sizes = [16_384, 32_768, 65_536, 1_000_000]
    result: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "max_scan_chars": MAX_SCAN_CHARS,
        "mixed_text": {
            "description": "~2 KB entries, 80% benign corpus notes (tech, security, multilingual, emoji), "
            "20% threats; UTF-8 bytes",
            "pi_memory_security": throughput(ours, entries),
            "hermes_patterns": throughput(hermes, entries),
        },
        "adversarial_seconds": {
            "note": "best of 3; sizes in characters; both scanners cut input at 65,536 characters, so "
            "growth is linear up to the cap and flat after it",
            "pi_memory_security": growth(ours, sizes),
            "hermes_patterns": growth(hermes, sizes),
            # pi-memory's unbounded (?:\\w+\\s+)* filler is cubic: only tiny inputs finish.
            "pi_memory_upstream_unbounded": {
                "ignore_all_repeated": {
                    str(n): round(best_time(pi_memory, ("ignore all " * n), 1), 4) for n in (50, 100, 200)
                },
                "note": "sizes are repetitions of 'ignore all ' (11 chars each)",
            },
        },
    }
    ours_growth = result["adversarial_seconds"]["pi_memory_security"]
    result["adversarial_seconds"]["linear_check"] = {
        name: round(times["65536"] / max(times["16384"], 1e-9), 2) for name, times in ours_growth.items()
    }
    text = json.dumps(result, indent=2)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
