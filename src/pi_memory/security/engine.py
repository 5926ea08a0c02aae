"""Rule type and the anchored matcher that runs a rule table over one normalised view.

Why anchored: Python's ``re`` has no multi-pattern automaton, so running ~150 regexes over every
entry would cost milliseconds. Instead every rule names *anchors* (rare literal words it cannot
match without). One trie-shaped regex finds all anchors in a single pass; only the rules keyed to
an anchor that is present are evaluated, and only inside a bounded window around that anchor.

The anchor pass runs over ``view.title()``: the view is already case-folded, so ``title()``
upper-cases exactly the first letter of every word. The trie is built from title-cased anchors,
so the regex engine's first-character prefilter skips every lower-case (mid-word) position in C
and anchors only match at word starts. That keeps the fast path at tens of microseconds for a
2 KB entry.

Linear time: every rule regex uses bounded quantifiers only, each evaluation is confined to a
window of at most ``back + fwd`` characters, and a rule that keeps failing is evaluated at most
``_MAX_TRIES`` times per view before one final bounded-filler search over the rest of the view.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

ALL, CONTEXT, STRICT = 0, 1, 2
SCOPE_LEVELS: dict[str, int] = {"all": ALL, "context": CONTEXT, "strict": STRICT}

#: Extra predicate on a candidate match: ``check(view, match) -> keep?``.
Check = Callable[[str, "re.Match[str]"], bool]

_MAX_TRIES = 24


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


_WORD_END = "(?![^\\W\\d_])"
_WORD, _STEM = "<word-end>", "<stem-end>"  # trie terminal markers (never a single character)


def anchor_key(anchor: str) -> str:
    """The form an anchor takes in the title-cased view (stem marker dropped)."""
    return anchor.rstrip("*").title() if anchor != "*" else anchor


def _is_stem(anchor: str) -> bool:
    return (anchor.endswith("*") and anchor != "*") or not anchor.isascii() or not anchor[-1:].isalnum()


_Trie = dict[str, "_Trie"]


def _trie_pattern(words: Iterable[tuple[str, bool]]) -> str:
    """A trie-shaped alternation (no prefix is tried twice); whole words get a word-end check."""
    trie: _Trie = {}
    for word, stem in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[_STEM if stem else _WORD] = {}

    def build(node: _Trie) -> str:
        alts = [re.escape(k) + build(node[k]) for k in sorted(k for k in node if k not in (_STEM, _WORD))]
        if _WORD in node:
            alts.append(_WORD_END)
        if _STEM in node:
            alts.append("")
        return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"

    return build(trie)


@dataclass
class RuleIndex:
    """Rules grouped by anchor for one scope level, plus the compiled anchor finder."""

    rules: Sequence[Rule]
    order: dict[int, int] = field(init=False)
    by_anchor: dict[str, tuple[Rule, ...]] = field(init=False)
    aliases: dict[str, tuple[str, ...]] = field(init=False)
    finder: re.Pattern[str] = field(init=False)
    _kinds: dict[str, bool] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.order = {id(r): i for i, r in enumerate(self.rules)}
        groups: dict[str, list[Rule]] = {}
        kinds: dict[str, bool] = {}
        for r in self.rules:
            for a in r.anchors:
                key = anchor_key(a)
                groups.setdefault(key, []).append(r)
                kinds[key] = kinds.get(key, False) or _is_stem(a)
            for key in r.partners:
                groups.setdefault(key, [])
                kinds[key] = kinds.get(key, False) or _is_stem(key.lower())
        # The finder reports only the longest anchor at a position ("Api_Key" hides "Api"), so a
        # key also stands for every shorter key that is a whole word at its start.
        self.aliases = {
            k: tuple(p for p in groups if p != k and k.startswith(p) and not k[len(p)].isalpha())
            for k in groups
        }
        self.by_anchor = {
            k: tuple(sorted({id(r): r for p in (k, *self.aliases[k]) for r in groups[p]}.values(),
                            key=lambda r: self.order[id(r)]))
            for k in groups
        }
        self._kinds = kinds
        self.finder = re.compile(_trie_pattern((k, kinds[k]) for k in groups))

    @cached_property
    def fallback(self) -> re.Pattern[str]:
        """Word-boundary finder over the view itself, for the rare texts whose ``title()`` changes length."""
        return re.compile(r"(?<!\w)" + _trie_pattern((k.lower(), self._kinds[k]) for k in self.by_anchor))


def run_rules(
    index: RuleIndex, view: str, counter: list[int] | None = None, skip: set[int] | None = None
) -> list[Hit]:
    """Evaluate the index over ``view``; at most one hit per rule, in no particular order.

    Rules whose ``id()`` is in ``skip`` are not evaluated (the caller already has a hit for them)."""
    titled = view.title()
    if len(titled) == len(view):
        found = [(m.start(), m.group()) for m in index.finder.finditer(titled)]
    else:  # title() changed the length (rare scripts): fall back to a word-boundary search
        found = [(m.start(), m.group().title()) for m in index.fallback.finditer(view)]
    if not found:
        if counter is not None:
            counter[0] += len(view)
        return []
    by_anchor = index.by_anchor
    positions: dict[str, list[int]] = {}
    aliases = index.aliases
    for p, key in found:
        positions.setdefault(key, []).append(p)
        for alias in aliases[key]:
            positions.setdefault(alias, []).append(p)
    n = len(view)
    done: set[int] = set(skip) if skip else set()
    tries: dict[int, int] = {}
    literal_in: dict[str, bool] = {}
    hits: list[Hit] = []
    work = n
    for p, key in found:
        for r in by_anchor[key]:
            rid = id(r)
            if rid in done:
                continue
            if r.requires is not None:
                ok = literal_in.get(r.requires)
                if ok is None:
                    ok = literal_in[r.requires] = r.requires in view
                if not ok:
                    done.add(rid)
                    continue
            if r.partners and not _near(positions, r, p):
                continue
            t = tries.get(rid, 0) + 1
            tries[rid] = t
            if t > _MAX_TRIES:
                lo, hi = max(0, p - r.back), n  # one last bounded search to the end, then stop
                done.add(rid)
            else:
                lo, hi = max(0, p - r.back), min(n, p + r.fwd)
            work += hi - lo
            span = _evaluate(r, view, lo, hi, anchored=r.back == 0 and t <= _MAX_TRIES)
            if span is not None:
                hits.append(Hit(r, span[0], span[1]))
                done.add(rid)
    if counter is not None:
        counter[0] += work
    return hits


def _near(positions: dict[str, list[int]], r: Rule, p: int) -> bool:
    lo, hi = p - r.partner_back, p + r.partner_fwd
    for partner in r.partners:
        ps = positions.get(partner)
        if ps:
            i = bisect_left(ps, lo)
            if i < len(ps) and ps[i] <= hi:
                return True
    return False


def _evaluate(r: Rule, view: str, lo: int, hi: int, anchored: bool = False) -> tuple[int, int] | None:
    """First match of ``r`` in ``view[lo:hi]`` that survives its veto and check (``anchored``:
    only a match starting at ``lo``, the anchor itself)."""
    pattern = r.pattern
    if anchored:
        m = pattern.match(view, lo, hi)
        if m is None or not _accept(r, view, m):
            return None
        return m.start(), m.end()
    m = pattern.search(view, lo, hi)
    attempts = 0
    while m is not None:
        if _accept(r, view, m):
            return m.start(), m.end()
        attempts += 1
        if attempts >= 8:
            return None
        m = pattern.search(view, m.start() + 1, hi)
    return None


def _accept(r: Rule, view: str, m: re.Match[str]) -> bool:
    veto = r.veto
    if veto is not None:
        vlo = max(0, m.start() - r.veto_back)
        vhi = min(len(view), m.end() + r.veto_fwd)
        if veto.search(view, vlo, vhi) is not None:
            return False
    return r.check is None or r.check(view, m)
