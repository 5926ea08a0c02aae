"""Count the untuned half of the hand-written multilingual set (never read one by one).

``tests/fixtures/security/multilingual_orders.jsonl`` holds, for each of the 13 languages besides
English, one standing order per attack kind and five notes that share their words; half of it
is tested in ``tests/security/test_intent_facets.py``. This prints totals for the other
half only, per language, with no text::

    .venv/bin/python bench/multilingual_probe.py
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from pi_memory.security import scan

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "security" / "multilingual_orders.jsonl"


def main() -> None:
    rows = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]
    counts: Counter[tuple[str, str, bool]] = Counter()
    for r in rows:
        if r["part"] == "probe":
            counts[(r["lang"], r["label"], bool(scan(r["text"])))] += 1
    langs = sorted({lang for lang, _, _ in counts})
    for label in ("threat", "benign"):
        hit = sum(counts[(lang, label, True)] for lang in langs)
        total = hit + sum(counts[(lang, label, False)] for lang in langs)
        print(f"probe {label}s blocked: {hit}/{total}")
    per = [f"{lang} {counts[(lang, 'threat', True)]}/{counts[(lang, 'threat', True)] + counts[(lang, 'threat', False)]}"
           for lang in langs]
    print("threats per language: " + ", ".join(per))


if __name__ == "__main__":
    main()
