"""Threat-scanner accuracy on data it was not tuned on, with the hermes and pi-memory baselines.

The protocol (fixed before any tuning, never changed after):

* Every sample belongs to a *source group*: its ``source`` with the trailing language tag
  ``(German)``, the ``(hard negative)`` marker and any ``[variant]`` suffix removed, so the
  paraphrases, translations and obfuscated variants of one payload share a group.
* A group is **held out** when ``sha256("<corpus file name>|<group>")`` read as an integer is
  ``< 30 %`` of the range: about 30 % of each corpus, chosen by hash, not by looking. The
  held-out part is never printed (``--misses`` lists development misses only) and no rule,
  lexicon or weight is fitted or tuned on it.
* Figures are reported per corpus for the development part, the held-out part and (labelled as
  such) the whole corpus; only the held-out figures are results for the tuned scanner. The
  shipped intent weights are trained on the development parts only (``intent_train.py``);
  ``dev_cv`` is the development part under group 5-fold cross-validation (each fold's weights
  trained without it), the fair figure for the development data.
* Language is the source's language tag, else ``English``; hard negatives are the benign
  samples whose source says ``hard negative``.

Prints a table and writes ``bench/results/threat_bench.json``::

    .venv/bin/python bench/threat_bench.py [--harness PATH] [--corpus PATH ...] [--misses N]
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import re
import sys
import sys as _sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
_sys.path.insert(0, str(HERE))
DEFAULT_DIR = Path("/work/shared/bench/threats")
HOLDOUT_PERCENT = 30
Scanner = Callable[[str], Any]

_LANG_TAG = re.compile(r"\(([A-Z][a-z]+(?:/[A-Z][a-z]+)?)\)")
_TRAILING = re.compile(r"\s*(\((?:[A-Z][a-z]+(?:/[A-Z][a-z]+)?|hard negative)\)|\[[^\]]*\])\s*$")


def load_harness(path: Path) -> ModuleType:
    """The shared evaluation harness (its baselines and its verdict adapter), loaded by path."""
    spec = importlib.util.spec_from_file_location("threat_eval", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def group_of(source: str) -> str:
    """The source group: the source without its language tag, hard-negative marker or variant."""
    group = source
    while True:
        stripped = _TRAILING.sub("", group)
        if stripped == group:
            return group.strip()
        group = stripped


_LANGUAGES = frozenset(
    [
        "English", "Spanish", "Portuguese", "French", "German", "Italian", "Russian", "Turkish",
        "Vietnamese", "Arabic", "Hindi", "Japanese", "Korean", "Chinese", "Hebrew", "Persian",
    ]
)


def language_of(source: str) -> str:
    """The last language tag of the source (``Japanese/English`` kept as written), else English."""
    tags = [t for t in _LANG_TAG.findall(source) if t.split("/")[0] in _LANGUAGES]
    return tags[-1] if tags else "English"


def is_hard_negative(row: dict[str, str]) -> bool:
    return row["label"] == "benign" and ("hard negative" in row["source"] or "hard_negative" in row["source"])


def held_out(corpus_name: str, row: dict[str, str]) -> bool:
    """Deterministic, content-blind split by source group (see the module docstring)."""
    digest = hashlib.sha256(f"{corpus_name}|{group_of(row['source'])}".encode()).digest()
    return int.from_bytes(digest[:8], "big") < (HOLDOUT_PERCENT * (1 << 64)) // 100


def split(corpus_name: str, rows: list[dict[str, str]]) -> dict[str, list[dict[str, str]]]:
    dev = [r for r in rows if not held_out(corpus_name, r)]
    hold = [r for r in rows if held_out(corpus_name, r)]
    return {"dev": dev, "holdout": hold, "all": rows}


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


def metrics(rows: Iterable[dict[str, str]], verdicts: Iterable[bool]) -> dict[str, Any]:
    """Precision, recall, F1, hard-negative FP, per category and per language."""
    tp = fp = fn = tn = hn_fp = hn = 0
    cat: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    lang: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # tp, threats, fp, benign
    for row, blocked in zip(rows, verdicts, strict=True):
        c = cat[row["category"]]
        c[0] += int(blocked)
        c[1] += 1
        lg = lang[language_of(row["source"])]
        if row["label"] == "threat":
            tp += int(blocked)
            fn += int(not blocked)
            lg[0] += int(blocked)
            lg[1] += 1
        else:
            fp += int(blocked)
            tn += int(not blocked)
            lg[2] += int(blocked)
            lg[3] += 1
            if is_hard_negative(row):
                hn += 1
                hn_fp += int(blocked)
    p, r = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    return {
        "n": tp + fp + fn + tn, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
        "precision": round(p, 4), "recall": round(r, 4), "f1": round(_ratio(2 * p * r, p + r), 4),
        "hard_negative_fp": {"flagged": hn_fp, "total": hn, "rate": round(_ratio(hn_fp, hn), 4)},
        "per_category": {k: {"flagged": v[0], "total": v[1]} for k, v in sorted(cat.items())},
        "per_language": {
            k: {"recall": f"{v[0]}/{v[1]}", "fp": f"{v[2]}/{v[3]}"} for k, v in sorted(lang.items())
        },
    }


def scanners(harness: ModuleType) -> dict[str, Scanner]:
    from pi_memory.security import rule_findings, scan

    return {
        "pi_memory": scan,
        "pi_memory_rules_only": rule_findings,
        "hermes": harness.hermes_scan,
        "pi-memory-baseline": harness.pi_memory_scan,
    }


def cross_validated(corpora: dict[str, list[dict[str, str]]]) -> dict[str, list[bool]]:
    """Group k-fold over the development parts of all corpora together: each fold's intent
    weights are trained on the other folds (same recipe, extra fixture rows and threshold as the
    shipped model: ``intent_train.SHIPPED_*``), and a row is blocked when the
    rules or that fold's model flag it. The held-out parts take no part."""
    import intent_train
    from pi_memory.security import intent, normalize, rule_findings

    dev = [(name, r) for name, rows in corpora.items() for r in split(name, rows)["dev"]]
    threshold = intent.load_model().threshold if intent.load_model() is not None else 1.0
    fold = intent_train.folds_of([r for _, r in dev])
    blocked = [bool(rule_findings(r["text"])) for _, r in dev]
    extra = intent_train.shipped_extra_rows()
    for f in range(intent_train.FOLDS):
        rest = [r for (_, r), g in zip(dev, fold, strict=True) if g != f]
        model = intent_train.train(rest + extra, threshold, l2=intent_train.SHIPPED_L2,
                                   extra_weight=intent_train.SHIPPED_EXTRA_WEIGHT,
                                   wild_share=intent_train.SHIPPED_WILD_SHARE)
        for i, (_, r) in enumerate(dev):
            if fold[i] == f and not blocked[i] and r["category"] != "invisible_unicode":
                blocked[i] = intent.detect(normalize.fold(r["text"], confusables=False), model) is not None
    out: dict[str, list[bool]] = {name: [] for name in corpora}
    for (name, _), b in zip(dev, blocked, strict=True):
        out[name].append(b)
    return out


