"""The matcher: evaluate the rules an index reaches over one normalised view.

Why anchored: Python's ``re`` has no multi-pattern automaton, so running ~150 regexes over every
entry would cost milliseconds. Instead only the rules keyed to an anchor that is present are
evaluated, and only inside a bounded window around that anchor. A rule missing its need is
skipped, a window missing it counts as a try without running the regex: needs only prune work.

Linear time: every rule regex uses bounded quantifiers only, each evaluation is confined to a
window of at most ``back + fwd`` characters, and a rule that keeps failing is evaluated at most
``_MAX_TRIES`` times per view before one final bounded-filler search over the rest of the view.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from pi_memory.security.index import (
    RuleIndex,
    anchors_and_needs,
    automaton_enabled,
    find_anchors,
    start_positions,
)
from pi_memory.security.rule import Hit, Rule

_MAX_TRIES = 24
# From here a search walks the rule's start strings instead, if it has at most one per 8
# characters of window (each costs a str.find; measured on the corpus mix and on source code).
_WIDE_WINDOW = 250
_CHARS_PER_START = 8
# A regex ``re`` cannot skip ahead in (it opens with ``\b`` or a look-behind) is tried at every
# position, so for it the walk pays from 100 characters and one start per 4 (measured the same way).
_BLIND_WINDOW = 100
_BLIND_CHARS_PER_START = 4


def run_rules(
    index: RuleIndex, view: str, counter: list[int] | None = None, skip: set[int] | None = None
) -> list[Hit]:
    """Evaluate the index over ``view``; at most one hit per rule, in rule order.

    Rules whose ``id()`` is in ``skip`` are not evaluated (the caller already has a hit for them,
    or for an earlier rule of the same id). A rule is not evaluated either once an earlier rule
    of its id has hit in this view (:attr:`RuleIndex.shadowed`): findings report an id's first
    rule only, so on threat text most of the ~30 rules of a busy id never run.

    Each rule reached by an anchor walks its own anchor positions in order: partners nearby,
    then at most ``_MAX_TRIES`` bounded windows, then one last bounded search to the end of the
    view. A rule whose need is absent from the view is never tried, and a window that lacks it
    is counted as a try without running the regex: neither can change a result.
    """
    merged = anchors_and_needs(index, view)  # after the warm-up: anchors and needs in one pass
    found = find_anchors(index, view) if merged is None else merged[0]
    work = [len(view)]
    hits: list[Hit] = []
    if found:
        needs = _Needs.of(index, view) if merged is None else _Needs.found(index, merged[1], merged[2])
        state = _View(index, view, found)
        candidates_of = _candidates(index, found, skip)
        shadowed = index.shadowed
        dead: set[int] = set()
        masks, present = needs.masks, needs.present
        # Rule order, so that a hit rules out the later rules of its id before they run.
        for i in sorted(candidates_of):
            if i in dead or (masks is not None and masks[i] & present != masks[i]):
                continue  # decided by an earlier hit, or a need is missing from the view
            hit = _first_hit(state, index.rules[i], i, candidates_of[i], needs, work)
            if hit is not None:
                hits.append(hit)
                dead.update(shadowed[i])
    if counter is not None:
        counter[0] += work[0]
    return hits


def _candidates(index: RuleIndex, found: list[tuple[int, str]], skip: set[int] | None) -> dict[int, list[int]]:
    """Anchor positions per reached rule (rule order index -> positions in view order)."""
    candidates_of: dict[int, list[int]] = {}
    rule_ids = index.rule_ids
    for p, key in found:
        for i in rule_ids[key]:
            ps = candidates_of.get(i)
            if ps is None:
                candidates_of[i] = [p]
            else:
                ps.append(p)
    if skip:
        order = index.order
        for rid in skip:
            candidates_of.pop(order.get(rid, -1), None)
    return candidates_of


@dataclass
class _Needs:
    """Which need literals the view holds (only with the C literal automaton, after warm-up:
    found with ``in`` they cost more than they save)."""

    masks: tuple[int, ...] | None = None
    windows: tuple[tuple[frozenset[str], ...], ...] = ()
    present: int = 0
    literals: frozenset[str] = frozenset()

    @classmethod
    def of(cls, index: RuleIndex, view: str) -> _Needs:
        if not (automaton_enabled() and index.warm()):
            return cls()
        automaton = index.literal_automaton
        seen = {v for _, v in automaton.iter(view)} if automaton is not None else set()
        present = 0
        for _, bits in seen:
            present |= bits
        return cls.found(index, present, frozenset(lit for lit, _ in seen))

    @classmethod
    def found(cls, index: RuleIndex, present: int, literals: frozenset[str]) -> _Needs:
        """The needs a pass found: ``present`` need bits, the ``literals`` seen."""
        plan = index.plan
        return cls(plan.need_masks, plan.window_needs, present, literals)

    def wanted(self, i: int) -> list[frozenset[str]] | None:
        """Needs each window of rule ``i`` must meet; ``None`` if the view cannot match at all."""
        if self.masks is None:
            return []
        mask = self.masks[i]
        if mask & self.present != mask:
            return None
        return [here for need in self.windows[i] if len(here := need & self.literals) < 8]


class _View:
    """One view with its anchors; partner positions are computed on first use."""

    def __init__(self, index: RuleIndex, view: str, found: list[tuple[int, str]]) -> None:
        self.index, self.text, self.found = index, view, found
        self._partners: dict[str, list[int]] | None = None

    def partners_near(self, r: Rule) -> list[int] | None:
        """Sorted positions of ``r``'s partner words (``None``: the rule has none)."""
        if not r.partners:
            return None
        if self._partners is None:
            self._partners = _partner_positions(self.index, self.found)
        return sorted(p for k in r.partners if k in self._partners for p in self._partners[k])


