"""Recall index throughput and search latency at 10k and 100k synthetic messages, per backend.

Throughput = messages/s through ``add`` in batches of 256 (embed + store + commit), then one
``flush`` (what ``pi-memory recall index`` does; PostgreSQL builds its HNSW index there). Latency =
p50/p95 of ``search(top_k=5)`` over 200 real LoCoMo questions after the first (warm) search. The
corpus follows LoCoMo's word distribution with a Zipf tail (:func:`messages`), not a handful of
words. The named peer is brute force: a plain numpy cosine scan over the same static vectors with
no lexical half and no storage. PostgreSQL runs in ``pgserver``; Chroma is a ``chroma run``
server on loopback (``$PI_MEMORY_CHROMA_BIN``, as the tests use; ``scripts/test.sh`` installs it).

    .venv/bin/python bench/recall_bench.py [--sizes 10000 100000] [--backends sqlite postgres chroma] [--data DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import random
import re
import socket
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from harness import SHARED
from pi_memory.recall import SQLiteIndex, get_embedder

ROOT = Path(__file__).resolve().parents[1]
LOCOMO = SHARED / "bench" / "locomo"
CHROMA_BIN = os.environ.get("PI_MEMORY_CHROMA_BIN", "/tmp/pi-memory-chroma-venv/bin/chroma")
TAIL_TYPES = 60_000
"""Vocabulary size after extending LoCoMo's word list with a Zipf tail (see :func:`vocabulary`)."""
_WORD = re.compile(r"\w+")


def _locomo(data: Path | None = None) -> tuple[Counter[str], list[int], list[str]]:
    """Word counts, turn lengths (in words) and questions of the LoCoMo conversations (``--data``)."""
    data = data or LOCOMO
    counts: Counter[str] = Counter()
    lengths: list[int] = []
    questions: list[str] = []
    for path in sorted(data.glob("*.json")):
        conv = json.loads(path.read_text(encoding="utf-8"))
        n = 1
        while f"session_{n}" in conv:
            for turn in conv[f"session_{n}"]:
                words = _WORD.findall(turn["text"].lower())
                counts.update(words)
                lengths.append(max(1, len(words)))
            n += 1
        questions += [q["question"] for q in conv["qa"]]
    if not counts:
        raise SystemExit(f"no LoCoMo conversations in {data} (the realistic corpus is built from them)")
    return counts, lengths, questions


def vocabulary(counts: Counter[str], types: int = TAIL_TYPES) -> tuple[list[str], list[float]]:
    """LoCoMo's words with their real frequencies, then a Zipf tail (frequency ∝ 1/rank) of
    synthetic rare words up to ``types`` types. Three conversations hold only ~2,600 distinct
    words; a history of 100k messages (~2.5M words) holds tens of thousands (Heaps' law), and the
    rare ones are what a lexical index is fast on."""
    ranked = counts.most_common()
    words = [w for w, _ in ranked]
    weights = [float(c) for _, c in ranked]
    last_rank, last = len(ranked), weights[-1]
    for rank in range(last_rank + 1, types + 1):
        words.append(f"w{rank}x")
        weights.append(last * last_rank / rank)
    return words, weights


def messages(n: int, seed: int = 7) -> list[dict[str, Any]]:
    """``n`` messages whose words follow the LoCoMo word distribution (with its Zipf tail) and whose
    lengths follow LoCoMo's turn lengths; fixed seed, 50 messages per session."""
    counts, lengths, _ = _locomo()
    words, weights = vocabulary(counts)
    rng = random.Random(seed)
    cumulative = list(itertools.accumulate(weights))
    out = []
    for i in range(n):
        length = rng.choice(lengths)
        text = " ".join(rng.choices(words, cum_weights=cumulative, k=length))
        out.append(
            {
                "id": f"m{i}",
                "text": text,
                "role": rng.choice(["user", "assistant", "toolResult"]),
                "timestamp": f"2025-01-01T00:{(i // 60) % 60:02d}:{i % 60:02d}Z",
                "session_id": f"s{i // 50}",
            }
        )
    return out


def queries(k: int = 201, seed: int = 11) -> list[str]:
    """Real LoCoMo questions (a fixed sample)."""
    _, _, questions = _locomo()
    return random.Random(seed).sample(questions, k)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(index: Any, data: list[dict[str, Any]]) -> dict[str, Any]:
    started = time.perf_counter()
    for start in range(0, len(data), 256):
        index.add(data[start : start + 256])
    index.flush()
    throughput = len(data) / (time.perf_counter() - started)
    qs = queries()
    index.search(qs[0])
    latencies = []
    for q in qs[1:]:
        t = time.perf_counter()
        index.search(q, top_k=5)
        latencies.append((time.perf_counter() - t) * 1000)
    return {
        "messages_per_s": round(throughput),
        "search_p50_ms": round(statistics.median(latencies), 2),
        "search_p95_ms": round(percentile(latencies, 0.95), 2),
    }


