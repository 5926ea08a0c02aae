"""The UI at scale: first paint of the Recall, Sessions and Dreaming pages, and their API latencies.

Builds a temp agent dir with ``--sessions`` session files (``--messages`` messages each, over ten
projects; 1,000 × 10 = 10,000 recall messages by default) written by our ``SessionManager``,
indexes them with ``pi-memory recall index``'s backfill, starts ``pi-memory ui`` as a subprocess
on loopback, and loads each page in Debian's Chromium (``/usr/bin/chromium``, Python playwright)
in a fresh browser context per load. Per page: first paint and first contentful paint (the
browser's ``paint`` performance entries) and "content" — when the page's data is on screen (the
first hit, session row, tree entry or gate table).

Named peer, in the same run and alternated with ours: the session listing. pi's ``/resume`` (all
projects) is ``SessionManager.listAll()`` in pi 1.6.0 under Node, which parses every session
file; the page lists a page of 50 sorted by file mtime. Both are timed over the same files, with
our own full listing (``SessionManager.list_all()``, the same work as pi's) beside them. For
search, ``pi-memory recall search --json`` (the CLI, process start included) is timed against the
page's ``/api/recall/search`` on the same index.

    python bench/ui_bench.py                       # prints JSON, writes bench/results/ui_bench.json
    python bench/ui_bench.py --sessions 200 --runs 2 --out /tmp/ui.json
"""

from __future__ import annotations

import argparse
import contextlib
import http.cookiejar
import importlib.util
import json
import os
import platform
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NODE_MODULES = ROOT / "tests" / "interop" / "node_modules"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
QUERY = "staging database latency"

PI_LIST_ALL = """
const path = await import("node:path");
const { SessionManager } = await import(path.join(process.argv[1],
  "@earendil-works/pi-coding-agent/dist/core/session-manager.js"));
const t0 = performance.now();
const all = await SessionManager.listAll();
const ms = performance.now() - t0;
console.log(JSON.stringify({ms, sessions: all.length}));
"""


def _seed_module() -> Any:
    spec = importlib.util.spec_from_file_location("_ui_bench_seed", ROOT / "tests" / "ui" / "uidata_seed.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def build(agent: Path, sessions: int, messages: int) -> dict[str, Any]:
    from pi_memory.recall import open_index
    from pi_memory.recall.backfill import backfill

    seed = _seed_module()
    started = time.perf_counter()
    ids = seed.bulk_sessions(agent / "sessions", sessions, messages, projects=10)
    written = time.perf_counter() - started
    index = open_index(agent / "recall.db")
    started = time.perf_counter()
    try:
        backfill(index, agent / "sessions", agent / "recall.db.backfill.json")
        count = index.count()
    finally:
        index.close()
    return {"sessions": len(ids), "messages": count, "write_s": round(written, 2),
            "index_s": round(time.perf_counter() - started, 2), "ids": ids}


@contextlib.contextmanager
def server(agent: Path, cwd: Path, env: dict[str, str]) -> Iterator[str]:
    """``pi-memory ui`` on a free loopback port; yields the URL with the token it printed."""
    port = _free_port()
    exe = Path(sys.executable).with_name("pi-memory")
    proc = subprocess.Popen([str(exe), "ui", "--no-browser", "--port", str(port)], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = None
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and url is None:
            line = proc.stdout.readline()
            if not line:
                break
            found = re.search(r"http://127\.0\.0\.1:\d+/\?token=\S+", line)
            url = found.group(0) if found else None
        if url is None:
            raise RuntimeError("pi-memory ui did not print its URL")
        for _ in range(100):  # until it answers
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _opener(url: str) -> urllib.request.OpenerDirector:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(url).read()  # sets the token cookie, redirects to the clean URL
    return opener


def _quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"p50": round(statistics.median(ordered), 2),
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2),
            "min": round(ordered[0], 2), "max": round(ordered[-1], 2), "n": len(ordered)}


def api_latencies(url: str, session_id: str, repeat: int) -> dict[str, dict[str, float]]:
    base = url.split("/?", 1)[0]
    opener = _opener(url)
    paths = {
        "recall_search": f"/api/recall/search?q={urllib.request.quote(QUERY)}&topK=10",
        "recall_important": "/api/recall/important?threshold=0.7&limit=10",
        "sessions_projects": "/api/sessions/projects",
        "sessions_page_all": "/api/sessions?project=all&offset=0&limit=50",
        "session_tree": f"/api/sessions/{session_id}",
        "dreaming": "/api/dreaming",
    }
    opener.open(base + paths["recall_search"]).read()  # the first search loads the embedding table
    out: dict[str, list[float]] = {name: [] for name in paths}
    for _ in range(repeat):
        for name, path in paths.items():
            started = time.perf_counter()
            body = opener.open(base + path).read()
            out[name].append((time.perf_counter() - started) * 1000)
            json.loads(body)
    return {name: _quantiles(values) for name, values in out.items()}


