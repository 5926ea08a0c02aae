"""Build-time trainer for the scanner's intent layer (``pi_memory.security.intent``).

Trains a softmax regression (benign + five threat intents) on the *development* part of the
labelled corpora only (``threat_bench.split``: the held-out part is never read here), picks the
decision threshold by group cross-validation on that same development part, and writes the
weights the package ships::

    .venv/bin/python bench/intent_train.py [--corpus PATH ...] [--out src/pi_memory/security/intent_model.json]

Deterministic: fixed feature order, full-batch gradient descent from zeros, no randomness.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import threat_bench  # noqa: E402
from pi_memory.security import intent, normalize  # noqa: E402

CLASSES = ("benign", "prompt_injection", "role_hijack", "c2", "exfiltration", "persistence")
MIN_DF = 2
L2 = 0.05
STEPS = 600
RATE = 3.0
MAX_FEATURES = 12_000
TARGET_HARD_NEG_FP = 0.025
FOLDS = 5


def trainable(rows: Sequence[dict[str, str]]) -> list[dict[str, str]]:
    """Samples the intent layer learns from: invisible-unicode carriers are the unicode rules' job."""
    return [r for r in rows if r["category"] in CLASSES or r["label"] == "benign"]


def label_of(row: dict[str, str]) -> int:
    return 0 if row["label"] == "benign" else CLASSES.index(row["category"])


def train(rows: Sequence[dict[str, str]], threshold: float = 0.5) -> intent.Model:
    """Fit weights on ``rows`` (deterministic)."""
    rows = trainable(rows)
    feats = [intent.features(normalize.fold(r["text"], confusables=False)) for r in rows]
    df = Counter(f for fs in feats for f in fs)
    vocab = sorted(f for f, c in df.items() if c >= MIN_DF)
    col = {f: i for i, f in enumerate(vocab)}
    x = np.zeros((len(rows), len(vocab)), dtype=np.float64)
    for i, fs in enumerate(feats):
        for f in fs:
            j = col.get(f)
            if j is not None:
                x[i, j] = 1.0
    y = np.zeros((len(rows), len(CLASSES)))
    y[np.arange(len(rows)), [label_of(r) for r in rows]] = 1.0
    # Balance benign against threats so neither side dominates the loss.
    counts = y.sum(axis=0)
    sample_w = (y / np.maximum(counts, 1)).sum(axis=1) * len(rows) / len(CLASSES)
    w = np.zeros((len(vocab), len(CLASSES)))
    b = np.zeros(len(CLASSES))
    n = len(rows)
    for _ in range(STEPS):
        z = x @ w + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - y) * sample_w[:, None] / n
        w -= RATE * (x.T @ g + L2 * w)
        b -= RATE * g.sum(axis=0)
    strength = np.abs(w).max(axis=1)
    keep = np.argsort(-strength, kind="stable")[:MAX_FEATURES]
    weights = {vocab[j]: tuple(round(float(v), 4) for v in w[j]) for j in sorted(keep)}
    return intent.Model(CLASSES, tuple(round(float(v), 4) for v in b), weights, threshold)


def folds_of(rows: Sequence[dict[str, str]], k: int = FOLDS) -> list[int]:
    """Group k-fold: every source group in one fold, assigned by hash of the group."""
    import hashlib

    return [int(hashlib.sha256(threat_bench.group_of(r["source"]).encode()).hexdigest(), 16) % k for r in rows]


def cv_margins(rows: Sequence[dict[str, str]], k: int = FOLDS) -> list[float]:
    """Out-of-fold best-intent margin per row (the threshold is applied later)."""
    fold = folds_of(rows, k)
    margins = [0.0] * len(rows)
    for f in range(k):
        model = train([r for r, g in zip(rows, fold, strict=True) if g != f], threshold=-1.0)
        for i, r in enumerate(rows):
            if fold[i] == f:
                hit = intent.detect(normalize.fold(r["text"], confusables=False), model)
                margins[i] = hit.score if hit is not None else -1.0
    return margins


