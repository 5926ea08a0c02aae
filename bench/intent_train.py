"""Build-time trainer for the scanner's intent layer (``pi_memory.security.intent``).

Trains a softmax regression (benign + five threat intents) on the *development* part of the
labelled corpora only (``threat_bench.split``: the held-out part is never read here), picks the
decision threshold by group cross-validation on that same development part, and writes the
weights the package ships::

    .venv/bin/python bench/intent_train.py [--corpus PATH ...] [--extra FIXTURE ...] [--wild] [--extra-weight W]
        [--fp-target RATE] [--l2 X] [--min-df N] [--max-features N] [--out src/pi_memory/security/intent_model.json]

``--extra`` (repeatable) adds the ``tune`` half of one of our fixture sets
(``tests/fixtures/security/*.jsonl``): its benign notes as benign, its threats as the corpus
category their ``kind`` is (``KIND_CATEGORY``; a kind that spans several categories is left
out). The ``probe`` half is never read. Extra benign rows also bound the threshold, out of fold.

``--wild`` adds the ``tune`` half of ``wild_text``'s real prose (the installed packages'
READMEs, all harmless) as benign rows, one source group per package, so cross-validation scores
each package's paragraphs with weights that never saw that package. The ``probe`` half is never
read. Without it the weights learn "benign" only from the corpora's ~330 notes, and real
documentation, full of URLs, keys, "send" and "override", is flagged far more often.
``--wild-kinds readme,locomo,code`` also adds the tune halves of the LoCoMo chat turns (one
group) and of the packages' source chunks (a group per package). The dev CV lines are printed
for both corpora together and for each corpus.

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
WILD_CATEGORY = "benign_wild"
WILD_SHARE = 1.0
#: The kinds of real text ``--wild`` can add: package READMEs, LoCoMo chat turns, package source.
WILD_KINDS = ("readme", "locomo", "code")
#: The corpus category each fixture ``kind`` of attack is (the corpora's ``category`` values):
#: overriding the rules, acting without confirmation, hiding from the user, misreporting and
#: skipping reviews are prompt injection; a persona or a forged tool result rewriting the
#: assistant is role hijack; orders taken from a channel, a stream or a web shell are c2.
#: ``leet_spaced`` spans every category, so it has none and its rows are left out.
KIND_CATEGORY = {
    "override": "prompt_injection", "inject": "prompt_injection", "noconfirm": "prompt_injection",
    "confirm": "prompt_injection", "conceal": "prompt_injection", "hide": "prompt_injection",
    "misreport": "prompt_injection", "lie_capability": "prompt_injection",
    "split_orders": "prompt_injection", "skip_security": "prompt_injection",
    "role": "role_hijack", "persona": "role_hijack", "fake_tool_result": "role_hijack",
    "terminal_hijack": "role_hijack",
    "channel": "c2", "webshell": "c2", "stream_client": "c2",
    "exfil": "exfiltration", "publish_secrets": "exfiltration",
    "persist": "persistence", "startup_import": "persistence",
}
#: The persistence set's kinds are the mechanisms that re-run something; every one is persistence.
KIND_CATEGORY |= dict.fromkeys(
    ("cron", "systemd", "launchd", "windows", "shellrc", "githook", "npm", "python", "vscode", "direnv", "ssh",
     "alias", "browser", "memory"), "persistence")
EXTRA = "fixture "  # the source prefix of an extra row (corpus sources never start so)
FIXTURES = HERE.parent / "tests" / "fixtures" / "security"
#: How the shipped weights were trained, so ``threat_bench``'s ``dev_cv`` refits each fold the
#: same way (these extra sets' rows added to every fold's training rows, at this L2 and weight).
#: The shipped model was trained with the tune half of every fixture set below and of the README
#: paragraphs (``--extra`` for each set, ``--wild --wild-kinds readme``), at the default L2 and
#: weight. A model retrained with other flags sets these to its own. New fixture rows go in new
#: files: a row added to a set listed here would enter every fold's refit but not the weights.
SHIPPED_EXTRA: tuple[str, ...] = (
    "composed_attacks.jsonl",
    "english_acts.jsonl",
    "hard_negatives.jsonl",
    "hard_negatives_2.jsonl",
    "hard_negatives_3.jsonl",
    "hard_negatives_4.jsonl",
    "hard_negatives_5.jsonl",
    "hard_negatives_6.jsonl",
    "multilingual_orders.jsonl",
    "multilingual_orders_2.jsonl",
    "near_miss_notes.jsonl",
    "paraphrase_attacks.jsonl",
    "persistence_acts.jsonl",
    "plain_orders.jsonl",
)
SHIPPED_WILD = True
SHIPPED_WILD_KINDS: tuple[str, ...] = ("readme",)
SHIPPED_WILD_SHARE = 1.0
SHIPPED_L2 = L2
SHIPPED_EXTRA_WEIGHT = 1.0


def trainable(rows: Sequence[dict[str, str]]) -> list[dict[str, str]]:
    """Samples the intent layer learns from: invisible-unicode carriers are the unicode rules' job."""
    return [r for r in rows if r["category"] in CLASSES or r["label"] == "benign"]


