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

__all__ = ["Compiled", "any_holds", "compile_spec", "holds"]

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


def any_holds(compiled: Iterable[Compiled], marks: AbstractSet[str]) -> bool:
    """Does any of these combinations hold?"""
    return any(holds(c, marks) for c in compiled)
