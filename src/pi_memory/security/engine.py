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
from typing import Any

from pi_memory.security.prefilter import Need, needs

try:
    import ahocorasick as _ahocorasick  # type: ignore[import-not-found]  # C extension, no stubs
except ImportError:  # pragma: no cover - the pure-Python finder gives the same anchors
    _ahocorasick = None

ALL, CONTEXT, STRICT = 0, 1, 2
SCOPE_LEVELS: dict[str, int] = {"all": ALL, "context": CONTEXT, "strict": STRICT}

#: Extra predicate on a candidate match: ``check(view, match) -> keep?``.
Check = Callable[[str, "re.Match[str]"], bool]

_MAX_TRIES = 24
_MIN_LITERAL = 3
_LETTER = re.compile(r"[^\W\d_]")  # what a whole-word anchor must not be followed by

_use_automaton = _ahocorasick is not None


def _force_fallback(on: bool) -> None:
    """Test switch: run the pure-Python anchor finder even when ``pyahocorasick`` is installed."""
    global _use_automaton
    _use_automaton = not on and _ahocorasick is not None


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
    """Rules grouped by anchor for one scope level, plus the anchor finders (built on first use)."""

    rules: Sequence[Rule]
    order: dict[int, int] = field(init=False)
    by_anchor: dict[str, tuple[Rule, ...]] = field(init=False)
    aliases: dict[str, tuple[str, ...]] = field(init=False)
    partner_keys: frozenset[str] = field(init=False)
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
        # A finder reports only the longest anchor at a position ("Api_Key" hides "Api"), so a
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
        self.partner_keys = frozenset(k for r in self.rules for k in r.partners)
        self._kinds = kinds

    @cached_property
    def finder(self) -> re.Pattern[str]:
        """Pure-Python anchor finder over the title-cased view: a trie-shaped regex."""
        return re.compile(_trie_pattern((k, self._kinds[k]) for k in self.by_anchor))

    @cached_property
    def automaton(self) -> Any:
        """C Aho-Corasick automaton over the same title-cased keys (``pyahocorasick``)."""
        assert _ahocorasick is not None
        automaton = _ahocorasick.Automaton()
        for k in self.by_anchor:
            automaton.add_word(k, (k, len(k), self._kinds[k]))
        automaton.make_automaton()
        return automaton

    @cached_property
    def literals(self) -> tuple[Any, dict[int, int], dict[int, Need]]:
        """The rules' need literals in one C automaton over the view, for :func:`_present`.

        Returns ``(automaton, rule id -> need bit mask, rule id -> window need)``; every literal maps
        to ``(literal, mask of the needs it belongs to)``. Needs with a literal shorter than
        three characters are left out: they are in nearly every text and cost more to find than
        the regex they would save."""
        assert _ahocorasick is not None
        masks: dict[str, int] = {}
        rule_masks: dict[int, int] = {}
        window: dict[int, Need] = {}
        bits: dict[Need, int] = {}
        for r in self.rules:
            mask = 0
            for need in r.needs:
                if min(len(s) for s in need) < _MIN_LITERAL:
                    continue
                bit = bits.setdefault(need, 1 << len(bits))
                mask |= bit
                for s in need:
                    masks[s] = masks.get(s, 0) | bit
                window.setdefault(id(r), need)
            rule_masks[id(r)] = mask
        automaton = _ahocorasick.Automaton()
        for lit, mask in masks.items():
            automaton.add_word(lit, (lit, mask))
        automaton.make_automaton()
        return automaton, rule_masks, window

    @cached_property
    def fallback(self) -> re.Pattern[str]:
        """Word-boundary finder over the view itself, for the rare texts whose ``title()`` changes length."""
        return re.compile(r"(?<!\w)" + _trie_pattern((k.lower(), self._kinds[k]) for k in self.by_anchor))


def find_anchors(index: RuleIndex, view: str) -> list[tuple[int, str]]:
    """``(position, key)`` of every anchor in ``view``: leftmost first, the longest key at a
    position, non-overlapping (the semantics of ``finder.finditer``, whichever finder runs)."""
    titled = view.title()
    if len(titled) != len(view):  # title() changed the length (rare scripts): word-boundary search
        return [(m.start(), m.group().title()) for m in index.fallback.finditer(view)]
    if _use_automaton:
        return _automaton_anchors(index.automaton, titled)
    return [(m.start(), m.group()) for m in index.finder.finditer(titled)]


