#!/usr/bin/env python3
"""MemoryStore writes with 1, 8 and 32 concurrent writer processes: PostgreSQL vs the file backend.

Every writer is its own process with its own store (its own pooled connection, or its own
lock-protocol client), as agents on a fleet are. All writers connect and load first, then start
together on a signal; each does ``TOTAL / writers`` adds of distinct ~80-char entries to the same
``MEMORY.md`` (limit raised so nothing is refused; ``lock_timeout`` 120 s so nobody gives up).
The same total number of adds is made at every concurrency, so ops/s compare directly.

  file      the default backend: proper-lockfile lock, temp file + fsync + rename + dir fsync
  postgres  PostgresBackend: one transaction per add holding the row lock (fsync on commit)

Reported per backend and concurrency (the median of ``--reps`` runs, all runs' ops/s listed):
ops/s (adds / wall time from the start signal to the last writer done), p50/p95 per-add latency,
and failures (must be 0); and postgres/file ratios. The machine is shared: expect noise. The
PostgreSQL server is pgserver's (PostgreSQL 16) on a Unix socket on this machine, data in the same
temp directory as the file backend, default settings (fsync on) — or ``--dsn`` for your own.

    .venv/bin/python bench/postgres_store_bench.py         # prints JSON, writes bench/results/…json
    .venv/bin/python bench/postgres_store_bench.py --total 320 --writers 1 8
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from harness import write_report

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results" / "postgres_store_bench.json"

WRITER = r"""
import json, sys, time
from pi_memory.memory import MemoryStore
kind, where, namespace, worker, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
if kind == "postgres":
    from pi_memory.backends.postgres import PostgresBackend
    store = MemoryStore(backend=PostgresBackend(where, namespace, pool_size=1), memory_char_limit=10**7,
                        lock_timeout=120)
else:
    store = MemoryStore(where, memory_char_limit=10**7, lock_timeout=120)
store.load_from_disk()
print("ready", flush=True)
sys.stdin.readline()
latencies, failures = [], 0
for i in range(count):
    started = time.perf_counter()
    ok = store.add("memory", f"Writer {worker:02d} fact {i:04d}: builds for service {i % 9} go through staging.")
    latencies.append(time.perf_counter() - started)
    failures += not ok["success"]
print(json.dumps({"latencies": latencies, "failures": failures}), flush=True)
"""


def run(kind: str, where: str, writers: int, total: int) -> dict[str, Any]:
    namespace = f"bench-{uuid.uuid4().hex[:8]}"
    if kind == "file":
        where = str(Path(where) / namespace)
    per_writer = total // writers
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, kind, where, namespace, str(n), str(per_writer)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for n in range(writers)
    ]
    for proc in procs:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "ready":
            raise SystemExit(f"a {kind} writer failed to start")
    started = time.perf_counter()
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    reports = [json.loads(proc.communicate(timeout=600)[0]) for proc in procs]
    wall = time.perf_counter() - started
    latencies = sorted(x for report in reports for x in report["latencies"])
    adds = len(latencies)
    return {
        "writers": writers,
        "adds": adds,
        "ops_per_s": round(adds / wall, 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 2),
        "p95_ms": round(latencies[int(0.95 * (adds - 1))] * 1000, 2),
        "failures": sum(report["failures"] for report in reports),
        "wall_s": round(wall, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--total", type=int, default=640, help="adds per run, split over the writers")
    parser.add_argument("--reps", type=int, default=3, help="runs per cell; the median run (by ops/s) is kept")
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--backends", nargs="+", default=["file", "postgres"], choices=["file", "postgres"])
    parser.add_argument("--dsn", help="use this PostgreSQL instead of starting pgserver")
    parser.add_argument("--no-write", action="store_true", help="print only; keep bench/results as is")
    opts = parser.parse_args()

    wall = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pg-store-bench-") as base:
        server = None
        dsn = opts.dsn
        if dsn is None:
            import pgserver

            server = pgserver.get_server(Path(base) / "pgdata", cleanup_mode="stop")
            dsn = server.get_uri()
        from pi_memory.backends.postgres import PostgresBackend

        PostgresBackend(dsn, "bench-setup").prepare()  # create the schema outside the timings
        results: dict[str, list[dict[str, Any]]] = {"file": [], "postgres": []}
        try:
            for writers in opts.writers:
                for kind in opts.backends:
                    runs = []
                    for _ in range(opts.reps):  # alternating backends per rep spreads machine noise over both
                        runs.append(run(kind, base if kind == "file" else dsn, writers, opts.total))
                    runs.sort(key=lambda r: r["ops_per_s"])
                    median = {**runs[len(runs) // 2], "ops_per_s_all_reps": [r["ops_per_s"] for r in runs]}
                    results[kind].append(median)
                    print(f"{kind:8s} {writers:2d} writers: {median['ops_per_s_all_reps']} ops/s", file=sys.stderr)
        finally:
            if server is not None:
                server.cleanup()
    report = {
        "bench": "postgres_store_bench",
        "peer": "file backend (same machine, same temp directory, fsync on)",
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "postgres": "pgserver PostgreSQL 16, Unix socket, default settings" if opts.dsn is None else "given DSN",
        "total_adds_per_run": opts.total,
        "reps": opts.reps,
        "results": results,
        "ratio_postgres_over_file_ops": {
            str(p["writers"]): round(p["ops_per_s"] / f["ops_per_s"], 2)
            for p, f in zip(results["postgres"], results["file"], strict=False)
        },
        "wall_s": round(time.perf_counter() - wall, 1),
    }
    write_report(report, None if opts.no_write else RESULTS)


if __name__ == "__main__":
    main()