def run(harness: ModuleType, corpora: list[Path], n_misses: int) -> dict[str, Any]:
    out: dict[str, Any] = {"holdout_percent": HOLDOUT_PERCENT, "corpora": {}}
    loaded = {path.name: harness.load_corpus(str(path)) for path in corpora}
    cv = cross_validated(loaded)
    for name_c, rows in loaded.items():
        parts = split(name_c, rows)
        entry: dict[str, Any] = {"sizes": {k: len(v) for k, v in parts.items()}, "scanners": {}}
        for name, fn in scanners(harness).items():
            verdict = {id(r): bool(harness.is_blocked(fn(r["text"]))) for r in rows}
            entry["scanners"][name] = {k: metrics(v, (verdict[id(r)] for r in v)) for k, v in parts.items()}
            if name == "pi_memory" and n_misses:
                _print_dev_misses(parts["dev"], verdict, n_misses)
        entry["scanners"]["pi_memory"]["dev_cv"] = metrics(parts["dev"], cv[name_c])
        out["corpora"][name_c] = entry
    return out


def _print_dev_misses(dev: list[dict[str, str]], verdict: dict[int, bool], n: int) -> None:
    """Development-part errors only: the held-out part is never shown."""
    wrong = [r for r in dev if verdict[id(r)] != (r["label"] == "threat")]
    for r in wrong[:n]:
        kind = "FN" if r["label"] == "threat" else "FP"
        print(f"  dev {kind} [{r['category']}] {ascii(r['text'])[1:200]}", file=sys.stderr)


def _table(result: dict[str, Any]) -> str:
    lines = []
    for corpus, entry in result["corpora"].items():
        lines.append(f"{corpus}  sizes {entry['sizes']}")
        for name, parts in entry["scanners"].items():
            for part in ("dev_cv", "dev", "holdout", "all"):
                if part not in parts:
                    continue
                m = parts[part]
                hn = m["hard_negative_fp"]
                lines.append(
                    f"  {name:20s} {part:8s} P {m['precision']:.3f} R {m['recall']:.3f} F1 {m['f1']:.3f}"
                    f"  hard-neg FP {hn['flagged']}/{hn['total']}"
                )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--harness", type=Path, default=DEFAULT_DIR / "threat_eval.py")
    ap.add_argument("--corpus", type=Path, action="append")
    ap.add_argument("--misses", type=int, default=0, help="print this many development-part errors")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "threat_bench.json")
    args = ap.parse_args(argv)
    corpora = args.corpus or [DEFAULT_DIR / "threat_corpus.jsonl", DEFAULT_DIR / "threat_corpus_2.jsonl"]
    result = run(load_harness(args.harness), corpora, args.misses)
    print(_table(result))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