def brute_force(data: list[dict[str, Any]]) -> dict[str, Any]:
    embedder = get_embedder()
    started = time.perf_counter()
    matrix = np.concatenate([embedder.embed([r["text"] for r in data[s : s + 256]]) for s in range(0, len(data), 256)])
    throughput = len(data) / (time.perf_counter() - started)
    latencies = []
    for q in queries()[1:]:
        t = time.perf_counter()
        scores = matrix @ embedder.embed([q])[0]
        np.argpartition(-scores, 5)[:5]
        latencies.append((time.perf_counter() - t) * 1000)
    return {
        "messages_per_s": round(throughput),
        "search_p50_ms": round(statistics.median(latencies), 2),
        "search_p95_ms": round(percentile(latencies, 0.95), 2),
    }


@contextlib.contextmanager
def chroma_server(data: Path) -> Iterator[str]:
    """A ``chroma run`` server on a free loopback port for the run; its URL."""
    if not Path(CHROMA_BIN).exists():
        raise SystemExit(f"no Chroma server at {CHROMA_BIN} (scripts/test.sh installs it)")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with (data / "chroma.log").open("w") as log:
        server = subprocess.Popen([CHROMA_BIN, "run", "--path", str(data / "chroma"), "--host", "127.0.0.1",
                                   "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit((data / "chroma.log").read_text())
                time.sleep(0.1)
            yield f"chroma://127.0.0.1:{port}"
        finally:
            server.terminate()
            server.wait(10)


def median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each metric's median over repeated runs (the machine is shared: one run is noise), plus every run."""
    keys = ("messages_per_s", "search_p50_ms", "search_p95_ms")
    out: dict[str, Any] = {k: round(statistics.median(r[k] for r in runs), 2) for k in keys}
    out["messages_per_s"] = round(out["messages_per_s"])
    if len(runs) > 1:
        out["each_run"] = [{k: r[k] for k in keys} for r in runs]
    return out


def main() -> None:
    global LOCOMO
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgres", "chroma"])
    parser.add_argument("--repeat", type=int, default=3, help="runs per backend and size (medians are reported)")
    parser.add_argument("--pg-max", type=int, default=100_000, help="skip PostgreSQL above this size")
    parser.add_argument("--chroma-max", type=int, default=100_000, help="skip Chroma above this size")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "recall_bench.json")
    parser.add_argument("--data", type=Path, default=LOCOMO, help="the LoCoMo conversations (corpus and queries)")
    args = parser.parse_args()
    LOCOMO = args.data
    results: dict[str, Any] = {
        "targets": {"sqlite": "≥ 5,000 messages/s, p95 ≤ 15 ms at 100k", "postgres": "p95 ≤ 40 ms at 100k"},
        "corpus": f"words drawn from the LoCoMo conversations' word distribution extended by a Zipf tail to "
        f"{TAIL_TYPES:,} types, turn lengths from LoCoMo, 50 messages per session, seed 7",
        "queries": "200 LoCoMo questions (fixed sample), search(top_k=5), after one warm-up search",
        "throughput": "add() in batches of 256, then flush(), on an empty index",
        "repeats": f"median of {args.repeat} runs, the backends interleaved within each",
        "runs": [],
    }
    limits = {"postgres": ("--pg-max", args.pg_max), "chroma": ("--chroma-max", args.chroma_max)}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as servers:
        pg_uri: str | None = None
        chroma: str | None = None

        def open_index(backend: str, name: str) -> Any:
            nonlocal pg_uri, chroma
            if backend == "sqlite":
                return SQLiteIndex(Path(tmp) / f"{name}.db")
            if backend == "chroma":
                from pi_memory.recall.chroma_index import ChromaIndex

                chroma = chroma or servers.enter_context(chroma_server(Path(tmp)))
                return ChromaIndex(f"{chroma}/{name}", local_path=Path(tmp) / f"chroma-{name}.db")
            import pgserver

            from pi_memory.recall.postgres_index import PostgresIndex

            if pg_uri is None:
                server = pgserver.get_server(Path(tmp) / "pg", cleanup_mode="stop")
                servers.callback(server.cleanup)
                pg_uri = server.get_uri()
            return PostgresIndex(pg_uri, table=name.replace("-", "_"))

        for size in args.sizes:
            data = messages(size)
            measured: dict[str, list[dict[str, Any]]] = {"brute-force numpy (peer)": []}
            for rep in range(args.repeat):
                measured["brute-force numpy (peer)"].append(brute_force(data))
                for backend in args.backends:
                    limit = limits.get(backend)
                    if limit and size > limit[1]:
                        continue
                    index = open_index(backend, f"bench-{size}-{rep}")
                    try:
                        measured.setdefault(backend, []).append(run(index, data))
                    finally:
                        index.close()
                    print(json.dumps({"backend": backend, "messages": size, "run": rep, **measured[backend][-1]}),
                          flush=True)
            for backend in ["brute-force numpy (peer)", *args.backends]:
                limit = limits.get(backend)
                if limit and size > limit[1]:
                    results["runs"].append({"backend": backend, "messages": size, "skipped": f"{limit[0]} {limit[1]}"})
                elif backend in measured:
                    results["runs"].append({"backend": backend, "messages": size, **median_run(measured[backend])})
    args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
