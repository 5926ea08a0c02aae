#!/usr/bin/env python3
"""MemoryStore against hermes-agent 0.19.0's MemoryStore: same phases, same disk, one run.

The phases and payloads are those of ``../shared/bench/hermes_bench.py`` (its
``_entry``/``_replacement`` functions are imported, so both sides write the
same bytes):

  scan200     the threat scanner alone over the 200 add payloads (no I/O)
  add200      200 x add("memory", ...) with the limit raised to 1,000,000
  replace100  100 x replace("memory", "[id=NNNN]", ...)
  remove50     50 x remove("memory", "[id=NNNN]")
  read        a fresh store's load_from_disk() (read, dedupe, scan, render the frozen block)
  prompt      format_for_system_prompt("memory") + ("user")
  render      rebuilding the memory block from the live entries (sanitise + render)
  tool_add50  50 adds to "user" through the tool layer (ours: the async memory_add tool;
              hermes: its JSON dispatcher memory_tool())

hermes runs with the interpreter of its own venv (``scripts/hermes_venv.sh``;
it installs top-level packages named tools/agent/utils, so never in ours).
Every repetition runs in a fresh interpreter on both sides, alternating which
side goes first, in a fresh directory under ``--base-dir``; fsync is on for
both (hermes always fsyncs; ours is durable by default and also fsyncs the
directory). Both scanners are compiled before timing (hermes does it at import).
Reported: medians over ``--reps`` and our/hermes ratios per phase; "prompt" is a
few microseconds on both sides (a lookup of the frozen string), so its ratio is noise.

    .venv/bin/python bench/store_bench.py            # prints JSON, writes bench/results/store_bench.json
    .venv/bin/python bench/store_bench.py --reps 3 --base-dir /dev/shm
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SHARED_BENCH = REPO.parent / "shared" / "bench" / "hermes_bench.py"
RESULTS = REPO / "bench" / "results" / "store_bench.json"
PHASES = ["scan200", "add200", "replace100", "remove50", "read", "prompt", "render", "tool_add50"]
PER_OP = {"scan200": 200, "add200": 200, "replace100": 100, "remove50": 50, "tool_add50": 50}


def _hermes_bench_module() -> Any:
    spec = importlib.util.spec_from_file_location("hermes_bench", SHARED_BENCH)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {SHARED_BENCH}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- our side (one repetition)


def run_ours_once(base_dir: str, limit: int, user_limit: int) -> dict[str, Any]:
    from pi_memory.memory import MemoryStore
    from pi_memory.memory.snapshot import render_block
    from pi_memory.memory.tools import create_memory_tools
    from pi_memory.security.threats import first_threat_message

    hb = _hermes_bench_module()
    home = tempfile.mkdtemp(prefix="ours-bench-", dir=base_dir)
    directory = Path(home) / "memories"
    t: dict[str, float] = {}
    try:
        store = MemoryStore(directory, memory_char_limit=limit, user_char_limit=user_limit)
        store.load_from_disk()
        payloads = [hb._entry(i) for i in range(200)]
        # hermes compiles its patterns at import, before its timed phases; ours compiles
        # lazily on the first call, so make that call here, untimed, to compare like with like.
        first_threat_message("warm-up", "strict")

        t0 = time.perf_counter()
        for p in payloads:
            first_threat_message(p, "strict")
        t["scan200"] = time.perf_counter() - t0

        t0 = time.perf_counter()
        add_ok = sum(bool(store.add("memory", p)["success"]) for p in payloads)
        t["add200"] = time.perf_counter() - t0

        for j in range(5):
            store.add("user", f"User detail {j}: prefers concise answers and metric units.")

        t0 = time.perf_counter()
        rep_ok = sum(
            bool(store.replace("memory", f"[id={i:04d}]", hb._replacement(i))["success"]) for i in range(100)
        )
        t["replace100"] = time.perf_counter() - t0

        t0 = time.perf_counter()
        rem_ok = sum(bool(store.remove("memory", f"[id={i:04d}]")["success"]) for i in range(150, 200))
        t["remove50"] = time.perf_counter() - t0

        t0 = time.perf_counter()
        fresh = MemoryStore(directory, memory_char_limit=limit, user_char_limit=user_limit)
        fresh.load_from_disk()
        n_live = len(fresh.get_entries("memory")) + len(fresh.get_entries("user"))
        t["read"] = time.perf_counter() - t0

        t0 = time.perf_counter()
        mem_block = fresh.format_for_system_prompt("memory")
        user_block = fresh.format_for_system_prompt("user")
        t["prompt"] = time.perf_counter() - t0

        t0 = time.perf_counter()
        rebuilt = render_block("memory", fresh.get_entries("memory"), "MEMORY.md", limit)
        t["render"] = time.perf_counter() - t0
        assert rebuilt == mem_block

        tool_store = MemoryStore(directory, memory_char_limit=limit, user_char_limit=user_limit)
        tool_store.load_from_disk()
        tools = create_memory_tools(tool_store)

        async def tool_adds() -> int:
            ok = 0
            for i in range(50):
                result = await tools["memory_add"](target="user", content=f"Tool-path fact {i}: user works in UTC.")
                ok += bool(result.structured_content.get("success"))
            return ok

        t0 = time.perf_counter()
        tool_ok = asyncio.run(tool_adds())
        t["tool_add50"] = time.perf_counter() - t0

        file_bytes = (directory / "MEMORY.md").stat().st_size
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return {
        "times_s": t,
        "counts": {
            "add_ok": add_ok,
            "replace_ok": rep_ok,
            "remove_ok": rem_ok,
            "live_entries_after_reload": n_live,
            "tool_add_ok": tool_ok,
        },
        "sizes": {
            "memory_block_chars": len(mem_block),
            "user_block_chars": len(user_block),
            "memory_file_bytes": file_bytes,
        },
    }


# ---------------------------------------------------------------- orchestration


def _hermes_python(explicit: str | None) -> str:
    if explicit:
        return explicit
    venv = os.environ.get("HERMES_VENV", "/tmp/hermes-venv")
    python = Path(venv) / "bin" / "python"
    if not python.exists():
        print(f"creating the hermes venv at {venv} (scripts/hermes_venv.sh)", file=sys.stderr)
        out = subprocess.run(
            ["bash", str(REPO / "scripts" / "hermes_venv.sh")], check=True, capture_output=True, text=True
        )
        return out.stdout.strip().splitlines()[-1]
    return str(python)


def _run_hermes_once(python: str, base_dir: str, limit: int, user_limit: int) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as fh:
        out_path = fh.name
    try:
        subprocess.run(
            [
                python,
                str(SHARED_BENCH),
                "--reps",
                "1",
                "--limit",
                str(limit),
                "--user-limit",
                str(user_limit),
                "--base-dir",
                base_dir,
                "--json",
                out_path,
            ],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        )
        data = json.loads(Path(out_path).read_text())
    finally:
        os.unlink(out_path)
    run = data["runs"][0]
    shutil.rmtree(run["home"], ignore_errors=True)
    run["version"] = data["version"]
    return run


def _run_ours_once(base_dir: str, limit: int, user_limit: int) -> dict[str, Any]:
    out = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--worker",
            "--base-dir",
            base_dir,
            "--limit",
            str(limit),
            "--user-limit",
            str(user_limit),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


def _filesystem(path: str) -> str:
    for cmd in (["findmnt", "-no", "FSTYPE", "-T", path], ["stat", "-f", "-c", "%T", path]):
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, check=True)
        except (OSError, subprocess.CalledProcessError):
            continue
        if out.stdout.strip():
            return out.stdout.strip()
    return "unknown"


def _summary(runs: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    summary = {}
    for phase in PHASES:
        values = [r["times_s"][phase] for r in runs if phase in r["times_s"]]
        if not values:
            continue
        median = statistics.median(values)
        entry = {"median_ms": median * 1e3, "min_ms": min(values) * 1e3, "max_ms": max(values) * 1e3}
        if phase in PER_OP:
            entry["per_op_us"] = median / PER_OP[phase] * 1e6
        summary[phase] = entry
    return summary


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--limit", type=int, default=1_000_000)
    ap.add_argument("--user-limit", type=int, default=1_000_000)
    ap.add_argument(
        "--base-dir",
        default=None,
        help="parent of the per-repetition store dirs, for both sides (default: a temp dir in the repo, "
        "i.e. on the repo's disk)",
    )
    ap.add_argument("--hermes-python", default=None, help="interpreter of the hermes-agent venv")
    ap.add_argument("--json", default=str(RESULTS), help="where to write the results (default: %(default)s)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.worker:
        print(json.dumps(run_ours_once(args.base_dir, args.limit, args.user_limit)))
        return 0

    hermes_python = _hermes_python(args.hermes_python)
    owned_base = args.base_dir is None
    base_dir = tempfile.mkdtemp(prefix=".store-bench-", dir=REPO) if owned_base else args.base_dir
    ours: list[dict[str, Any]] = []
    hermes: list[dict[str, Any]] = []
    started = time.perf_counter()
    try:
        for rep in range(args.reps):
            sides = [("hermes", hermes), ("ours", ours)]
            if rep % 2:
                sides.reverse()  # alternate who goes first, so disk drift hits both alike
            for side, runs in sides:
                if side == "hermes":
                    runs.append(_run_hermes_once(hermes_python, base_dir, args.limit, args.user_limit))
                else:
                    runs.append(_run_ours_once(base_dir, args.limit, args.user_limit))
    finally:
        if owned_base:
            shutil.rmtree(base_dir, ignore_errors=True)

    ours_summary, hermes_summary = _summary(ours), _summary(hermes)
    ratios = {
        phase: round(ours_summary[phase]["median_ms"] / hermes_summary[phase]["median_ms"], 3)
        if hermes_summary[phase]["median_ms"] > 0
        else None
        for phase in PHASES
        if phase in ours_summary and phase in hermes_summary
    }
    from importlib.metadata import version

    result = {
        "bench": "store_bench",
        "peer": f"hermes-agent {hermes[0]['version']}",
        "ours_version": f"pi-memory {version('pi-memory')}",
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "base_dir": base_dir if not owned_base else f"{REPO}/.store-bench-* (removed)",
        "filesystem": _filesystem(str(REPO) if owned_base else base_dir),
        "fsync": {"ours": "temp file + directory", "hermes": "temp file"},
        "reps": args.reps,
        "limit": args.limit,
        "wall_s": round(time.perf_counter() - started, 2),
        "ratio_ours_over_hermes": ratios,
        "phases_over_target": sorted(p for p, r in ratios.items() if r is not None and r > 1.0),
        "ours": ours_summary,
        "hermes": hermes_summary,
        "counts": {"ours": ours[0]["counts"], "hermes": hermes[0]["counts"]},
        "sizes": {"ours": ours[0]["sizes"], "hermes": hermes[0]["sizes"]},
        "runs": {
            "ours": [r["times_s"] for r in ours],
            "hermes": [{k: v for k, v in r["times_s"].items() if k in PHASES} for r in hermes],
        },
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
