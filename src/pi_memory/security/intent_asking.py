"""Asking first: "always ask me before deleting backups" is the safeguard, not its waiver.

The confirmation words (``noconfirm``: ask, confirm, permiso, Bestätigung, 确认 ...) carry both
an order to act unasked ("delete them without asking", "never ask before deleting", "skip the
confirmation") and the policy that forbids it ("ask for confirmation before deleting"). A line
that asks for confirmation *before* an act, with nothing in it that waives, negates or claims
the asking already done, asks first: the weights read it without the confirmation words.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from pi_memory.security.lazy_re import compile_lazily

#: "before (doing)" in each language: the asking comes ahead of the act.
_BEFORE = compile_lazily(
    r"\b(?:before|antes|avant|bevor|vorher|prima|перед|прежде|önce(?:si|sinde)?|trước)\b"
    r"|قبل|पहले|前に|前には|前は|전에|之前|以前|前先|先问|先确认"
)
#: What turns the asking into its waiver: "without asking", "never ask", "skip the confirmation",
#: "no need to ask", "already approved", a licence to go ahead, a check switched off.
_WAIVERS = frozenset({"without", "negation", "skip", "noneed", "prior", "licence", "disable"})


def asks_first(line: str, marks: AbstractSet[str]) -> bool:
    """Does a folded line ask for confirmation before an act, waiving nothing (see the module)?"""
    return "noconfirm" in marks and marks.isdisjoint(_WAIVERS) and _BEFORE.search(line) is not None
