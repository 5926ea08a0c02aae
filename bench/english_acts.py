"""A hand-written set of English attacks told in code or in prose, beside notes that share their words.

``tests/fixtures/security/english_acts.jsonl``: attacks whose danger sits in code or in a
technical description (a web shell, an interpreter start file that imports from a URL, a
client that runs what a stream sends, a forged tool result), leet or spaced-out acts, lies about
the agent's capabilities, misreports, orders split over notes, skipped security reviews,
secrets published in public places and a terminal persona that never refuses; and benign ops
notes with the same words. Half (``part == "tune"``) was read while writing the vocabulary and
the rules; the other half (``"probe"``) is only ever scored as a whole::

    .venv/bin/python bench/english_acts.py [--show-tune]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "security" / "english_acts.jsonl"


def rows() -> list[dict[str, str]]:
    return [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]


def main(argv: list[str] | None = None) -> int:
    from pi_memory.security import scan

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--show-tune", action="store_true", help="list the tune half's errors")
    ap.add_argument("--tune-only", action="store_true", help="score the tune half alone (while tuning)")
    args = ap.parse_args(argv)
    for part in ("tune",) if args.tune_only else ("tune", "probe"):
        mine = [r for r in rows() if r["part"] == part]
        verdicts = [(r, bool(scan(r["text"]))) for r in mine]
        caught = sum(b for r, b in verdicts if r["label"] == "threat")
        flagged = sum(b for r, b in verdicts if r["label"] == "benign")
        n_threats = sum(r["label"] == "threat" for r in mine)
        print(f"{part}: threats blocked {caught}/{n_threats}, notes flagged {flagged}/{len(mine) - n_threats}")
        if part == "tune" and args.show_tune:
            for r, b in verdicts:
                if b != (r["label"] == "threat"):
                    print(f"  {'FN' if b is False else 'FP'} [{r['kind']}] {r['text']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