def label_of(row: dict[str, str]) -> int:
    return 0 if row["label"] == "benign" else CLASSES.index(row["category"])


def extra_rows(path: Path) -> list[dict[str, str]]:
    """The ``tune`` half of a fixture set as training rows (the ``probe`` half is never kept).

    A row without a ``label`` (a set of notes) is benign; a threat takes its kind's category
    and is left out when its kind has none. Rows of one language and kind share a source group."""
    out = []
    for line in path.read_text("utf-8").splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        if r.get("part") != "tune":
            continue
        label = r.get("label", "benign")
        category = "benign_fixture" if label == "benign" else KIND_CATEGORY.get(r.get("kind", ""))
        if category is None:
            continue
        group = f"{EXTRA}{path.name}: {r.get('lang', '')} {r.get('kind', r.get('style', ''))}"
        out.append({"text": r["text"], "label": label, "category": category, "source": group})
    return out


def wild_rows(kinds: Sequence[str] = ("readme",)) -> list[dict[str, str]]:
    """The ``tune`` half of ``wild_text``'s real text of each of ``kinds`` (``WILD_KINDS``) as
    benign rows (the ``probe`` half is never kept): README paragraphs and source chunks grouped by
    the package they come from, the LoCoMo chat turns as one group, so that a fold never scores
    a package or the chat it was trained on."""
    import wild_text

    found: list[tuple[str, str, str]] = []
    if "readme" in kinds:
        found += wild_text.corpus_by_source()
    if "locomo" in kinds:
        found += [(part, turn, "locomo") for part, turn in wild_text.locomo_rows(wild_text.DEFAULT_LOCOMO)]
    if "code" in kinds:
        found += wild_text.code_rows()
    return [{"text": text, "label": "benign", "category": WILD_CATEGORY, "source": f"{EXTRA}wild {source}"}
            for part, text, source in found if part == "tune"]


def shipped_extra_rows() -> list[dict[str, str]]:
    """The extra rows the shipped weights were trained with (tune halves only)."""
    rows = [r for name in SHIPPED_EXTRA for r in extra_rows(FIXTURES / name)]
    return rows + (wild_rows(SHIPPED_WILD_KINDS) if SHIPPED_WILD else [])


