"""Turn-level evidence recall on LoCoMo: does search put the turns that answer a question in the top k?

Each conversation becomes one recall index (a turn = ``Speaker: text`` plus `` [image: caption]``
when the speaker shared a photo; one pi-style session per LoCoMo session). For every question we
search with the question text and measure the share of its evidence ``dia_id``s found in the top
k, averaged over questions — over all questions and per category 1–5.

Compared in the same run: FTS5 alone (BM25 over an OR of the question's words), the static
embedder alone, their plain reciprocal-rank fusion, and our default; then an ablation that adds
one change at a time so the JSON says what each change bought.

At scale (``--distractors N``, default 100,000): each conversation is also searched inside N
distractor messages drawn from the LoCoMo word distribution (``bench/recall_bench.py``'s realistic
corpus), with the default's lexical budget and without it — what capping BM25's work costs in
recall where the cap actually applies (a lone conversation is far below it).

``--backend postgres`` runs the same on PostgreSQL + pgvector (a ``pgserver`` for the run): the
four methods, and at scale the distractors loaded once, each conversation added to them and
deleted after. Its lexical half is ``ts_rank_cd``, not BM25, and its dense half HNSW, so its
numbers are its own (``bench/results/locomo_recall_postgres.json``).

    .venv/bin/python bench/locomo_recall.py [--data DIR] [--distractors N] [--backend sqlite|postgres] [--out FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.sqlite_index import SQLiteIndex

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "bench" / "locomo"
KS = (5, 10, 25)

BASE = SearchConfig()
FTS5 = replace(BASE, fusion="lexical", stopwords=False, neighbour_lexical=0.0, neighbour_dense=0.0)
STATIC = replace(BASE, fusion="dense", neighbour_lexical=0.0, neighbour_dense=0.0)
RRF = replace(BASE, fusion="rrf", stopwords=False, neighbour_lexical=0.0, neighbour_dense=0.0)

METHODS: dict[str, SearchConfig] = {"fts5": FTS5, "static": STATIC, "rrf": RRF, "default": BASE}

# One change at a time from plain RRF to the default, so each row's delta is what that change bought.
ABLATION: list[tuple[str, SearchConfig]] = [
    ("plain RRF (fts5 + static)", RRF),
    ("+ drop stopwords from the lexical query", replace(RRF, stopwords=True)),
    (
        "+ score-aware fusion, equal weights",
        replace(RRF, stopwords=True, fusion="scaled", dense_weight=1.0),
    ),
    ("+ dense weight 0.5", replace(RRF, stopwords=True, fusion="scaled")),
    (
        "+ neighbour smoothing, lexical",
        replace(RRF, stopwords=True, fusion="scaled", neighbour_lexical=BASE.neighbour_lexical),
    ),
    ("+ neighbour smoothing, dense (= default)", BASE),
    ("default + RRF tie-break term (weight 10)", replace(BASE, rrf_weight=10.0)),
    ("default, query vector without stopwords", replace(BASE, dense_stopwords=True)),
]
ABLATION_SINGLE: list[tuple[str, SearchConfig]] = [
    ("fts5 alone", FTS5),
    ("fts5, stopwords dropped", replace(FTS5, stopwords=True)),
    (
        "fts5, stopwords dropped, neighbour smoothing",
        replace(FTS5, stopwords=True, neighbour_lexical=BASE.neighbour_lexical),
    ),
    ("static alone", STATIC),
    ("static, neighbour smoothing", replace(STATIC, neighbour_dense=BASE.neighbour_dense)),
]


def parse_when(text: str) -> datetime:
    """LoCoMo's ``1:56 pm on 8 May, 2023``."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")


def render_turn(turn: dict[str, Any]) -> str:
    text = f"{turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        text += f" [image: {turn['blip_caption']}]"
    return text