def _automaton_anchors(automaton: Any, titled: str) -> list[tuple[int, str]]:
    """Replay the trie regex's choices over the automaton's overlapping occurrences: a
    whole-word key must not be followed by a letter, the longest valid key wins at a start,
    and a match hides every start inside it."""
    best: dict[int, tuple[int, str]] = {}
    letter = _LETTER.match
    for end, (key, size, stem) in automaton.iter(titled):
        if not stem and letter(titled, end + 1) is not None:
            continue
        start = end - size + 1
        old = best.get(start)
        if old is None or old[0] < size:
            best[start] = (size, key)
    found: list[tuple[int, str]] = []
    pos = 0
    for start in sorted(best):
        if start >= pos:
            size, key = best[start]
            found.append((start, key))
            pos = start + size
    return found


def run_rules(
    index: RuleIndex, view: str, counter: list[int] | None = None, skip: set[int] | None = None
) -> list[Hit]:
    """Evaluate the index over ``view``; at most one hit per rule, in no particular order.

    Rules whose ``id()`` is in ``skip`` are not evaluated (the caller already has a hit for them)."""
    found = find_anchors(index, view)
    if not found:
        if counter is not None:
            counter[0] += len(view)
        return []
    by_anchor = index.by_anchor
    positions: dict[str, list[int]] | None = None
    n = len(view)
    done: set[int] = set(skip) if skip else set()
    tries: dict[int, int] = {}
    literal_in: dict[str, bool] = {}
    if _use_automaton:
        automaton, rule_masks, first_need = index.literals
        seen = {v for _, v in automaton.iter(view)}
        present_lits = {lit for lit, _ in seen}
        present = 0
        for _, mask in seen:
            present |= mask
    # Per rule reached: the literals of its most selective need that occur in the view, which a
    # window must contain before the regex runs (``()``: no window check).
    window_needs: dict[int, tuple[str, ...]] = {}
    hits: list[Hit] = []
    work = n
    for p, key in found:
        for r in by_anchor[key]:
            rid = id(r)
            if rid in done:
                continue
            wanted = window_needs.get(rid)
            if wanted is None:
                if r.requires is not None:
                    ok = literal_in.get(r.requires)
                    if ok is None:
                        ok = literal_in[r.requires] = r.requires in view
                    if not ok:
                        done.add(rid)
                        continue
                if _use_automaton:
                    mask = rule_masks[rid]
                    if mask & present != mask:  # a need is absent: no match anywhere in the view
                        done.add(rid)
                        continue
                    need = first_need.get(rid)
                    wanted = tuple(s for s in need if s in present_lits) if need else ()
                else:
                    wanted = ()
                window_needs[rid] = wanted
            if r.partners:
                if positions is None:
                    positions = _partner_positions(index, found)
                if not _near(positions, r, p):
                    continue
            t = tries.get(rid, 0) + 1
            tries[rid] = t
            if t > _MAX_TRIES:
                lo, hi = max(0, p - r.back), n  # one last bounded search to the end, then stop
                done.add(rid)
            else:
                lo, hi = max(0, p - r.back), min(n, p + r.fwd)
            work += hi - lo
            if wanted and not any(view.find(s, lo, hi) >= 0 for s in wanted):
                continue
            span = _evaluate(r, view, lo, hi, anchored=r.back == 0 and t <= _MAX_TRIES)
            if span is not None:
                hits.append(Hit(r, span[0], span[1]))
                done.add(rid)
    if counter is not None:
        counter[0] += work
    return hits


def _partner_positions(index: RuleIndex, found: list[tuple[int, str]]) -> dict[str, list[int]]:
    """Sorted positions of every partner key (a found key also counts for its aliases)."""
    wanted = index.partner_keys
    aliases = index.aliases
    positions: dict[str, list[int]] = {}
    for p, key in found:
        if key in wanted:
            positions.setdefault(key, []).append(p)
        for alias in aliases[key]:
            if alias in wanted:
                positions.setdefault(alias, []).append(p)
    return positions


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
