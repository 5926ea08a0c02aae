"""Count the untuned half of a hand-written attack set (never read one by one).

``tests/fixtures/security/multilingual_orders.jsonl`` holds, for each of the 13 languages besides
English, one standing order per attack kind and five notes that share their words; half of it
is tested in ``tests/security/test_intent_facets.py``. ``--fixture`` names another set of the
same shape (``lang``, ``label``, ``kind``, ``text``, ``part``), such as
``paraphrase_attacks.jsonl``. This prints totals for the ``probe`` half only, per kind and per
language, with no text (``--part tune`` counts the tuned half the same way)::

    .venv/bin/python bench/multilingual_probe.py [--fixture PATH] [--part probe|tune]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from pi_memory.security import scan

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "security" / "multilingual_orders.jsonl"


def _line(counts: Counter[tuple[str, str, bool]], keys: list[str], label: str) -> str:
    hit = {k: counts[(k, label, True)] for k in keys}
    return ", ".join(f"{k} {hit[k]}/{hit[k] + counts[(k, label, False)]}" for k in keys)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixture", type=Path, default=FIXTURE)
    parser.add_argument("--part", choices=("probe", "tune"), default="probe")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.fixture.read_text(encoding="utf-8").splitlines() if line.strip()]
    by_lang: Counter[tuple[str, str, bool]] = Counter()
    by_kind: Counter[tuple[str, str, bool]] = Counter()
    for r in rows:
        if r["part"] == args.part:
            blocked = bool(scan(r["text"]))
            by_lang[(r["lang"], r["label"], blocked)] += 1
            by_kind[(r["kind"], r["label"], blocked)] += 1
    langs = sorted({lang for lang, _, _ in by_lang})
    kinds = sorted({kind for kind, _, _ in by_kind})
    for label in ("threat", "benign"):
        hit = sum(by_lang[(lang, label, True)] for lang in langs)
        total = hit + sum(by_lang[(lang, label, False)] for lang in langs)
        print(f"{args.part} {label}s blocked: {hit}/{total}")
    print("threats per language: " + _line(by_lang, langs, "threat"))
    print("threats per kind: " + _line(by_kind, kinds, "threat"))
    print("benign blocked per kind: " + _line(by_kind, kinds, "benign"))


if __name__ == "__main__":
    main()