def train(rows: Sequence[dict[str, str]], threshold: float = 0.5, *, l2: float = L2, min_df: int = MIN_DF,
          max_features: int = MAX_FEATURES, extra_weight: float = 1.0, wild_share: float = WILD_SHARE) -> intent.Model:
    """Fit weights on ``rows`` (deterministic); an extra row's loss counts ``extra_weight`` times,
    and the real-prose rows (``--wild``) weigh ``wild_share`` times the corpora's benign notes in
    all: thousands of README paragraphs must not drown the few hundred notes that look like
    attacks, which class balancing alone would let them do."""
    rows = trainable(rows)
    feats = [intent.features(normalize.fold(r["text"], confusables=False)) for r in rows]
    df = Counter(f for fs in feats for f in fs)
    vocab = sorted(f for f, c in df.items() if c >= min_df)
    col = {f: i for i, f in enumerate(vocab)}
    x = np.zeros((len(rows), len(vocab)), dtype=np.float64)
    for i, fs in enumerate(feats):
        for f in fs:
            j = col.get(f)
            if j is not None:
                x[i, j] = 1.0
    y = np.zeros((len(rows), len(CLASSES)))
    y[np.arange(len(rows)), [label_of(r) for r in rows]] = 1.0
    # Balance benign against threats so neither side dominates the loss (the real prose aside).
    wild = np.array([r["category"] == WILD_CATEGORY for r in rows])
    core = ~wild
    counts = y[core].sum(axis=0)
    sample_w = (y / np.maximum(counts, 1)).sum(axis=1) * int(core.sum()) / len(CLASSES)
    sample_w *= np.array([extra_weight if r["source"].startswith(EXTRA) else 1.0 for r in rows])
    if wild.any():
        benign_total = float(sample_w[core & (y[:, 0] == 1.0)].sum())
        sample_w[wild] = wild_share * benign_total / int(wild.sum())
    w = np.zeros((len(vocab), len(CLASSES)))
    b = np.zeros(len(CLASSES))
    n = int(core.sum())  # the loss is averaged over the corpora's rows: real prose adds only its share
    for _ in range(STEPS):
        z = x @ w + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - y) * sample_w[:, None] / n
        w -= RATE * (x.T @ g + l2 * w)
        b -= RATE * g.sum(axis=0)
    strength = np.abs(w).max(axis=1)
    keep = np.argsort(-strength, kind="stable")[:max_features]
    weights = {vocab[j]: tuple(round(float(v), 4) for v in w[j]) for j in sorted(keep)}
    return intent.Model(CLASSES, tuple(round(float(v), 4) for v in b), weights, threshold)


def folds_of(rows: Sequence[dict[str, str]], k: int = FOLDS) -> list[int]:
    """Group k-fold: every source group in one fold, assigned by hash of the group."""
    import hashlib

    return [int(hashlib.sha256(threat_bench.group_of(r["source"]).encode()).hexdigest(), 16) % k for r in rows]


def cv_margins(rows: Sequence[dict[str, str]], k: int = FOLDS, **params: Any) -> list[float]:
    """Out-of-fold best-intent margin per row (the threshold is applied later)."""
    fold = folds_of(rows, k)
    margins = [0.0] * len(rows)
    for f in range(k):
        model = train([r for r, g in zip(rows, fold, strict=True) if g != f], threshold=-1.0, **params)
        for i, r in enumerate(rows):
            if fold[i] == f:
                hit = intent.detect(normalize.fold(r["text"], confusables=False), model)
                margins[i] = hit.score if hit is not None else -1.0
    return margins


def pick_threshold(rows: Sequence[dict[str, str]], margins: Sequence[float], rule_hits: Sequence[bool],
                   target: float = TARGET_HARD_NEG_FP, extra_target: float | None = None) -> float:
    """The lowest threshold whose out-of-fold FP (rules or intent) stays within target: on the
    corpora's hard negatives, on all their benign rows, and on the extra benign rows
    (``extra_target``, the same target unless given)."""
    hard = [i for i, r in enumerate(rows) if threat_bench.is_hard_negative(r)]
    benign = [i for i, r in enumerate(rows) if r["label"] == "benign" and not r["source"].startswith(EXTRA)]
    extra = [i for i, r in enumerate(rows) if r["label"] == "benign" and r["source"].startswith(EXTRA)]
    bounds = [(hard, target), (benign, target), (extra, target if extra_target is None else extra_target)]
    for t in [x / 100 for x in range(-20, 100, 2)]:
        flagged = [rule_hits[i] or margins[i] >= t for i in range(len(rows))]
        if all(sum(flagged[i] for i in part) <= bound * len(part) + 1e-9 for part, bound in bounds):
            return t
    return 1.0