def conversation_records(conv: dict[str, Any], name: str) -> list[dict[str, Any]]:
    records = []
    n = 1
    while f"session_{n}" in conv:
        turns = conv[f"session_{n}"]
        start = parse_when(conv[f"session_{n}_date_time"])
        for i, turn in enumerate(turns):
            records.append(
                {
                    "id": turn["dia_id"],
                    "text": render_turn(turn),
                    "role": "user" if turn["speaker"] == conv["speaker_a"] else "assistant",
                    "timestamp": (start + timedelta(seconds=i)).isoformat() + "Z",
                    "session_id": f"{name}/session_{n}",
                }
            )
        n += 1
    return records


def evidence_ids(question: dict[str, Any]) -> list[str]:
    """Evidence ids, split where the dataset packs several in one string (``"D8:6; D9:17"``)."""
    found: list[str] = []
    for item in question.get("evidence", []):
        found += re.findall(r"D\d+:\d+", str(item))
    return list(dict.fromkeys(found))


def evaluate(index: Any, questions: list[dict[str, Any]], config: SearchConfig) -> list[dict[str, Any]]:
    index.config = config
    rows = []
    for q in questions:
        evidence = evidence_ids(q)
        if not evidence:
            continue
        ranked = [h.id for h in index.search(q["question"], top_k=max(KS))]
        rows.append(
            {
                "category": q["category"],
                **{f"r@{k}": len(set(ranked[:k]) & set(evidence)) / len(evidence) for k in KS},
            }
        )
    return rows


def at_scale(files: list[Path], size: int, tmp: Path) -> dict[str, Any]:
    """Default with and without the lexical budget, each conversation inside ``size`` distractors."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from recall_bench import messages

    base = tmp / "distractors.db"
    with SQLiteIndex(base) as index:
        data = messages(size)
        for start in range(0, len(data), 1024):
            index.add(data[start : start + 1024])
    variants = {
        f"default (lexical budget {BASE.lexical_budget:,})": BASE,
        "default without a lexical budget": replace(BASE, lexical_budget=0),
        "static alone": STATIC,
    }
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in variants}
    millis: dict[str, list[float]] = {name: [] for name in variants}
    for path in files:
        conv = json.loads(path.read_text(encoding="utf-8"))
        target = tmp / f"scale-{path.stem}.db"
        shutil.copy(base, target)
        with SQLiteIndex(target) as index:
            index.add(conversation_records(conv, path.stem))
            for name, config in variants.items():
                started = time.perf_counter()
                found = evaluate(index, conv["qa"], config)
                millis[name].append((time.perf_counter() - started) * 1000 / max(len(found), 1))
                rows[name] += found
        target.unlink()
    return {
        "distractors": size,
        "note": "distractors: recall_bench.py's corpus (LoCoMo word distribution + Zipf tail), same index",
        "methods": {
            name: {**summarise(rows[name])["all"], "ms_per_query": round(statistics.mean(millis[name]), 1)}
            for name in variants
        },
    }


def at_scale_postgres(files: list[Path], size: int, uri: str) -> dict[str, Any]:
    """:func:`at_scale` on PostgreSQL: the distractors go in once (and ``flush`` builds the HNSW
    index and the statistics the lexical budget reads); each conversation is added, searched
    and deleted again, so it is as new to the index as a day's messages are."""
    from pi_memory.recall.postgres_index import PostgresIndex

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from recall_bench import messages

    variants = {
        f"default (lexical budget {BASE.lexical_budget:,})": BASE,
        "default without a lexical budget": replace(BASE, lexical_budget=0),
        "default, lexical budget 1,000": replace(BASE, lexical_budget=1_000),
        "static alone": STATIC,
    }
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in variants}
    millis: dict[str, list[float]] = {name: [] for name in variants}
    index = PostgresIndex(uri, table="distractors")
    try:
        data = messages(size)
        for start in range(0, len(data), 1024):
            index.add(data[start : start + 1024])
        index.flush()
        for path in files:
            conv = json.loads(path.read_text(encoding="utf-8"))
            records = conversation_records(conv, path.stem)
            index.add(records)
            for name, config in variants.items():
                started = time.perf_counter()
                found = evaluate(index, conv["qa"], config)
                millis[name].append((time.perf_counter() - started) * 1000 / max(len(found), 1))
                rows[name] += found
            index.delete([r["id"] for r in records])
    finally:
        index.close()
    return {
        "distractors": size,
        "note": "distractors: recall_bench.py's corpus (LoCoMo word distribution + Zipf tail), loaded once; "
        "each conversation added after the HNSW build and the ANALYZE, deleted after its questions",
        "methods": {
            name: {**summarise(rows[name])["all"], "ms_per_query": round(statistics.mean(millis[name]), 1)}
            for name in variants
        },
    }