def page_paints(url: str, session_id: str, runs: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    base = url.split("/?", 1)[0]
    pages = {
        "recall": (f"/#/recall?q={urllib.request.quote(QUERY)}", ".pm-hit"),
        "sessions": ("/#/sessions", ".pm-session"),
        "session_tree": (f"/#/sessions/{session_id}", ".pm-entry"),
        "dreaming": ("/#/dreaming", "#dreaming-gates:has-text('new turn(s);')"),
    }
    found: dict[str, dict[str, list[float]]] = {name: {"first_paint": [], "fcp": [], "content": []}
                                                for name in pages}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for _ in range(runs):
                for name, (hash_path, ready) in pages.items():
                    context = browser.new_context(viewport={"width": 1280, "height": 800})
                    page = context.new_page()
                    page.goto(url)  # the token → cookie → clean URL
                    page.wait_for_load_state("networkidle")
                    page.goto("about:blank")
                    page.goto(base + hash_path)
                    page.wait_for_selector(ready, timeout=120_000)
                    timing = page.evaluate("""() => {
                        const paint = Object.fromEntries(performance.getEntriesByType('paint')
                            .map((e) => [e.name, e.startTime]));
                        return {fp: paint['first-paint'] ?? null, fcp: paint['first-contentful-paint'] ?? null,
                                content: performance.now()};
                    }""")
                    found[name]["first_paint"].append(timing["fp"])
                    found[name]["fcp"].append(timing["fcp"])
                    found[name]["content"].append(timing["content"])
                    context.close()
        finally:
            browser.close()
    return {name: {metric: _quantiles([v for v in values if v is not None]) for metric, values in metrics.items()}
            for name, metrics in found.items()}


def peers(agent: Path, env: dict[str, str], cwd: Path, runs: int) -> dict[str, Any]:
    """pi's listAll (Node) vs our full listing vs the page's paged listing; CLI search vs API."""
    from pi_memory.ui import api_sessions

    root = str(agent / "sessions")
    out: dict[str, list[float]] = {"pi_listAll_node": [], "ours_list_all_full": [], "ui_page_of_50": [],
                                   "cli_recall_search_process": []}
    exe = Path(sys.executable).with_name("pi-memory")
    for _ in range(runs):
        proc = subprocess.run(["node", "--input-type=module", "-e", PI_LIST_ALL, str(NODE_MODULES)], env=env,
                              capture_output=True, text=True, check=True)
        out["pi_listAll_node"].append(json.loads(proc.stdout)["ms"])
        from pi_memory.session import SessionManager

        started = time.perf_counter()
        os.environ["PI_CODING_AGENT_DIR"] = str(agent)
        SessionManager.list_all()
        out["ours_list_all_full"].append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        api_sessions.list_sessions(root, None, offset=0, limit=50)
        out["ui_page_of_50"].append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        subprocess.run([str(exe), "recall", "search", QUERY, "--json", "--top-k", "10"], env=env, cwd=cwd,
                       capture_output=True, check=True)
        out["cli_recall_search_process"].append((time.perf_counter() - started) * 1000)
    return {name: _quantiles(values) for name, values in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--api-repeat", type=int, default=20)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "ui_bench.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pi-memory-ui-bench-") as tmp:
        home = Path(tmp)
        agent = home / "agent"
        cwd = home / "work"
        cwd.mkdir()
        env = {**os.environ, "HOME": str(home), "PI_CODING_AGENT_DIR": str(agent), "PI_AGENT_HOME": str(agent)}
        env.pop("PI_MEMORY_RECALL_URL", None)
        os.environ.update({k: env[k] for k in ("PI_CODING_AGENT_DIR", "PI_AGENT_HOME")})
        corpus = build(agent, args.sessions, args.messages)
        session_id = corpus.pop("ids")[-1]
        with server(agent, cwd, env) as url:
            api = api_latencies(url, session_id, args.api_repeat)
            paints = page_paints(url, session_id, args.runs)
        compared = peers(agent, env, cwd, args.runs)
    result = {
        "benchmark": "ui_bench",
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "corpus": corpus,
        "page_ms": paints,
        "api_ms": api,
        "peers_ms": compared,
        "notes": ("page_ms: first_paint / fcp are Chromium's paint entries, content is when the page's data is on "
                  "screen (ms since navigation start); a fresh browser context per load. peers_ms: pi_listAll_node is "
                  "pi 1.6.0's SessionManager.listAll() under Node over the same files (what /resume lists), timed "
                  "inside Node; ours_list_all_full is SessionManager.list_all() here (the same work); ui_page_of_50 "
                  "is the listing the page asks for."),
    }
    text = json.dumps(result, indent=2)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