def pick_threshold(rows: Sequence[dict[str, str]], margins: Sequence[float], rule_hits: Sequence[bool]) -> float:
    """The lowest threshold whose out-of-fold hard-negative FP (rules or intent) stays within target."""
    hard = [i for i, r in enumerate(rows) if threat_bench.is_hard_negative(r)]
    benign = [i for i, r in enumerate(rows) if r["label"] == "benign"]
    for t in [x / 100 for x in range(-20, 100, 2)]:
        flagged = [rule_hits[i] or margins[i] >= t for i in range(len(rows))]
        hn = sum(flagged[i] for i in hard) / max(1, len(hard))
        fp = sum(flagged[i] for i in benign) / max(1, len(benign))
        if hn <= TARGET_HARD_NEG_FP and fp <= TARGET_HARD_NEG_FP:
            return t
    return 1.0


def development_rows(corpora: Sequence[Path]) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for path in corpora:
        loaded = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
        rows.extend(threat_bench.split(path.name, loaded)["dev"])
    return rows


#: The threat fixtures' kinds, as the intent classes they train (a kind left out is not trained on:
#: the spaced and leet spellings are read by the detector's views, not by the weights).
KIND_CLASS = {
    "override": "prompt_injection", "noconfirm": "prompt_injection", "conceal": "prompt_injection",
    "misreport": "prompt_injection", "fake_tool_result": "prompt_injection", "lie_capability": "prompt_injection",
    "skip_security": "prompt_injection", "split_orders": "prompt_injection", "terminal_hijack": "role_hijack",
    "exfil": "exfiltration", "publish_secrets": "exfiltration", "persist": "persistence",
    "startup_import": "persistence", "channel": "c2", "stream_client": "c2", "webshell": "c2",
}


def extra_rows(paths: Sequence[Path]) -> list[dict[str, str]]:
    """The ``tune`` half of hand-written fixture sets as extra training rows (opt-in, ``--extra``):
    a row without a label is a benign note, a threat row trains the class of its ``kind``. The
    ``probe`` halves are never read, so the probes still measure what the weights never saw."""
    out: list[dict[str, str]] = []
    for path in paths:
        for i, line in enumerate(path.read_text("utf-8").splitlines()):
            if not line.strip():
                continue
            row = json.loads(line)
            if row.get("part") != "tune":
                continue
            source = f"extra {path.name} #{i}"
            if row.get("label", "benign") == "benign":
                out.append({"text": row["text"], "label": "benign", "category": "benign_extra", "source": source})
            elif (cls := KIND_CLASS.get(row.get("kind", ""))) is not None:
                out.append({"text": row["text"], "label": "threat", "category": cls, "source": source})
    return out


def to_dict(model: intent.Model) -> dict[str, Any]:
    return {"classes": list(model.classes), "bias": list(model.bias), "threshold": model.threshold,
            "weights": {k: list(v) for k, v in sorted(model.weights.items())}}


def main(argv: list[str] | None = None) -> int:
    from pi_memory.security import threats

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, action="append")
    ap.add_argument("--out", type=Path, default=HERE.parent / "src/pi_memory/security/intent_model.json")
    ap.add_argument("--extra", type=Path, action="append", default=[],
                    help="a fixture set whose tune half is added to the training rows (repeatable)")
    args = ap.parse_args(argv)
    corpora = args.corpus or [threat_bench.DEFAULT_DIR / "threat_corpus.jsonl",
                              threat_bench.DEFAULT_DIR / "threat_corpus_2.jsonl"]
    rows = trainable(development_rows(corpora) + extra_rows(args.extra))
    rule_hits = [bool(threats.rule_findings(r["text"])) for r in rows]
    threshold = pick_threshold(rows, cv_margins(rows), rule_hits)
    model = train(rows, threshold)
    args.out.write_text(json.dumps(to_dict(model), ensure_ascii=False, separators=(",", ":")) + "\n", "utf-8")
    print(f"{len(rows)} development rows, {len(model.weights)} features, threshold {threshold}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
