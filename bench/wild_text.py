"""How often the scanner refuses real, harmless prose written by others: the documentation shipped
with the installed packages.

Every installed distribution's long description (its ``METADATA`` body: the README on PyPI) and,
when the interop tests' Node peers are installed, every ``README.md`` under their
``node_modules``, cut into paragraphs. A paragraph is kept when it is 60-700 characters, mostly
letters, and not a table row, heading or bare markup; duplicates count once. None of it is an
attack (package documentation names APIs, keys, URLs, hooks and "ignore rules" all the time),
so every flagged paragraph is a false positive a user would meet when an agent stores what it
read.

Each paragraph's half is fixed by a hash of its text (``tune`` when the first byte of its SHA-256
is even, as the hand-written sets do): only the ``tune`` half may be read while fixing causes
(``--show``); the ``probe`` half is only counted. Which paragraphs there are depends on the
installed versions, so the report names them (``sources``) and a figure compares two scanners
only on one install::

    .venv/bin/python bench/wild_text.py [--show] [--unseen SITE_PACKAGES] [--locomo DIR]
        [--no-code] [--no-config] [--harness PATH] [--out bench/results/wild_text.json]

``--unseen`` also counts, as a whole and never shown, the paragraphs of the packages installed in
another environment and not in this one (the Chroma server's venv that the tests use, say):
documents no one read while fixing causes, for a figure on text from other authors.

``--locomo`` (the shared LoCoMo conversations by default, skipped when absent) adds a second kind
of real prose, the one an agent stores most: chat turns, each ``speaker: text`` as
``bench/scan_bench.py`` reads them, kept within the paragraphs' length bounds, each distinct turn
once, halved by the same hash and reported as their own rows (``locomo_tune``, ``locomo_probe``).

``--code`` (on by default; ``--no-code`` skips it) adds what an agent stores from a coding session:
the Python source of a fixed list of installed packages (LLM SDKs, HTTP clients, agent frameworks,
validation and command-line libraries: ``CODE_DISTS``, those installed), each file cut into ~2 KB
chunks at line breaks as ``bench/scan_bench.py`` cuts this repository's source, each distinct chunk
once, at most ``CODE_CAP`` per package (spread evenly over its files), halved by the same hash and
reported as their own rows (``code_tune``, ``code_probe``). Real code is full of "send",
"api_key", "override", "run in a thread", and none of it is an attack. With ``--unseen``, the
code of the packages installed only there is counted too (``unseen_code``), never shown.

``--config`` (on by default; ``--no-config`` skips it) adds the other files an agent reads and stores
beside code: configuration and scripts (``*.toml``, ``*.cfg``, ``*.ini``, ``*.yaml``/``*.yml``, ``*.sh``,
JSON files under ``CONFIG_JSON_MAX`` bytes, Makefiles, Dockerfiles and shell scripts without a suffix),
those of every installed distribution, of the Node peers and of this repository's own tree (not its fixtures,
which are attacks on purpose, nor its measured results, which quote the corpora), cut and capped as
the code is, halved by the same hash and reported as their own rows (``config_tune``,
``config_probe``; with ``--unseen``, ``unseen_config``).

Prints JSON: paragraphs per half, and per half the flagged ones by layer (rules, intent) and by
finding id; beside them, in the same run, how many the hermes pattern list (strict) flags, when
the shared evaluation harness is there (``--harness``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness import SHARED  # noqa: E402

ROOT = HERE.parent
DEFAULT_LOCOMO = SHARED / "bench" / "locomo"
if not DEFAULT_LOCOMO.is_dir():  # a git worktree has no ../shared; the checkout's data is there
    DEFAULT_LOCOMO = Path("/work/shared/bench/locomo")
NODE_MODULES = ROOT / "tests" / "interop" / "node_modules"
MIN_CHARS, MAX_CHARS = 60, 700
#: The distributions whose source is the code rows: what coding agents read and store most.
CODE_DISTS = (
    "anthropic", "openai", "httpx", "httpcore", "requests", "urllib3", "langchain-core", "langgraph",
    "mcp", "pydantic", "pydantic-settings", "starlette", "click", "typer", "rich", "tenacity", "jsonschema",
)
CODE_CAP = 150  # chunks per package, so that one large SDK does not make the figure alone
#: What configuration and scripts look like by name: their suffixes, and the names of suffix-less ones.
CONFIG_SUFFIXES = (".toml", ".cfg", ".ini", ".yaml", ".yml", ".sh", ".json")
CONFIG_NAMES = ("Makefile", "GNUmakefile", "makefile", "Dockerfile", "Containerfile", "Justfile", "justfile",
                "Procfile")
CONFIG_JSON_MAX = 32_000  # a larger JSON file is data (a tokenizer, a lock file, a schema dump), not settings
_SHELLS = (b"#!/bin/sh", b"#!/bin/bash", b"#!/usr/bin/env sh", b"#!/usr/bin/env bash", b"#!/bin/zsh")
#: Parts of this repository's tree that are not its configuration: attacks kept as test data, measured
#: results that quote the corpora, and what tools and installs leave behind.
_REPO_SKIP = frozenset({".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache",
                        ".pytest_cache", ".hypothesis", ".cache", "build", "dist"})
_REPO_SKIP_PATHS = ("tests/fixtures", "bench/results", "bench/scratch")
_BREAK = re.compile(r"\n[ \t]*\n")
_MARKUP_START = ("|", "```", "<", "!", "[!", "#", "..", "---", "===")


def _part(text: str) -> str:
    return "tune" if hashlib.sha256(text.encode()).digest()[0] % 2 == 0 else "probe"


def _name(dist: metadata.Distribution) -> str:
    return (dist.metadata["Name"] or "").lower().replace("_", "-")


def documents(site: Path | None = None) -> Iterator[tuple[str, str]]:
    """``(source, body)`` for every installed distribution's description and every Node peer's README,
    in a fixed order; with ``site``, the descriptions of the distributions installed there and not
    here instead (packages no one read while fixing causes)."""
    if site is None:
        dists = list(metadata.distributions())
    else:
        here = {_name(d) for d in metadata.distributions()}
        dists = [d for d in metadata.distributions(path=[str(site)]) if _name(d) not in here]
    for dist in sorted(dists, key=_name):
        raw = dist.read_text("METADATA") or ""
        body = raw.split("\n\n", 1)[1] if "\n\n" in raw else ""  # the headers end at the first blank line
        if body.strip():
            yield f"pypi:{dist.metadata['Name']}=={dist.version}", body
    if site is None and NODE_MODULES.is_dir():
        for readme in sorted(NODE_MODULES.rglob("README.md")):
            try:
                yield f"npm:{readme.parent.relative_to(NODE_MODULES)}", readme.read_text("utf-8", errors="replace")
            except OSError:
                continue


def paragraphs(body: str) -> Iterator[str]:
    """The prose paragraphs of one document, whitespace collapsed."""
    for chunk in _BREAK.split(body):
        para = " ".join(chunk.split())
        if not MIN_CHARS <= len(para) <= MAX_CHARS or para.startswith(_MARKUP_START):
            continue
        if sum(c.isalpha() for c in para) >= 0.6 * len(para):
            yield para


_Row = tuple[str, str, str]  # (part, paragraph, source)


def _read(site: Path | None = None, known: frozenset[str] = frozenset()) -> tuple[list[_Row], list[str]]:
    """``([(part, paragraph, source)], sources)`` in one pass over the documents, each paragraph
    once (at its first source) and none of ``known``."""
    seen = set(known)
    rows: list[tuple[str, str, str]] = []
    sources: list[str] = []
    for source, body in documents(site):
        sources.append(source)
        for para in paragraphs(body):
            if para not in seen:
                seen.add(para)
                rows.append((_part(para), para, source))
    return rows, sources


def locomo_rows(locomo: Path) -> list[tuple[str, str]]:
    """``(part, turn)`` for each distinct LoCoMo dialogue turn in ``locomo`` within the paragraphs'
    length bounds (a greeting of a few words says nothing about the scanner), in file order."""
    if not locomo.is_dir():
        return []
    from scan_bench import locomo_turns

    seen: set[str] = set()
    rows: list[tuple[str, str]] = []
    for turn in locomo_turns(locomo):
        turn = " ".join(turn.split())
        if MIN_CHARS <= len(turn) <= MAX_CHARS and turn not in seen:
            seen.add(turn)
            rows.append((_part(turn), turn))
    return rows


def _code_chunks(dist: metadata.Distribution) -> list[str]:
    """The distinct ~2 KB chunks of one distribution's ``.py`` files (sorted by path), at most
    ``CODE_CAP`` of them taken at an even stride; a chunk shorter than a paragraph's minimum (a
    file's tail of a few lines) says nothing and is dropped."""
    from scan_bench import chunk

    found: list[str] = []
    for file in sorted(str(f) for f in dist.files or () if str(f).endswith(".py")):
        try:
            text = Path(str(dist.locate_file(file))).read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        pieces = (piece.rstrip().lstrip("\n") for piece in chunk(text))  # indentation kept: it is code
        found.extend(c for c in pieces if len(c.strip()) >= MIN_CHARS)
    step = -(-len(found) // CODE_CAP) if found else 1
    return found[::step]


def code_rows(site: Path | None = None, known: frozenset[str] = frozenset()) -> list[_Row]:
    """``(part, chunk, source)`` for the code of the ``CODE_DISTS`` installed here, each chunk once
    and none of ``known``; with ``site``, of every distribution installed there and not here."""
    here = {_name(d): d for d in metadata.distributions()}
    if site is None:
        dists = [here[name] for name in CODE_DISTS if name in here]
    else:
        there = {_name(d): d for d in metadata.distributions(path=[str(site)])}
        dists = [there[name] for name in sorted(there) if name not in here]
    seen = set(known)
    rows: list[_Row] = []
    for dist in dists:
        source = f"py:{dist.metadata['Name']}=={dist.version}"
        for piece in _code_chunks(dist):
            if piece not in seen:
                seen.add(piece)
                rows.append((_part(piece), piece, source))
    return rows


def _is_config(path: Path) -> bool:
    """Whether ``path`` names a configuration file or a script by its name, or, without a suffix, by a
    shell's ``#!`` line; a JSON file only when small enough to be settings."""
    name = path.name
    if path.suffix in CONFIG_SUFFIXES:
        return path.suffix != ".json" or _size(path) <= CONFIG_JSON_MAX
    if name in CONFIG_NAMES or name.startswith(("Dockerfile.", "Makefile.")) or name.endswith(".mk"):
        return True
    if path.suffix:
        return False
    try:
        with path.open("rb") as handle:
            return handle.read(24).startswith(_SHELLS)
    except OSError:
        return False


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return CONFIG_JSON_MAX + 1


def _config_chunks(paths: list[Path]) -> list[str]:
    """The ~2 KB chunks of the configuration files among ``paths`` (in the order given), cut as the
    code is, at most ``CODE_CAP`` of them at an even stride."""
    from scan_bench import chunk

    found: list[str] = []
    for path in paths:
        if not path.is_file() or not _is_config(path):
            continue
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        pieces = (piece.rstrip().lstrip("\n") for piece in chunk(text))
        found.extend(c for c in pieces if len(c.strip()) >= MIN_CHARS)
    step = -(-len(found) // CODE_CAP) if found else 1
    return found[::step]


def _tree_files(root: Path, skip_paths: tuple[str, ...] = ()) -> list[Path]:
    """The files under ``root``, sorted, without the folders of ``_REPO_SKIP`` and ``skip_paths``."""
    files: list[Path] = []
    for folder, subdirs, names in os.walk(root):
        rel = Path(folder).relative_to(root).as_posix()
        subdirs[:] = [d for d in subdirs if d not in _REPO_SKIP and os.path.normpath(f"{rel}/{d}") not in skip_paths]
        files.extend(Path(folder) / name for name in names)
    return sorted(files)


def _node_groups(modules: Path) -> list[tuple[str, list[Path]]]:
    """``(source, files)`` for each Node peer package under ``modules`` (a scope's packages one by one)."""
    groups: list[tuple[str, list[Path]]] = []
    for top in sorted(modules.iterdir()):
        if top.name.startswith(".") or not top.is_dir():
            continue
        for package in sorted(top.iterdir()) if top.name.startswith("@") else [top]:
            if package.is_dir():
                groups.append((f"npm:{package.relative_to(modules).as_posix()}", _tree_files(package)))
    return groups


def _installed() -> dict[str, metadata.Distribution]:
    """The distributions installed here, by normalised name."""
    return {_name(d): d for d in metadata.distributions()}


def config_rows(site: Path | None = None, known: frozenset[str] = frozenset(), root: Path | None = None) -> list[_Row]:
    """``(part, chunk, source)`` for the configuration files and scripts of every distribution installed
    here, of the Node peers and of the repository at ``root``, each chunk once and none of ``known``;
    with ``site``, of every distribution installed there and not here (and none of the others).
    ``root`` is this repository unless given."""
    root = ROOT if root is None else root
    here = _installed()
    if site is None:
        dists = [here[name] for name in sorted(here)]
    else:
        there = {_name(d): d for d in metadata.distributions(path=[str(site)])}
        dists = [there[name] for name in sorted(there) if name not in here]
    groups: list[tuple[str, list[Path]]] = []
    for dist in dists:
        files = sorted(str(f) for f in dist.files or () if ".dist-info/" not in str(f) and ".egg-info/" not in str(f))
        groups.append((f"cfg:{dist.metadata['Name']}=={dist.version}",
                       [Path(str(dist.locate_file(f))) for f in files]))
    if site is None and NODE_MODULES.is_dir():
        groups.extend(_node_groups(NODE_MODULES))
    if site is None and root.is_dir():
        groups.append((f"repo:{root.name}", _tree_files(root, _REPO_SKIP_PATHS)))
    seen = set(known)
    rows: list[_Row] = []
    for source, paths in groups:
        for piece in _config_chunks(paths):
            if piece not in seen:
                seen.add(piece)
                rows.append((_part(piece), piece, source))
    return rows


def corpus_by_source(site: Path | None = None) -> list[tuple[str, str, str]]:
    """``(part, paragraph, source)`` for each paragraph once (at its first source); with ``site``,
    the paragraphs of the packages only installed there that this environment's corpus lacks."""
    known = frozenset(para for _, para, _ in _read()[0]) if site is not None else frozenset()
    return _read(site, known)[0]


def corpus() -> tuple[list[tuple[str, str]], list[str]]:
    """``([(part, paragraph)], sources)``, each paragraph once."""
    rows, sources = _read()
    return [(part, para) for part, para, _ in rows], sources


def _tally(
    scan: Callable[[str], list[Any]], hermes: Callable[[str], bool] | None, texts: list[str], *, show: bool
) -> dict[str, object]:
    """One half's row: how many of ``texts`` are flagged, by layer and finding id (and by hermes);
    with ``show``, each flagged text and its evidence on stderr."""
    layers: Counter[str] = Counter()
    ids: Counter[str] = Counter()
    for text in texts:
        found = scan(text)
        if not found:
            continue
        layers["intent" if all(f.view == "intent" for f in found) else "rules"] += 1
        ids.update({f.id for f in found})
        if show:
            evidence = [(f.id, list(f.evidence)) for f in found]
            print(json.dumps({"findings": evidence, "text": text}, ensure_ascii=False), file=sys.stderr)
    flagged = sum(layers.values())
    row: dict[str, object] = {
        "paragraphs": len(texts),
        "flagged": flagged,
        "rate": round(flagged / len(texts), 4) if texts else 0.0,
        "by_layer": dict(sorted(layers.items())),
        "by_id": dict(ids.most_common()),
    }
    if hermes is not None:
        row["hermes_flagged"] = sum(hermes(text) for text in texts)
    return row


def _unseen(
    scan: Callable[[str], list[Any]], hermes: Callable[[str], bool] | None, site: Path, rows: list[_Row]
) -> dict[str, object]:
    """The row of texts no one read: how many, from how many packages, how many flagged (never shown)."""
    texts = [text for _, text, _ in rows]
    flagged = sum(bool(scan(text)) for text in texts)
    row: dict[str, object] = {
        "site": str(site),
        "packages": len({source for _, _, source in rows}),
        "paragraphs": len(texts),
        "flagged": flagged,
        "rate": round(flagged / len(texts), 4) if texts else 0.0,
    }
    if hermes is not None:
        row["hermes_flagged"] = sum(hermes(text) for text in texts)
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", action="store_true",
                    help="print the tune halves' flagged paragraphs and turns (stderr)")
    ap.add_argument("--out", type=Path, help="also write the JSON report here")
    ap.add_argument("--unseen", type=Path, metavar="SITE_PACKAGES",
                    help="also count (never show) the paragraphs of the packages installed there and not here")
    ap.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO,
                    help="the LoCoMo conversations whose dialogue turns are a second source (skipped when absent)")
    ap.add_argument("--code", action=argparse.BooleanOptionalAction, default=True,
                    help="add the installed packages' Python source in ~2 KB chunks as rows of their own")
    ap.add_argument("--config", action=argparse.BooleanOptionalAction, default=True,
                    help="add configuration files and scripts (installed packages', this repository's) as rows")
    ap.add_argument("--harness", type=Path, default=SHARED / "bench" / "threats" / "threat_eval.py",
                    help="the evaluation harness whose hermes pattern list is the peer (skipped when absent)")
    args = ap.parse_args(argv)
    from pi_memory.security import scan

    hermes = None
    if args.harness.is_file():
        from threat_bench import load_harness

        loaded = load_harness(args.harness)
        hermes = lambda text: bool(loaded.is_blocked(loaded.hermes_scan(text)))  # noqa: E731

    rows, sources = _read()
    report: dict[str, object] = {"sources": len(sources), "source_list": sources}
    for part in ("tune", "probe"):
        mine = [p for q, p, _ in rows if q == part]
        report[part] = _tally(scan, hermes, mine, show=args.show and part == "tune")
    turns = locomo_rows(args.locomo)
    if turns:
        report["locomo"] = str(args.locomo)
        for part in ("tune", "probe"):
            mine = [t for q, t in turns if q == part]
            report[f"locomo_{part}"] = _tally(scan, hermes, mine, show=args.show and part == "tune")
    code = code_rows() if args.code else []
    config = config_rows() if args.config else []
    for name, chunks in (("code", code), ("config", config)):
        if chunks:
            report[f"{name}_sources"] = sorted({source for _, _, source in chunks})
            for part in ("tune", "probe"):
                mine = [c for q, c, _ in chunks if q == part]
                report[f"{name}_{part}"] = _tally(scan, hermes, mine, show=args.show and part == "tune")
    if args.unseen is not None:
        report["unseen"] = _unseen(scan, hermes, args.unseen, _read(args.unseen, frozenset(p for _, p, _ in rows))[0])
        if args.code:
            unseen_code = code_rows(args.unseen, frozenset(c for _, c, _ in code))
            report["unseen_code"] = _unseen(scan, hermes, args.unseen, unseen_code)
        if args.config:
            unseen_config = config_rows(args.unseen, frozenset(c for _, c, _ in config))
            report["unseen_config"] = _unseen(scan, hermes, args.unseen, unseen_config)
    text = json.dumps(report, indent=2)
    lists = ("source_list", "code_sources", "config_sources")
    print(json.dumps({k: v for k, v in report.items() if k not in lists}, indent=2))
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
