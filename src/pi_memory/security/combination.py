"""Written combinations of concepts: the intent layer's definitions of an order.

A combination is a tuple of groups. A group ``"a|b"`` holds when the line has one of its
concepts; a group ``"!a|b"`` is a veto, and holds only when the line has none of them. The
lexicon's combinations, the technical acts, the orders stated as facts, the licences and the
planted persistence all use this one reading, so a combination means the same wherever it is
written.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet

__all__ = ["Compiled", "Indexed", "compile_spec", "first_holding", "holds", "index"]

#: ``(required groups, vetoed concepts)``.
Compiled = tuple[tuple[frozenset[str], ...], frozenset[str]]


def compile_spec(spec: Iterable[str]) -> Compiled:
    """The required groups and the vetoed concepts of one written combination."""
    groups = tuple(spec)
    need = tuple(frozenset(g.split("|")) for g in groups if g[0] != "!")
    veto = frozenset().union(*(g.lstrip("!").split("|") for g in groups if g[0] == "!"))
    return need, veto


def holds(compiled: Compiled, marks: AbstractSet[str]) -> bool:
    """Does a line with these concepts hold one of each required group and none vetoed?"""
    need, veto = compiled
    return all(not g.isdisjoint(marks) for g in need) and veto.isdisjoint(marks)


#: ``(compiled combinations, concept -> the combinations keyed on it, those with no group)``.
Indexed = tuple[tuple[Compiled, ...], dict[str, tuple[int, ...]], tuple[int, ...]]


def index(compiled: Iterable[Compiled]) -> Indexed:
    """The combinations keyed on the concepts of their smallest required group: a line can only
    hold a combination that has one of those, so a line is tested against the few keyed on its
    concepts, not against every combination (most lines hold none)."""
    kept = tuple(compiled)
    keyed: dict[str, list[int]] = {}
    unkeyed: list[int] = []
    for i, (need, _veto) in enumerate(kept):
        if not need:
            unkeyed.append(i)
            continue
        for concept in min(need, key=len):
            keyed.setdefault(concept, []).append(i)
    return kept, {c: tuple(ids) for c, ids in keyed.items()}, tuple(unkeyed)


def first_holding(indexed: Indexed, marks: AbstractSet[str]) -> int | None:
    """The position of the first combination (in the order given to :func:`index`) that holds,
    or ``None``: what ``next(i for i, c in enumerate(compiled) if holds(c, marks))`` finds."""
    compiled, keyed, unkeyed = indexed
    candidates: set[int] = set(unkeyed)
    for concept in marks:
        ids = keyed.get(concept)
        if ids is not None:
            candidates.update(ids)
    for i in sorted(candidates):
        if holds(compiled[i], marks):
            return i
    return None

