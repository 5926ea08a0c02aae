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
deleted after. Its lexical half is BM25 too (from the word counts its trigger keeps), its dense
half HNSW (``bench/results/locomo_recall_postgres.json``).

``--analyse`` writes the miss analysis instead (``bench/results/locomo_misses.json``): per
category, the default's evidence share in the top 5, and every missed evidence turn classified by
the reasons it can miss (several may hold): it shares no content word with the question; it is the
reply right after a turn that is in the top 5; the question names a date or time that only the
session date resolves; the question names a speaker and the turn is that speaker's; the evidence
spans several sessions. Every figure is given on the tuning part and on the held-out part of the
questions (:func:`held_out`: a fixed hash of the question's id, about 30% held out, never tuned on).

    .venv/bin/python bench/locomo_recall.py [--data DIR] [--distractors N] [--backend sqlite|postgres] [--out FILE]
    .venv/bin/python bench/locomo_recall.py --analyse [--data DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
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
from pi_memory.recall.text import content_terms

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "bench" / "locomo"
KS = (5, 10, 25)

BASE = SearchConfig()
FIRST_STAGE = replace(BASE, author_weight=0.0, date_weight=0.0, session_weight=0.0, reply_weight=0.0, answer_weight=0.0)
"""The default without its second stage (:mod:`pi_memory.recall.rerank`)."""
FTS5 = replace(
    FIRST_STAGE, fusion="lexical", stopwords=False, neighbour_lexical=0.0, neighbour_dense=0.0, rare_weight=1
)
"""Plain FTS5 BM25: every word of the question once."""
STATIC = replace(FIRST_STAGE, fusion="dense", neighbour_lexical=0.0, neighbour_dense=0.0)
RRF = replace(FIRST_STAGE, fusion="rrf", stopwords=False, neighbour_lexical=0.0, neighbour_dense=0.0, rare_weight=1)
PREVIOUS = replace(BASE, answer_weight=0.0, rare_weight=1)
"""The default before the answer lift and the rare-word weight."""

METHODS: dict[str, SearchConfig] = {
    "fts5": FTS5,
    "static": STATIC,
    "rrf": RRF,
    "first_stage": FIRST_STAGE,
    "default": BASE,
}

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
    ("+ neighbour smoothing, dense", replace(FIRST_STAGE, rare_weight=1)),
    ("+ rare words (in at most 10 messages) counted twice (= first stage)", FIRST_STAGE),
    ("first stage + RRF tie-break term (weight 10)", replace(FIRST_STAGE, rrf_weight=10.0)),
    ("first stage, query vector without stopwords", replace(FIRST_STAGE, dense_stopwords=True)),
    # The second stage, one boost at a time, then each left out of the default.
    ("first stage + author boost alone", replace(FIRST_STAGE, author_weight=BASE.author_weight)),
    ("first stage + date boost alone", replace(FIRST_STAGE, date_weight=BASE.date_weight)),
    ("first stage + session evidence alone", replace(FIRST_STAGE, session_weight=BASE.session_weight)),
    ("first stage + reply lift alone (0.1)", replace(FIRST_STAGE, reply_weight=0.1)),
    ("first stage + answer lift alone", replace(FIRST_STAGE, answer_weight=BASE.answer_weight)),
    ("+ author boost", replace(FIRST_STAGE, author_weight=BASE.author_weight)),
    ("+ date boost", replace(FIRST_STAGE, author_weight=BASE.author_weight, date_weight=BASE.date_weight)),
    ("+ session evidence", replace(BASE, answer_weight=0.0)),
    ("+ answer lift (= default)", BASE),
    ("default + reply lift 0.1 (dropped)", replace(BASE, reply_weight=0.1)),
    ("default, answer lift 0.1", replace(BASE, answer_weight=0.1)),
    ("default, answer lift 0.3", replace(BASE, answer_weight=0.3)),
    ("default without the author boost", replace(BASE, author_weight=0.0)),
    ("default without the date boost", replace(BASE, date_weight=0.0)),
    ("default without session evidence", replace(BASE, session_weight=0.0)),
    ("default without the answer lift", replace(BASE, answer_weight=0.0)),
    ("default without the rare-word weight", replace(BASE, rare_weight=1)),
    ("the previous default (neither)", PREVIOUS),
    ("default, rare = at most 5 messages", replace(BASE, rare_messages=5)),
    ("default, rare = at most 20 messages", replace(BASE, rare_messages=20)),
]
ABLATION_SINGLE: list[tuple[str, SearchConfig]] = [
    ("fts5 alone", FTS5),
    ("fts5, rare words counted twice", replace(FTS5, rare_weight=BASE.rare_weight)),
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


HELD_OUT_PERCENT = 30


def question_id(conversation: str, position: int) -> str:
    """A question's stable id: its conversation file's stem and its position in that file's ``qa``."""
    return f"{conversation}:{position}"


def held_out(qid: str) -> bool:
    """The split nothing is tuned on: SHA-256 of the question id, first 4 bytes mod 100 < 30.

    Fixed before any tuning; every tuned figure is reported on both parts."""
    return int(hashlib.sha256(qid.encode()).hexdigest()[:8], 16) % 100 < HELD_OUT_PERCENT


_TIME_WORDS = re.compile(
    r"\b(when|date|time|day|days|week|weeks|month|months|year|years|ago|yesterday|today|tomorrow|"
    r"last|recently|since|before|after|january|february|march|april|may|june|july|august|"
    r"september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"weekend|summer|winter|spring|autumn|fall|\d{4})\b",
    re.IGNORECASE,
)
MISS_REASONS = (
    "no_shared_word",
    "reply_after_match",
    "time_expression",
    "speaker_turn",
    "multi_session",
    "none_of_these",
)


def _stem(word: str) -> str:
    """A crude suffix strip so 'painting' and 'paints' count as one word (the index uses Porter)."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def miss_reasons(
    question: dict[str, Any], turn_id: str, top: list[str], turns: dict[str, dict[str, Any]], speakers: set[str]
) -> list[str]:
    """Why evidence ``turn_id`` is not in ``top`` (the top 5): every reason that holds."""
    reasons = []
    text = str(question["question"])
    turn = turns.get(turn_id)
    asked = {_stem(w) for w in content_terms(text)}
    if turn is not None and not asked & {_stem(w) for w in content_terms(render_turn(turn))}:
        reasons.append("no_shared_word")
    session, _, position = turn_id[1:].partition(":")
    if f"D{session}:{int(position) - 1}" in top if position.isdigit() else False:
        reasons.append("reply_after_match")
    if _TIME_WORDS.search(text):
        reasons.append("time_expression")
    named = {s for s in speakers if re.search(rf"\b{re.escape(s)}\b", text, re.IGNORECASE)}
    if turn is not None and turn["speaker"] in named:
        reasons.append("speaker_turn")
    if len({e.split(":")[0] for e in evidence_ids(question)}) > 1:
        reasons.append("multi_session")
    return reasons or ["none_of_these"]


def analyse(files: list[Path], tmp: Path, config: SearchConfig = BASE) -> dict[str, Any]:
    """The miss analysis of ``config`` (the default): per split and category, R@5 and the reasons."""
    table: dict[str, dict[str, Any]] = {}
    examples: list[dict[str, Any]] = []
    for path in files:
        conv = json.loads(path.read_text(encoding="utf-8"))
        turns = {t["dia_id"]: t for n in range(1, 100) for t in conv.get(f"session_{n}", [])}
        speakers = {conv["speaker_a"], conv["speaker_b"]}
        with SQLiteIndex(tmp / f"analyse-{path.stem}.db") as index:
            index.add(conversation_records(conv, path.stem))
            index.config = config
            for position, q in enumerate(conv["qa"]):
                evidence = evidence_ids(q)
                if not evidence:
                    continue
                split = "held_out" if held_out(question_id(path.stem, position)) else "tuning"
                top = [h.id for h in index.search(q["question"], top_k=5)]
                for key in (f"{split}/category_{q['category']}", f"{split}/all"):
                    cell = table.setdefault(
                        key, {"questions": 0, "evidence": 0, "found": 0, "r@5_sum": 0.0, "misses": {}}
                    )
                    cell["questions"] += 1
                    cell["evidence"] += len(evidence)
                    found = [e for e in evidence if e in top]
                    cell["found"] += len(found)
                    cell["r@5_sum"] += len(found) / len(evidence)
                    for e in evidence:
                        if e in top:
                            continue
                        for reason in miss_reasons(q, e, top, turns, speakers):
                            cell["misses"][reason] = cell["misses"].get(reason, 0) + 1
                        if key.endswith("/all") and len(examples) < 40 and split == "tuning":
                            examples.append(
                                {
                                    "question": q["question"],
                                    "category": q["category"],
                                    "missed": e,
                                    "turn": render_turn(turns[e]) if e in turns else None,
                                    "reasons": miss_reasons(q, e, top, turns, speakers),
                                }
                            )
    out: dict[str, Any] = {}
    for key, cell in sorted(table.items()):
        missed = cell["evidence"] - cell["found"]
        out[key] = {
            "questions": cell["questions"],
            "r@5": round(100 * cell["r@5_sum"] / cell["questions"], 1),
            "evidence_turns": cell["evidence"],
            "missed_turns": missed,
            "miss_reasons_percent_of_missed": {
                r: round(100 * cell["misses"].get(r, 0) / max(missed, 1), 1) for r in MISS_REASONS
            },
        }
    return {
        "benchmark": "LoCoMo miss analysis of the default at top 5 (a missed turn may have several reasons)",
        "split": f"held out: sha256(question id)[:8] as int mod 100 < {HELD_OUT_PERCENT}; "
        "id = '<conversation>:<qa position>'",
        "conversations": [p.name for p in files],
        "table": out,
        "examples": examples,
    }


def evaluate(
    index: Any, conversation: str, questions: list[dict[str, Any]], config: SearchConfig
) -> list[dict[str, Any]]:
    """One row per question with evidence: its category, its split and its R@k."""
    index.config = config
    rows = []
    for position, q in enumerate(questions):
        evidence = evidence_ids(q)
        if not evidence:
            continue
        ranked = [h.id for h in index.search(q["question"], top_k=max(KS))]
        rows.append(
            {
                "category": q["category"],
                "held_out": held_out(question_id(conversation, position)),
                **{f"r@{k}": len(set(ranked[:k]) & set(evidence)) / len(evidence) for k in KS},
            }
        )
    return rows


def at_scale(files: list[Path], size: int, tmp: Path) -> dict[str, Any]:
    """Default with and without the lexical budget, each conversation inside ``size`` distractors."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import recall_bench
    from recall_bench import messages

    recall_bench.LOCOMO = files[0].parent  # its corpus follows the conversations given by --data

    base = tmp / "distractors.db"
    with SQLiteIndex(base) as index:
        data = messages(size)
        for start in range(0, len(data), 1024):
            index.add(data[start : start + 1024])
    variants = {
        f"default (lexical budget {BASE.lexical_budget:,})": BASE,
        "first stage only": FIRST_STAGE,
        "the previous default (no answer lift, no rare-word weight)": PREVIOUS,
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
                found = evaluate(index, path.stem, conv["qa"], config)
                millis[name].append((time.perf_counter() - started) * 1000 / max(len(found), 1))
                rows[name] += found
        target.unlink()
    return {
        "distractors": size,
        "note": "distractors: recall_bench.py's corpus (LoCoMo word distribution + Zipf tail), same index",
        "methods": {
            name: {**ablation_row(summarise(rows[name])), "ms_per_query": round(statistics.mean(millis[name]), 1)}
            for name in variants
        },
    }


def at_scale_postgres(files: list[Path], size: int, uri: str) -> dict[str, Any]:
    """:func:`at_scale` on PostgreSQL: the distractors go in once (and ``flush`` builds the HNSW
    index); each conversation is added, searched and deleted again, so it is as new to the index
    as a day's messages are (its words counted by the trigger as they arrive)."""
    from pi_memory.recall.postgres_index import PostgresIndex

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import recall_bench
    from recall_bench import messages

    recall_bench.LOCOMO = files[0].parent  # its corpus follows the conversations given by --data

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
                found = evaluate(index, path.stem, conv["qa"], config)
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
    for split, held in (("tuning", False), ("held_out", True)):
        part = [r for r in rows if r.get("held_out") is held]
        out[split] = {"all": {**mean(part), "questions": len(part)}}
        for category in (1, 2, 3, 4, 5):
            subset = [r for r in part if r["category"] == category]
            out[split][f"category_{category}"] = {**mean(subset), "questions": len(subset)}
    return out


def ablation_row(summary: dict[str, Any]) -> dict[str, Any]:
    """An ablation step: all questions, then R@5/R@10 on the tuning and the held-out part."""
    return {
        **summary["all"],
        **{f"{split}_r@{k}": summary[split]["all"][f"r@{k}"] for split in ("tuning", "held_out") for k in (5, 10)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "locomo_recall.json")
    parser.add_argument("--distractors", type=int, default=100_000, help="0 skips the at-scale run")
    parser.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--analyse", action="store_true", help="write the miss analysis (SQLite default) and stop")
    args = parser.parse_args()
    if args.analyse:
        if args.out == parser.get_default("out"):
            args.out = args.out.with_name("locomo_misses.json")
        found_files = sorted(args.data.glob("*.json"))
        with tempfile.TemporaryDirectory() as tmp:
            report = analyse(found_files, Path(tmp))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(json.dumps(report["table"], indent=1))
        return
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
                    rows[key] += evaluate(index, path.stem, conv["qa"], config)
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
        "target": "default R@5 >= 70 and R@10 >= 80 on the dev conversations, each change also helping "
        "the held-out questions; R@5 >= 55 inside 100,000 distractors",
        "methods": {name: summarise(rows[f"method:{name}"]) for name in METHODS},
        "ablation": [
            {"step": name, **ablation_row(summarise(rows[f"ablation:{name}"]))}
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
