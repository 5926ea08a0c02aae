#!/usr/bin/env python3
"""Start-up time of the ``pi-memory`` command, against ``llm --version`` (PyPI's ``llm``) in the same run.

  status  ``pi-memory status``: spawn to exit (a seeded MEMORY.md / USER.md)
  read    ``pi-memory read``: spawn to exit
  chat    ``pi-memory chat -p hi``: spawn until a loopback server speaking the OpenAI Chat
          Completions wire format receives the first request (the model is a custom
          ``openai-completions`` provider in the agent dir's ``settings.json``; the default
          extensions load, as for a user); the reply is then streamed so the run ends normally
  mcp     ``pi-memory mcp``: spawn until the ``initialize`` response arrives over stdio
  mcp_sdk the same, for a bare server of the official MCP SDK (``Server`` + ``stdio_server``, no
          tools): what importing the SDK alone costs, the floor under ``mcp``
  peer    ``llm --version``: spawn to exit, from its own venv (created with ``pip install llm``
          when missing)

Runs are interleaved round by round (the order rotates each round) so machine noise hits every
command alike; each command runs ``--runs`` times after one warm-up round. Everything runs with a
temporary HOME, agent dir and ``LLM_USER_PATH``, so nothing real is read or touched. Reported per
command: median and p90 in seconds and ``ratio`` = our median / the peer's median; also the
in-process time of ``import pi_memory.cli.main`` and the third-party packages a plain
``status`` run imports.

    .venv/bin/python bench/cli_bench.py              # prints JSON, writes bench/results/cli_bench.json
    .venv/bin/python bench/cli_bench.py --runs 15 --llm-venv /tmp/pi-memory-llm-venv
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
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from harness import write_report

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results" / "cli_bench.json"
PI_MEMORY = str(Path(sys.executable).parent / "pi-memory")
GOALS = {"status": 0.3, "read": 0.3, "chat": 2.5, "mcp": 1.0}  # max ratio to the peer's median
HEAVY = ("anthropic", "openai", "numpy", "mcp", "tokenizers", "onnxruntime", "pydantic", "typer", "rich")
INITIALIZE = json.dumps({
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "cli_bench", "version": "0"}},
}) + "\n"


# ----------------------------------------------------------------------------- the loopback model


class _Model:
    """A Chat Completions endpoint that notes when the first request of a run arrives."""

    def __init__(self) -> None:
        self.first: float | None = None
        self.requests = 0
        self.got = threading.Event()
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                arrived = time.perf_counter()
                if model.first is None:
                    model.first = arrived
                model.requests += 1
                model.got.set()
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                chunks = [{"role": "assistant", "content": "ok"}, {}]
                body = "".join(
                    "data: " + json.dumps({"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m",
                                           "choices": [{"index": 0, "delta": delta,
                                                        "finish_reason": None if delta else "stop"}]}) + "\n\n"
                    for delta in chunks) + "data: [DONE]\n\n"
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def reset(self) -> None:
        self.first, self.requests = None, 0
        self.got.clear()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# ----------------------------------------------------------------------------- one timed run each


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PI_", "OPENAI_", "ANTHROPIC_", "LLM_"))}
    agent = home / ".pi" / "agent"
    env.update(HOME=str(home), PI_AGENT_HOME=str(agent), PI_CODING_AGENT_DIR=str(agent),
               LLM_USER_PATH=str(home / "llm"), NO_COLOR="1", PYTHONDONTWRITEBYTECODE="")
    return env


def _exit_time(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{argv} exited {done.returncode}: {done.stderr.decode(errors='replace')}")
    return elapsed


def _chat_time(model: _Model, env: dict[str, str], cwd: Path) -> float:
    model.reset()
    started = time.perf_counter()
    proc = subprocess.Popen([PI_MEMORY, "chat", "-p", "hi", "--model", "bench/bench-model"], env=env, cwd=cwd,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, err = proc.communicate(timeout=120)
    if proc.returncode != 0 or model.first is None:
        raise SystemExit(f"chat -p failed ({proc.returncode}, {model.requests} requests): "
                         f"{err.decode(errors='replace')}")
    return model.first - started


SDK_ONLY = """
import anyio
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

async def main() -> None:
    server = Server("bare")
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())

