"""Rule type: one detection rule of the anchored rule tables (``rules_*.py``), and its hits.

A rule names *anchors*, rare literal words it cannot match without; the index (``index``)
finds them in one pass and the matcher (``matcher``) evaluates only the rules they reach,
inside a bounded window around each anchor.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

from pi_memory.security.prefilter import Need, needs, prefixes, scans_ahead

ALL, CONTEXT, STRICT = 0, 1, 2
SCOPE_LEVELS: dict[str, int] = {"all": ALL, "context": CONTEXT, "strict": STRICT}

#: Extra predicate on a candidate match: ``check(view, match) -> keep?``.
Check = Callable[[str, "re.Match[str]"], bool]


@dataclass(frozen=True, eq=False)
class Rule:
    """One detection rule. ``source`` runs on a case-folded view (write it in lower case).

    The regexes are compiled on first use (a CLI call that scans one clean note compiles only the
    few rules its anchors reach)."""

    id: str
    category: str
    scope: int
    anchors: tuple[str, ...]
    source: str
    sub_id: str = ""
    back: int = 0
    fwd: int = 400
    leet: bool = False
    veto_source: str | None = None
    veto_back: int = 60
    veto_fwd: int = 0
    check: Check | None = None
    requires: str | None = None
    partners: tuple[str, ...] = ()  # anchor keys (title-cased), see anchor_key()
    partner_back: int = 0
    partner_fwd: int = 0

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.source)

    @cached_property
    def veto(self) -> re.Pattern[str] | None:
        return re.compile(self.veto_source) if self.veto_source else None

    @cached_property
    def starts(self) -> Need:
        """Strings every match starts with (``prefilter.prefixes``), for wide-window searches."""
        return prefixes(self.source)

    @cached_property
    def scans_ahead(self) -> bool:
        """Does ``re`` skip ahead to this regex's first character (``prefilter.scans_ahead``)?"""
        return scans_ahead(self.source)

    @cached_property
    def needs(self) -> tuple[Need, ...]:
        """Literal sets every match must contain one of (``prefilter``), minus the ones an anchor
        occurrence already satisfies, most selective first."""
        stems = [a.rstrip("*").lower() for a in self.anchors]
        return tuple(
            need for need in needs(self.source)
            if not all(any(s in a for s in need) for a in stems)
        )


def rule(
    id: str,
    category: str,
    scope: int,
    anchors: Iterable[str] | str,
    pattern: str,
    *,
    sub: str = "",
    back: int = 0,
    fwd: int = 400,
    leet: bool = False,
    veto: str | None = None,
    veto_back: int = 60,
    veto_fwd: int = 0,
    check: Check | None = None,
    requires: str | None = None,
    partners: Iterable[str] | str = (),
    partner_back: int = 0,
    partner_fwd: int = 0,
) -> Rule:
    """Build a :class:`Rule`.

    ``anchors`` (and ``partners``) may be a ``|``-separated string. An anchor matches a whole
    word unless it ends in ``*`` (a stem) or contains non-ASCII letters (scripts without spaces).
    ``partners``: at least one of these words must occur within ``[p - partner_back,
    p + partner_fwd]`` of the anchor at ``p`` before the regex is even tried.
    ``requires``: a literal that must occur somewhere in the view.
    """
    anchor_list = anchors.split("|") if isinstance(anchors, str) else list(anchors)
    partner_list = partners.split("|") if isinstance(partners, str) else list(partners)
    return Rule(
        id=id,
        category=category,
        scope=scope,
        anchors=tuple(a for a in anchor_list if a),
        source=pattern,
        sub_id=sub,
        back=back,
        fwd=fwd,
        leet=leet,
        veto_source=veto,
        veto_back=veto_back,
        veto_fwd=veto_fwd,
        check=check,
        requires=requires,
        partners=tuple(anchor_key(a) for a in partner_list if a),
        partner_back=partner_back,
        partner_fwd=partner_fwd,
    )


@dataclass(frozen=True)
class Hit:
    """A rule that matched in one view, with the match span in that view."""

    rule: Rule
    start: int
    end: int



def anchor_key(anchor: str) -> str:
    """The form an anchor takes in the title-cased view (stem marker dropped)."""
    return anchor.rstrip("*").title() if anchor != "*" else anchor


def is_stem(anchor: str) -> bool:
    """Does ``anchor`` match word prefixes (``*`` stems, non-ASCII or non-alphanumeric ends)?"""
    return (anchor.endswith("*") and anchor != "*") or not anchor.isascii() or not anchor[-1:].isalnum()
