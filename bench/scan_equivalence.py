"""Equivalence check for scanner speed work: the same verdicts, input by input, before and after.

Runs :func:`pi_memory.security.scan` (every scope), :func:`rule_findings` and the joined-block
scan the snapshot uses (two neighbouring entries joined by a newline) over a large, varied input
set, and writes a digest of every verdict, or compares the verdicts to a digest written before:

* every fixture text in ``tests/fixtures/security/*.jsonl`` except the ``probe`` rows (those are
  only ever counted);
* the *development* rows of both shared corpora (chosen with ``threat_bench.held_out``; held-out
  rows are never read here);
* this repo's docs, source and security tests at a fixed commit, and LoCoMo dialogue cut into ~2 KB entries;
* mutated variants of all of these (case, spacing, line breaks, escapes, zero-width and
  look-alike characters, leet, encoded blobs), chosen by a fixed seed.

A mismatch prints only the input's index, its set and the finding ids on both sides, never the
text::

    .venv/bin/python bench/scan_equivalence.py --write /tmp/x-equiv.json
    .venv/bin/python bench/scan_equivalence.py --check /tmp/x-equiv.json [--fallback]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import itertools
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from pi_memory.security import SCOPES, Finding, index, rule_findings, scan
from scan_bench import chunk, locomo_turns
from threat_bench import held_out

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED = Path("/work/shared/bench")
CORPORA = ("threat_corpus.jsonl", "threat_corpus_2.jsonl")
#: The commit whose docs and source are cut into entries (fixed, so the inputs do not move).
BASE_REV = "439667c"


def _fixture_texts() -> list[str]:
    texts: list[str] = []
    for path in sorted((REPO / "tests" / "fixtures" / "security").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                if row.get("part") != "probe":
                    texts.append(row["text"])
    return texts


def _corpus_texts(directory: Path) -> list[str]:
    texts: list[str] = []
    for name in CORPORA:
        path = directory / name
        if not path.exists():
            continue
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        texts.extend(r["text"] for r in rows if not held_out(name, r))
    return texts


def _files_at(rev: str, paths: list[str], suffix: str) -> str:
    """The text of every file under ``paths`` ending in ``suffix`` at ``rev`` (fixed inputs, even
    while the working tree's source changes)."""
    names = subprocess.run(
        ["git", "-C", str(REPO), "ls-tree", "-r", "--name-only", rev, "--", *paths],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    texts = [
        subprocess.run(["git", "-C", str(REPO), "show", f"{rev}:{n}"], capture_output=True, check=True).stdout
        for n in sorted(names) if n.endswith(suffix)
    ]
    return "\n".join(t.decode("utf-8") for t in texts)


def _realistic_texts(locomo: Path, rev: str) -> list[str]:
    docs = _files_at(rev, ["docs", "README.md"], ".md")
    source = _files_at(rev, ["src"], ".py")
    tests = _files_at(rev, ["tests/security"], ".py")
    turns = locomo_turns(locomo)
    return chunk(docs) + chunk(source) + chunk(tests) + chunk("\n".join(turns))


_LOOKALIKE = str.maketrans({"a": "\u0430", "e": "\u0435", "o": "\u043e", "i": "\u0456", "c": "\u0441"})
_LEET = str.maketrans({"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"})


def _mutations(text: str, rnd: random.Random) -> Iterator[str]:
    """Variants of ``text`` that exercise the fold, the views and the spacing rules."""
    yield text.upper()
    yield text.title()
    yield text.replace(" ", "  ")
    yield text.replace(" ", "\t" if rnd.random() < 0.5 else "\n")
    yield text.replace(". ", ".\n")
    yield "".join(c + " " if c.isalpha() and rnd.random() < 0.3 else c for c in text)
    yield "".join(c + "\u200b" if rnd.random() < 0.1 else c for c in text)
    yield text.translate(_LOOKALIKE)
    yield text.translate(_LEET)
    yield text.encode("unicode_escape").decode("ascii")
    yield json.dumps(text)
    yield text.replace(" ", "%20")
    yield "".join(f"&#{ord(c)};" if c.isalpha() and rnd.random() < 0.2 else c for c in text)
    data = text.encode("utf-8")
    yield "note: " + base64.b64encode(data).decode("ascii")
    yield "blob " + data.hex()
    yield "- " + text + "\n- " + text[::-1]
    words = text.split()
    rnd.shuffle(words)
    yield " ".join(words)


def input_sets(locomo: Path, corpora: Path, rev: str = BASE_REV, seed: int = 11) -> dict[str, list[str]]:
    """Every input set by name, in a fixed order."""
    sets = {
        "fixtures": _fixture_texts(),
        "corpora_dev": _corpus_texts(corpora),
        "realistic": _realistic_texts(locomo, rev),
    }
    rnd = random.Random(seed)
    mutated: list[str] = []
    for name in ("fixtures", "corpora_dev"):
        for text in sets[name]:
            mutated.extend(_mutations(text, rnd))
    for text in rnd.sample(sets["realistic"], min(60, len(sets["realistic"]))):
        mutated.extend(list(_mutations(text, rnd))[:6])
    sets["mutated"] = mutated
    return sets


def _verdict(text: str) -> list[list[object]]:
    out: list[list[object]] = []
    for scope in SCOPES:
        out.append([scope, *map(_finding, scan(text, scope))])
    out.append(["rules", *map(_finding, rule_findings(text))])
    return out


def _finding(f: Finding) -> list[object]:
    return [f.id, f.category, f.start, f.end, f.sub_id, f.view, list(f.evidence)]


def _ids(verdict: list[list[object]]) -> list[str]:
    return [f"{part[0]}:{','.join(str(f[0]) for f in part[1:])}" for part in verdict]  # type: ignore[index]


def digests(sets: dict[str, list[str]]) -> dict[str, list[list[str]]]:
    """Per set, per input: ``[sha256 of the verdict, finding ids]`` (the ids carry no text)."""
    out: dict[str, list[list[str]]] = {}
    for name, texts in sets.items():
        rows: list[list[str]] = []
        for text in texts:
            verdict = _verdict(text)
            blob = json.dumps(verdict, ensure_ascii=True, sort_keys=True).encode()
            rows.append([hashlib.sha256(blob).hexdigest()[:20], " ".join(_ids(verdict))])
        out[name] = rows
        if name != "mutated":
            joined: list[list[str]] = []
            for a, b in itertools.pairwise(texts):
                found = scan(f"{a}\n{b}", "strict")
                blob = json.dumps([_finding(f) for f in found], ensure_ascii=True).encode()
                joined.append([hashlib.sha256(blob).hexdigest()[:20], " ".join(f.id for f in found)])
            out[name + "_joined"] = joined
    return out


def compare(old: dict[str, list[list[str]]], new: dict[str, list[list[str]]], show: int = 10) -> int:
    """Print the first differing inputs (set, index, ids) and return how many differ."""
    differing = 0
    for name in old:
        a, b = old[name], new.get(name, [])
        if len(a) != len(b):
            print(f"{name}: {len(a)} inputs before, {len(b)} now")
            differing += abs(len(a) - len(b))
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if x[0] != y[0]:
                differing += 1
                if differing <= show:
                    print(f"{name}[{i}]: before {x[1]!r} now {y[1]!r}")
    return differing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--write", type=Path, default=None)
    ap.add_argument("--check", type=Path, default=None)
    ap.add_argument("--locomo", type=Path, default=SHARED / "locomo")
    ap.add_argument("--corpora", type=Path, default=SHARED / "threats")
    ap.add_argument("--rev", default=BASE_REV, help="commit whose docs and source become entries")
    ap.add_argument("--fallback", action="store_true", help="force the pure-Python anchor finder")
    args = ap.parse_args(argv)
    if args.fallback:
        index._force_fallback(True)  # findings never depend on the C automaton: same digest
    if (args.write is None) == (args.check is None):
        ap.error("give exactly one of --write FILE or --check FILE")
    sets = input_sets(args.locomo, args.corpora, args.rev)
    new = digests(sets)
    total = sum(len(v) for v in new.values())
    if args.write is not None:
        args.write.write_text(json.dumps(new), encoding="utf-8")
        print(f"wrote {total} verdicts ({', '.join(f'{k}={len(v)}' for k, v in new.items())}) to {args.write}")
        return 0
    old = json.loads(args.check.read_text(encoding="utf-8"))
    differing = compare(old, new)
    print(f"{total} verdicts checked, {differing} differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