anyio.run(main)
"""


def _mcp_time(env: dict[str, str], cwd: Path, argv: list[str] | None = None) -> float:
    started = time.perf_counter()
    proc = subprocess.Popen(argv or [PI_MEMORY, "mcp"], env=env, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(INITIALIZE.encode())
    proc.stdin.flush()
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - started
    proc.communicate(timeout=60)  # closes stdin: the server ends
    if b'"serverInfo"' not in line:
        raise SystemExit(f"{argv or 'pi-memory mcp'} did not answer initialize: {line!r}")
    return elapsed


def _seed(home: Path, model_url: str) -> None:
    agent = home / ".pi" / "agent"
    memories = agent / "memories"
    memories.mkdir(parents=True)
    (memories / "MEMORY.md").write_text("\n§\n".join(f"Fact {i}: the staging deploy runs after build {i}."
                                                     for i in range(12)), encoding="utf-8")
    (memories / "USER.md").write_text("Prefers concise answers.\n§\nWorks in Python and TypeScript.", encoding="utf-8")
    settings = {"providers": {"bench": {"api": "openai-completions", "baseUrl": model_url, "apiKey": "none",
                                        "models": [{"id": "bench-model"}]}}}
    (agent / "settings.json").write_text(json.dumps(settings), encoding="utf-8")


def _ensure_llm(venv: Path) -> Path:
    llm = venv / "bin" / "llm"
    if not llm.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "llm"], check=True)
    return llm


def _summary(samples: list[float]) -> dict[str, Any]:
    ordered = sorted(samples)
    return {"runs": len(ordered), "median_s": round(statistics.median(ordered), 3),
            "p90_s": round(ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))], 3)}


def _imports(env: dict[str, str], cwd: Path) -> dict[str, Any]:
    """``import pi_memory.cli.main`` in-process (median of 5), and what a ``status`` run imports."""
    probe = "import time; t = time.perf_counter(); import pi_memory.cli.main; print(time.perf_counter() - t)"
    times = [float(subprocess.run([sys.executable, "-c", probe], env=env, cwd=cwd, capture_output=True, text=True,
                                  check=True).stdout) for _ in range(5)]
    dump = ("import atexit, sys, runpy\n"
            f"atexit.register(lambda: print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}),"
            " file=sys.stderr))\n"
            "sys.argv = ['pi-memory', 'status']\nrunpy.run_module('pi_memory.cli', run_name='__main__')\n")
    done = subprocess.run([sys.executable, "-c", dump], env=env, cwd=cwd, capture_output=True, text=True, check=False)
    return {"import_cli_main_s": round(statistics.median(times), 3),
            "status_imports": json.loads(done.stderr.strip().splitlines()[-1].replace("'", '"'))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--llm-venv", type=Path, default=Path(tempfile.gettempdir()) / "pi-memory-llm-venv")
    parser.add_argument("--no-write", action="store_true", help="print only; keep bench/results as is")
    opts = parser.parse_args()

    wall = time.perf_counter()
    llm = _ensure_llm(opts.llm_venv)
    model = _Model()
    with tempfile.TemporaryDirectory(prefix="pi-memory-cli-bench-") as base:
        home = Path(base) / "home"
        cwd = Path(base) / "work"
        cwd.mkdir(parents=True)
        _seed(home, model.url)
        env = _env(home)
        peer_version = subprocess.run([str(llm), "--version"], env=env, capture_output=True, text=True,
                                      check=True).stdout.strip()
        commands: dict[str, Callable[[], float]] = {
            "peer": lambda: _exit_time([str(llm), "--version"], env, cwd),
            "status": lambda: _exit_time([PI_MEMORY, "status"], env, cwd),
            "read": lambda: _exit_time([PI_MEMORY, "read"], env, cwd),
            "chat": lambda: _chat_time(model, env, cwd),
            "mcp": lambda: _mcp_time(env, cwd),
            "mcp_sdk": lambda: _mcp_time(env, cwd, [sys.executable, "-c", SDK_ONLY]),
        }
        names = list(commands)
        samples: dict[str, list[float]] = {name: [] for name in names}
        for round_ in range(opts.runs + 1):  # round 0 warms the caches and is not recorded
            order = names[round_ % len(names):] + names[:round_ % len(names)]
            for name in order:
                elapsed = commands[name]()
                if round_:
                    samples[name].append(elapsed)
        imports = _imports(env, cwd)
    model.close()

    peer = _summary(samples["peer"])
    report: dict[str, Any] = {
        "bench": "cli_bench",
        "peer": f"`llm --version` ({peer_version}, PyPI, its own venv), spawn to exit",
        "peer_version": peer_version,
        "ours_version": subprocess.run([PI_MEMORY, "--version"], capture_output=True, text=True).stdout.strip(),
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "runs": opts.runs,
        "peer_s": peer,
        "commands": {},
        **imports,
    }
    for name in ("status", "read", "chat", "mcp"):
        stats = _summary(samples[name])
        ratio = round(stats["median_s"] / peer["median_s"], 2)
        report["commands"][name] = {**stats, "ratio": ratio, "goal_ratio": GOALS[name], "met": ratio <= GOALS[name]}
    sdk = _summary(samples["mcp_sdk"])
    report["mcp_sdk_only"] = {**sdk, "ratio": round(sdk["median_s"] / peer["median_s"], 2)}
    report["wall_s"] = round(time.perf_counter() - wall, 1)
    write_report(report, None if opts.no_write else RESULTS)


if __name__ == "__main__":
    main()
