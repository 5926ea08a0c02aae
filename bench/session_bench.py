"""Open + build_session_context on 1k and 10k-entry sessions: pi_memory.session vs pi 1.6.0.

Both sides time the same file, written by pi's own SessionManager (the workload of
../shared/bench/pi_session_perf.mjs: alternating user/assistant messages). pi is timed in Node
with ``tests/interop/pi_session_bench.mjs`` (open + buildSessionContext, in one process, like
the shared script); we time ``SessionManager.open(path).build_session_context()`` in this
process. Rounds alternate between the two so machine noise hits both alike. Prints JSON and
writes ``bench/results/session_bench.json``; ``ratio`` is ours / pi on the medians (target ≤ 1.5).

    .venv/bin/python bench/session_bench.py [--runs 7] [--rounds 3] [--sizes 1000,10000]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
INTEROP = ROOT / "tests" / "interop"
sys.path.insert(0, str(ROOT / "src"))

from pi_memory.session import SessionManager  # noqa: E402


def node(*args: str) -> Any:
    proc = subprocess.run(
        ["node", str(INTEROP / "pi_session_bench.mjs"), *args], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(
            f"node failed ({proc.returncode}); run `bash scripts/test.sh` to install the peers\n{proc.stderr}"
        )
    return json.loads(proc.stdout)


def time_ours(path: str, runs: int) -> tuple[list[float], int]:
    times: list[float] = []
    count = 0
    for _ in range(runs):
        start = time.perf_counter()
        sm = SessionManager.open(path)
        context = sm.build_session_context()
        times.append((time.perf_counter() - start) * 1000)
        count = len(context.messages)
    return times, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per round and side")
    parser.add_argument("--rounds", type=int, default=3, help="alternating pi/ours rounds")
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "session_bench.json"))
    args = parser.parse_args()

    results = []
    with tempfile.TemporaryDirectory() as scratch:
        for size in (int(s) for s in args.sizes.split(",")):
            path = node("make", f"{scratch}/n{size}", str(size))["file"]
            pi_times: list[float] = []
            our_times: list[float] = []
            for _ in range(args.rounds):
                timed = node("time", path, str(args.runs))
                assert timed["messages"] == size, timed
                pi_times += timed["ms"]
                ours, count = time_ours(path, args.runs)
                assert count == size, count
                our_times += ours
            pi_median = statistics.median(pi_times)
            our_median = statistics.median(our_times)
            results.append(
                {
                    "entries": size,
                    "bytes": Path(path).stat().st_size,
                    "pi_ms_median": round(pi_median, 2),
                    "pi_ms_min": round(min(pi_times), 2),
                    "ours_ms_median": round(our_median, 2),
                    "ours_ms_min": round(min(our_times), 2),
                    "ratio": round(our_median / pi_median, 2),
                    "ratio_min": round(min(our_times) / min(pi_times), 2),
                }
            )
    report = {
        "benchmark": "session open + build_session_context",
        "peer": "@earendil-works/pi-coding-agent 1.6.0 SessionManager under Node "
        + subprocess.run(["node", "--version"], capture_output=True, text=True, check=False).stdout.strip(),
        "python": platform.python_version(),
        "runs_per_side": args.runs * args.rounds,
        "target_ratio": 1.5,
        "results": results,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
