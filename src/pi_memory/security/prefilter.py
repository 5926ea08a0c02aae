"""Literals a rule regex cannot match without, read from its parse tree.

Why: most anchor occurrences lead to a rule evaluation that fails, and a failing bounded
``search`` costs microseconds. If every match of a pattern must contain one of a few literal
strings (``ignore\\s+... instructions`` needs ``instruct``), a C-speed ``str.find`` for them rules
the pattern out in a view or a window before the regex engine runs. The check is only a
necessary condition, so it never changes what the rule finds.

The analysis walks ``re._parser``'s tree. Anything it does not understand contributes nothing
(no pruning), so an unexpected construct can only cost speed, never a finding. Literals come only
from consuming nodes; zero-width assertions are transparent, so a literal always lies inside the
matched span.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Any, TypeVar

#: A necessary condition: at least one of these strings occurs inside every match.
Need = tuple[str, ...]
_T = TypeVar("_T")

_MAX_SET = 48  # cross products larger than this are cut into shorter runs
_START_CHARS = 6  # start strings are cut to this length, then de-duplicated
_MAX_STARTS = 64  # beyond this the finds cost more than any search they replace

try:
    _parser: Any = importlib.import_module("re._parser")
    _c: Any = importlib.import_module("re._constants")
except ImportError:  # pragma: no cover - a Python without the private parser: no pruning
    _parser = _c = None


def _analyse(source: str, flags: int, walk: Callable[[list[Any]], _T]) -> _T | None:
    """``walk`` over the parse tree of a case-sensitive pattern; ``None`` when it cannot be read."""
    if _parser is None or flags & re.IGNORECASE:
        return None
    try:
        tree = _parser.parse(source, flags)
        if tree.state.flags & re.IGNORECASE:
            return None
        return walk(list(tree))
    except Exception:  # private API drift must only disable the optimisation
        return None


def needs(source: str, flags: int = 0) -> tuple[Need, ...]:
    """Necessary literal sets for ``re.compile(source, flags)``, best first (may be empty)."""
    analysed = _analyse(source, flags, _sequence)
    if analysed is None:
        return ()
    exact, found = analysed
    if exact is not None and "" not in exact:
        found.append(exact)
    ranked = sorted({_minimal(s) for s in found if s and "" not in s}, key=_score, reverse=True)
    return tuple(ranked)


def _score(need: Need) -> tuple[int, int]:
    return min(len(s) for s in need), -len(need)


def _minimal(strings: frozenset[str] | set[str]) -> Need:
    """Drop every string that contains a shorter one of the set (the shorter one is implied)."""
    ordered = sorted(set(strings), key=lambda s: (len(s), s))
    kept: list[str] = []
    for s in ordered:
        if not any(k in s for k in kept):
            kept.append(s)
    return tuple(kept)


def _best(found: list[set[str]]) -> set[str] | None:
    usable = [s for s in found if s and "" not in s]
    if not usable:
        return None
    return max(usable, key=lambda s: _score(tuple(s)))


def _sequence(items: list[tuple[Any, Any]]) -> tuple[set[str] | None, list[set[str]]]:
    """``(exact, found)``: ``exact`` is every string the sequence can match when that set is
    finite and small, ``found`` the necessary sets seen along the way."""
    found: list[set[str]] = []
    run: set[str] = {""}
    exact_all = True
    for op, av in items:
        if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
            continue  # zero-width: the consumed text stays contiguous
        exact, inner = _node(op, av)
        found.extend(inner)
        if exact is None:
            exact_all = False
            if run != {""}:
                found.append(run)
            run = {""}
            continue
        if len(run) * len(exact) > _MAX_SET:
            exact_all = False
            if run != {""}:
                found.append(run)
            run = set(exact)
        else:
            run = {a + b for a in run for b in exact}
    if run != {""}:
        found.append(run)
    return (run if exact_all else None), found


def _node(op: Any, av: Any) -> tuple[set[str] | None, list[set[str]]]:
    if op is _c.LITERAL:
        return {chr(av)}, []
    if op is _c.IN:
        if all(o is _c.LITERAL for o, _ in av) and len(av) <= _MAX_SET:
            return {chr(v) for _, v in av}, []
        return None, []
    if op is _c.SUBPATTERN:
        _group, add_flags, _del_flags, sub = av
        if add_flags & re.IGNORECASE:
            return None, []
        return _sequence(list(sub))
    if op is _c.ATOMIC_GROUP:
        return _sequence(list(av))
    if op is _c.BRANCH:
        _, branches = av
        results = [_sequence(list(b)) for b in branches]
        if all(e is not None for e, _ in results):
            union: set[str] = set()
            for e, _ in results:
                assert e is not None
                union |= e
            if len(union) <= _MAX_SET:
                return union, []
        picks: list[set[str]] = []
        for e, f in results:
            pick = _best(f + ([e] if e is not None else []))
            if pick is None:
                return None, []
            picks.append(pick)
        merged = set().union(*picks)
        return None, ([merged] if len(merged) <= 4 * _MAX_SET else [])
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
        lo, hi, sub = av
        if lo == 0:
            return None, []
        exact, found = _sequence(list(sub))
        if lo == hi == 1:
            return exact, found
        if exact is not None and "" not in exact:
            found = [*found, exact]
        return None, found
    return None, []



def prefixes(source: str, flags: int = 0) -> Need:
    """Strings one of which every match of ``source`` starts with (``()`` if unknown).

    Leading zero-width assertions are skipped: they consume nothing, so the first consumed text
    is still the start of the match."""
    found = _analyse(source, flags, _prefix_seq)
    if not found or "" in found:
        return ()
    # A match that starts with "'scp'" also starts with "'scp": cutting the strings short and
    # keeping only those no other kept string begins keeps the set small for ``str.find``.
    kept: list[str] = []
    for start in sorted({s[:_START_CHARS] for s in found}, key=lambda s: (len(s), s)):
        if not any(start.startswith(k) for k in kept):
            kept.append(start)
    return tuple(sorted(kept)) if len(kept) <= _MAX_STARTS else ()


def scans_ahead(source: str, flags: int = 0) -> bool:
    """Can ``re`` skip to where a match may begin (a literal or character-set first item)?

    ``re`` scans for a pattern's leading literal or character set in C; a pattern that opens
    with ``\\b`` or a look-behind (or a branch that does) is tried at every position instead.
    ``True`` when unknown: the answer only picks a search strategy."""
    found = _analyse(source, flags, _opens_with_char)
    return True if found is None else found


def _opens_with_char(items: list[tuple[Any, Any]]) -> bool:
    if not items:
        return False
    op, av = items[0]
    if op in (_c.LITERAL, _c.IN):
        return True
    if op is _c.SUBPATTERN:
        return not av[1] & re.IGNORECASE and _opens_with_char(list(av[3]))
    if op is _c.BRANCH:
        return all(_opens_with_char(list(b)) for b in av[1])
    return False


def _prefix_seq(items: list[tuple[Any, Any]]) -> set[str] | None:
    run: set[str] = {""}
    for op, av in items:
        if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
            continue
        exact, _ = _node(op, av)
        if exact is not None:
            if len(run) * len(exact) > _MAX_SET:
                return run
            run = {a + b for a in run for b in exact}
            continue
        head = _prefix_node(op, av)
        if head is None or len(run) * len(head) > 4 * _MAX_SET:
            return head if run == {""} else run
        return {a + b for a in run for b in head}
    return run


def _prefix_node(op: Any, av: Any) -> set[str] | None:
    if op is _c.SUBPATTERN:
        _group, add_flags, _del_flags, sub = av
        return None if add_flags & re.IGNORECASE else _prefix_seq(list(sub))
    if op is _c.ATOMIC_GROUP:
        return _prefix_seq(list(av))
    if op is _c.BRANCH:
        union: set[str] = set()
        for branch in av[1]:
            head = _prefix_seq(list(branch))
            if head is None or "" in head:
                return None
            union |= head
        return union if len(union) <= 4 * _MAX_SET else None
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) and av[0] >= 1:
        return _prefix_seq(list(av[2]))
    return None