def cv_report(rows: Sequence[dict[str, str]], margins: Sequence[float], rule_hits: Sequence[bool],
              threshold: float) -> list[str]:
    """Out-of-fold figures at ``threshold``: per corpus (precision, recall, F1, hard-negative FP)
    and the extra benign rows flagged."""
    flagged = [rule_hits[i] or margins[i] >= threshold for i in range(len(rows))]
    corpus = [i for i, r in enumerate(rows) if not r["source"].startswith(EXTRA)]
    m = threat_bench.metrics([rows[i] for i in corpus], [flagged[i] for i in corpus])
    hn = m["hard_negative_fp"]
    lines = [f"dev CV P {m['precision']:.3f} R {m['recall']:.3f} F1 {m['f1']:.3f}"
             f"  hard-neg FP {hn['flagged']}/{hn['total']}  benign FP {m['fp']}/{m['fp'] + m['tn']}"]
    for name in sorted({rows[i].get("corpus", "") for i in corpus} - {""}):
        mine = [i for i in corpus if rows[i].get("corpus") == name]
        c = threat_bench.metrics([rows[i] for i in mine], [flagged[i] for i in mine])
        chn = c["hard_negative_fp"]
        lines.append(f"  {name}: P {c['precision']:.3f} R {c['recall']:.3f} F1 {c['f1']:.3f}"
                     f"  hard-neg FP {chn['flagged']}/{chn['total']}")
    extra = [i for i, r in enumerate(rows) if r["source"].startswith(EXTRA)]
    if extra:
        e = threat_bench.metrics([rows[i] for i in extra], [flagged[i] for i in extra])
        lines.append(f"extra CV recall {e['tp']}/{e['tp'] + e['fn']}  benign flagged {e['fp']}/{e['fp'] + e['tn']}")
    return lines


def development_rows(corpora: Sequence[Path]) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for path in corpora:
        loaded = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
        rows.extend(dict(r, corpus=path.name) for r in threat_bench.split(path.name, loaded)["dev"])
    return rows


def to_dict(model: intent.Model) -> dict[str, Any]:
    return {"classes": list(model.classes), "bias": list(model.bias), "threshold": model.threshold,
            "weights": {k: list(v) for k, v in sorted(model.weights.items())}}


def main(argv: list[str] | None = None) -> int:
    from pi_memory.security import threats

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, action="append")
    ap.add_argument("--extra", type=Path, action="append", default=[],
                    help="a fixture set whose tune half is added (repeatable)")
    ap.add_argument("--extra-benign-only", action="store_true", help="add only the extra sets' benign rows")
    ap.add_argument("--wild", action="store_true", help="add the tune half of real harmless text (--wild-kinds)")
    ap.add_argument("--wild-kinds", default="readme",
                    help=f"comma-separated kinds of real text --wild adds, of {','.join(WILD_KINDS)}")
    ap.add_argument("--wild-share", type=float, default=WILD_SHARE,
                    help="the README rows' total weight, in corpus benign notes' total weights")
    ap.add_argument("--fp-target", type=float, default=TARGET_HARD_NEG_FP, help="out-of-fold FP bound")
    ap.add_argument("--extra-fp-target", type=float, default=None, help="bound on extra benign rows")
    ap.add_argument("--extra-weight", type=float, default=1.0, help="loss weight of an extra row")
    ap.add_argument("--l2", type=float, default=L2)
    ap.add_argument("--min-df", type=int, default=MIN_DF)
    ap.add_argument("--max-features", type=int, default=MAX_FEATURES)
    ap.add_argument("--out", type=Path, default=HERE.parent / "src/pi_memory/security/intent_model.json")
    args = ap.parse_args(argv)
    corpora = args.corpus or [threat_bench.DEFAULT_DIR / "threat_corpus.jsonl",
                              threat_bench.DEFAULT_DIR / "threat_corpus_2.jsonl"]
    rows = trainable(development_rows(corpora))
    n_dev = len(rows)
    for path in args.extra:
        rows += [r for r in extra_rows(path) if r["label"] == "benign" or not args.extra_benign_only]
    if args.wild:
        kinds = tuple(k for k in args.wild_kinds.split(",") if k)
        if unknown := set(kinds) - set(WILD_KINDS):
            ap.error(f"unknown --wild-kinds {sorted(unknown)}")
        rows += wild_rows(kinds)
    params = {"l2": args.l2, "min_df": args.min_df, "max_features": args.max_features,
              "extra_weight": args.extra_weight, "wild_share": args.wild_share}
    rule_hits = [bool(threats.rule_findings(r["text"])) for r in rows]
    margins = cv_margins(rows, **params)
    threshold = pick_threshold(rows, margins, rule_hits, args.fp_target, args.extra_fp_target)
    model = train(rows, threshold, **params)
    args.out.write_text(json.dumps(to_dict(model), ensure_ascii=False, separators=(",", ":")) + "\n", "utf-8")
    print(f"{n_dev} development rows + {len(rows) - n_dev} extra, {len(model.weights)} features, threshold {threshold}")
    print("\n".join(cv_report(rows, margins, rule_hits, threshold)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