def _first_hit(
    state: _View, r: Rule, i: int, candidates: list[int], needs: _Needs, work: list[int]
) -> Hit | None:
    """``r``'s first accepted match over its anchor positions, within the try budget."""
    view = state.text
    if r.requires is not None and r.requires not in view:
        return None
    wanted = needs.wanted(i) if needs.windows and needs.windows[i] else []
    if wanted is None:
        return None
    near = state.partners_near(r) if r.partners else None
    if near is not None and not near:
        return None
    n = len(view)
    back, fwd, anchored = r.back, r.fwd, r.back == 0
    tries = 0
    for p in candidates:
        if near is not None:
            j = bisect_left(near, p - r.partner_back)
            if j == len(near) or near[j] > p + r.partner_fwd:
                continue
        tries += 1
        last = tries > _MAX_TRIES
        lo = p - back if p > back else 0
        hi = n if last or p + fwd > n else p + fwd
        work[0] += hi - lo
        if wanted and not _window_has(view, lo, hi, wanted):
            span = None
        elif anchored and not last:  # the anchor starts the match: the hottest call
            m = r.pattern.match(view, lo, hi)  # compiled on first use
            span = None if m is None or not _accept(r, view, m) else (m.start(), m.end())
        else:
            span = _evaluate(r, view, lo, hi)
        if span is not None:
            return Hit(r, span[0], span[1])
        if last:
            break
    return None


def _window_has(view: str, lo: int, hi: int, wanted: list[frozenset[str]]) -> bool:
    """Does ``view[lo:hi]`` contain a literal of every need in ``wanted``?"""
    find = view.find
    for need in wanted:
        for s in need:
            if find(s, lo, hi) >= 0:
                break
        else:
            return False
    return True


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


def _evaluate(r: Rule, view: str, lo: int, hi: int) -> tuple[int, int] | None:
    """First match of ``r`` in ``view[lo:hi]`` that survives its veto and check."""
    pattern = r.pattern
    width = hi - lo
    if width >= _WIDE_WINDOW and r.starts and len(r.starts) * _CHARS_PER_START <= width:
        return _evaluate_at_starts(r, view, lo, hi)
    if width >= _BLIND_WINDOW and not r.scans_ahead and r.starts and len(r.starts) * _BLIND_CHARS_PER_START <= width:
        return _evaluate_at_starts(r, view, lo, hi)
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


def _evaluate_at_starts(r: Rule, view: str, lo: int, hi: int) -> tuple[int, int] | None:
    """:func:`_evaluate`'s search, tried only where one of ``r.starts`` begins.

    Every match begins with one of those strings, and ``match`` at a position behaves as
    ``search`` does there, so walking those positions in order finds the same matches. Many
    rule regexes open with ``\\b`` or a look-behind, which leaves ``re`` no prefix to scan for:
    on a wide window finding the start strings (``index.start_positions``) is much cheaper than
    trying every position."""
    match = r.pattern.match
    attempts = 0
    for start in start_positions(r.starts, view, lo, hi):
        m = match(view, start, hi)
        if m is None:
            continue
        if _accept(r, view, m):
            return m.start(), m.end()
        attempts += 1
        if attempts >= 8:
            return None
    return None


def _accept(r: Rule, view: str, m: re.Match[str]) -> bool:
    veto = r.veto
    if veto is not None:
        vlo = max(0, m.start() - r.veto_back)
        vhi = min(len(view), m.end() + r.veto_fwd)
        if veto.search(view, vlo, vhi) is not None:
            return False
    return r.check is None or r.check(view, m)