@contextlib.contextmanager
def postgres(tmp: Path) -> Iterator[str]:
    """A PostgreSQL (with pgvector) for the run, from the ``pgserver`` package the tests use."""
    import pgserver

    server = pgserver.get_server(tmp / "pg", cleanup_mode="stop")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def mean(subset: list[dict[str, Any]]) -> dict[str, float]:
        return {f"r@{k}": round(100 * sum(r[f"r@{k}"] for r in subset) / max(len(subset), 1), 1) for k in KS}

    out: dict[str, Any] = {"all": {**mean(rows), "questions": len(rows)}}
    for category in (1, 2, 3, 4, 5):
        subset = [r for r in rows if r["category"] == category]
        out[f"category_{category}"] = {**mean(subset), "questions": len(subset)}
    out["categories_1_4"] = {**mean([r for r in rows if r["category"] != 5])}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "locomo_recall.json")
    parser.add_argument("--distractors", type=int, default=100_000, help="0 skips the at-scale run")
    parser.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite")
    args = parser.parse_args()
    if args.backend == "postgres" and args.out == parser.get_default("out"):
        args.out = args.out.with_name("locomo_recall_postgres.json")

    files = sorted(args.data.glob("*.json"))
    if not files:
        sys.exit(f"no LoCoMo conversations in {args.data}")
    configs = {**{f"method:{k}": v for k, v in METHODS.items()}}
    if args.backend == "sqlite":  # the ablation is about the method, not the engine: SQLite only
        configs.update({f"ablation:{name}": c for name, c in ABLATION + ABLATION_SINGLE})
    rows: dict[str, list[dict[str, Any]]] = {key: [] for key in configs}
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        opener: Callable[[str], Any]
        if args.backend == "postgres":
            from pi_memory.recall.postgres_index import PostgresIndex

            uri = stack.enter_context(postgres(Path(tmp)))

            def opener(name: str) -> Any:
                return PostgresIndex(uri, table=f"locomo_{name.replace('-', '_')}")
        else:

            def opener(name: str) -> Any:
                return SQLiteIndex(Path(tmp) / f"{name}.db")

        for path in files:
            conv = json.loads(path.read_text(encoding="utf-8"))
            index = opener(path.stem)
            try:
                index.add(conversation_records(conv, path.stem))
                index.flush()
                for key, config in configs.items():
                    rows[key] += evaluate(index, conv["qa"], config)
            finally:
                index.close()
        scale = None
        if args.distractors and args.backend == "postgres":
            scale = at_scale_postgres(files, args.distractors, uri)
        elif args.distractors:
            scale = at_scale(files, args.distractors, Path(tmp))
    result: dict[str, Any] = {
        "benchmark": "LoCoMo turn-level evidence recall (share of a question's evidence dia_ids in the top k)",
        "conversations": [p.name for p in files],
        "backend": args.backend,
        "embedder": "minilm-static-256 (shipped)",
        "target": "default R@5 >= 60 on the dev conversations, above every single retriever",
        "methods": {name: summarise(rows[f"method:{name}"]) for name in METHODS},
        "ablation": [
            {"step": name, **summarise(rows[f"ablation:{name}"])["all"]}
            for name, _ in ABLATION + ABLATION_SINGLE
            if f"ablation:{name}" in rows
        ],
        "at_scale": scale,
        "default_config": asdict(BASE),
        "seconds": round(time.time() - started, 1),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    table = {name: result["methods"][name]["all"] for name in METHODS}
    print(json.dumps({"methods (all questions)": table, "ablation": result["ablation"], "at_scale": scale}, indent=1))


if __name__ == "__main__":
    main()
