"""Rule type and the anchored matcher that runs a rule table over one normalised view.

Why anchored: Python's ``re`` has no multi-pattern automaton, so running ~150 regexes over every
entry would cost milliseconds. Instead every rule names *anchors* (rare literal words it cannot
match without). One pass finds all anchors; only the rules keyed to an anchor that is present
are evaluated, and only inside a bounded window around that anchor.

Anchors are found in ``view.title()``: the view is already case-folded, so ``title()``
upper-cases exactly the first letter of every word, and a title-cased key can only match at a
word start. With ``pyahocorasick`` installed a C Aho-Corasick automaton reports the key
occurrences and :func:`_automaton_anchors` replays the regex's choices (longest whole-word key
at a start, non-overlapping); without it a trie-shaped regex does the same pass. Both give the
same anchors, so findings never depend on the extension.

Needs (``prefilter``): literals a rule regex cannot match without, read from its parse tree. A
second automaton over the view tells which are present; a rule missing its need is skipped, a
window missing it counts as a try without running the regex. Needs only prune work.

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

from pi_memory.security.prefilter import Need, needs, prefixes

try:
    import ahocorasick as _ahocorasick  # type: ignore[import-not-found]  # C extension, no stubs
except ImportError:  # pragma: no cover - the pure-Python finder gives the same anchors
    _ahocorasick = None

ALL, CONTEXT, STRICT = 0, 1, 2
SCOPE_LEVELS: dict[str, int] = {"all": ALL, "context": CONTEXT, "strict": STRICT}

#: Extra predicate on a candidate match: ``check(view, match) -> keep?``.
Check = Callable[[str, "re.Match[str]"], bool]

_MAX_TRIES = 24
# Only each rule's most selective need is used, and only if all its literals have 4+ characters:
# measured on corpus, docs, code and dialogue, more or shorter literals cost more to find (the
# automaton reports every occurrence) than the regex runs they save.
_MIN_LITERAL = 4
_WARMUP_VIEWS = 16
# From here a search walks the rule's start strings instead, if it has at most one per 8
# characters of window (each costs a str.find; measured on the corpus mix and on source code).
_WIDE_WINDOW = 250
_CHARS_PER_START = 8
_MAX_NEEDS = 1

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
    def starts(self) -> Need:
        """Strings every match starts with (``prefilter.prefixes``), for wide-window searches."""
        return prefixes(self.source)

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


@dataclass(frozen=True)
class _Plan:
    """Rule tables indexed by rule order (see :meth:`RuleIndex.plan`)."""

    need_masks: tuple[int, ...]  # need bits each rule requires present in the view
    window_needs: tuple[tuple[frozenset[str], ...], ...]  # needs each evaluation window must meet
    literal_masks: dict[str, int]  # need literal -> bits of the needs it satisfies


@dataclass
class RuleIndex:
    """Rules grouped by anchor for one scope level, plus the anchor finders (built on first use)."""

    rules: Sequence[Rule]
    order: dict[int, int] = field(init=False)
    by_anchor: dict[str, tuple[Rule, ...]] = field(init=False)
    aliases: dict[str, tuple[str, ...]] = field(init=False)
    partner_keys: frozenset[str] = field(init=False)
    _kinds: dict[str, bool] = field(init=False, repr=False)
    _views: int = field(default=0, init=False, repr=False)

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
        # key also stands for every shorter key that is a whole word at its start: found by
        # looking up the key's prefixes that end before a non-letter (linear, not K²).
        rank = {k: i for i, k in enumerate(groups)}
        self.aliases = {
            k: tuple(sorted((k[:j] for j in range(1, len(k)) if not k[j].isalpha() and k[:j] in rank),
                            key=rank.__getitem__))
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
        """C Aho-Corasick automaton over the same title-cased keys (``pyahocorasick``); ``None``
        for an index without anchors (an empty automaton cannot search)."""
        assert _ahocorasick is not None
        if not self.by_anchor:
            return None
        automaton = _ahocorasick.Automaton()
        for k in self.by_anchor:
            automaton.add_word(k, (k, len(k), self._kinds[k]))
        automaton.make_automaton()
        return automaton

    @cached_property
    def rule_ids(self) -> dict[str, tuple[int, ...]]:
        """Anchor key -> indices (rule order) of the rules it reaches."""
        return {k: tuple(self.order[id(r)] for r in rules) for k, rules in self.by_anchor.items()}

    def warm(self) -> bool:
        """Count a view; ``True`` once enough views went by to pay for :attr:`plan`.

        Building the need tables parses every rule regex (~80 ms); a process that scans one
        note should not pay that, and the needs only prune work, never change a result."""
        if self._views >= _WARMUP_VIEWS:
            return True
        self._views += 1
        return False

    @cached_property
    def plan(self) -> _Plan:
        """Per-rule need tables for :func:`run_rules` (built after the warm-up)."""
        need_bits: dict[Need, int] = {}
        literal_masks: dict[str, int] = {}
        masks: list[int] = []
        windows: list[tuple[frozenset[str], ...]] = []
        for r in self.rules:
            mask = 0
            usable = tuple(need for need in r.needs if min(len(s) for s in need) >= _MIN_LITERAL)[:_MAX_NEEDS]
            for need in usable:
                bit = need_bits.setdefault(need, 1 << len(need_bits))
                mask |= bit
                for s in need:
                    literal_masks[s] = literal_masks.get(s, 0) | bit
            masks.append(mask)
            windows.append(tuple(frozenset(need) for need in usable))
        return _Plan(
            need_masks=tuple(masks),
            window_needs=tuple(windows),
            literal_masks=literal_masks,
        )

    @cached_property
    def literal_automaton(self) -> Any:
        """Every need literal in one C automaton over the view; values are ``(literal, need bits)``
        (``None`` when no rule has a usable need)."""
        assert _ahocorasick is not None
        if not self.plan.literal_masks:
            return None
        automaton = _ahocorasick.Automaton()
        for lit, mask in self.plan.literal_masks.items():
            automaton.add_word(lit, (lit, mask))
        automaton.make_automaton()
        return automaton

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
        automaton = index.automaton
        return _automaton_anchors(automaton, titled) if automaton is not None else []
    return [(m.start(), m.group()) for m in index.finder.finditer(titled)]


def _automaton_anchors(automaton: Any, titled: str) -> list[tuple[int, str]]:
    """Replay the trie regex's choices over the automaton's overlapping occurrences: a
    whole-word key must not be followed by a letter (``[^\\W\\d_]``, which is exactly
    ``isalnum() and not isdecimal()``), the longest valid key wins at a start, and a match hides
    every start inside it."""
    best: dict[int, tuple[int, str]] = {}
    last = len(titled) - 1
    for end, (key, size, stem) in automaton.iter(titled):
        if not stem and end < last:
            c = titled[end + 1]
            if c.isalnum() and not c.isdecimal():
                continue
        # Occurrences arrive in order of their end, so a later one at the same start is longer.
        best[end - size + 1] = (size, key)
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

    Rules whose ``id()`` is in ``skip`` are not evaluated (the caller already has a hit for them).

    Each rule reached by an anchor walks its own anchor positions in order: partners nearby,
    then at most ``_MAX_TRIES`` bounded windows, then one last bounded search to the end of the
    view. A rule whose need is absent from the view is never tried, and a window that lacks it
    is counted as a try without running the regex: neither can change a result.
    """
    found = find_anchors(index, view)
    if not found:
        if counter is not None:
            counter[0] += len(view)
        return []
    # Candidate positions per reached rule, in view order (``found`` is sorted).
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
    need_masks: tuple[int, ...] | None = None
    present = 0
    present_literals: set[str] = set()
    # Needs prune only with the C literal automaton: found with ``in`` they cost more than they save.
    if _use_automaton and index.warm():
        plan = index.plan
        need_masks, window_needs = plan.need_masks, plan.window_needs
        literals = index.literal_automaton
        seen = {v for _, v in literals.iter(view)} if literals is not None else set()
        for _, bits in seen:
            present |= bits
        present_literals = {lit for lit, _ in seen}
    positions: dict[str, list[int]] | None = None
    n = len(view)
    hits: list[Hit] = []
    work = n
    rules = index.rules
    for i, candidates in candidates_of.items():
        wanted: list[frozenset[str]] = []
        if need_masks is not None:
            mask = need_masks[i]
            if mask & present != mask:  # a need is absent: no match anywhere in the view
                continue
            wanted = [here for need in window_needs[i] if len(here := need & present_literals) < 8]
        r = rules[i]
        if r.requires is not None and r.requires not in view:
            continue
        near: list[int] | None = None
        if r.partners:
            if positions is None:
                positions = _partner_positions(index, found)
            near = sorted(p for k in r.partners if k in positions for p in positions[k])
            if not near:
                continue
        back, fwd, anchored = r.back, r.fwd, r.back == 0
        partner_back, partner_fwd = r.partner_back, r.partner_fwd
        t = 0
        for p in candidates:
            if near is not None:
                j = bisect_left(near, p - partner_back)
                if j == len(near) or near[j] > p + partner_fwd:
                    continue
            t += 1
            last = t > _MAX_TRIES
            lo = p - back if p > back else 0
            hi = n if last or p + fwd > n else p + fwd
            work += hi - lo
            if wanted and not _window_has(view, lo, hi, wanted):
                span = None
            elif anchored and not last:  # _evaluate's anchored case, inlined: the hottest call
                m = r.pattern.match(view, lo, hi)  # compiled on first use
                span = None if m is None or not _accept(r, view, m) else (m.start(), m.end())
            else:
                span = _evaluate(r, view, lo, hi)
            if span is not None:
                hits.append(Hit(r, span[0], span[1]))
                break
            if last:
                break
    if counter is not None:
        counter[0] += work
    return hits


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


def _evaluate(r: Rule, view: str, lo: int, hi: int, anchored: bool = False) -> tuple[int, int] | None:
    """First match of ``r`` in ``view[lo:hi]`` that survives its veto and check (``anchored``:
    only a match starting at ``lo``, the anchor itself)."""
    pattern = r.pattern
    if anchored:
        m = pattern.match(view, lo, hi)
        if m is None or not _accept(r, view, m):
            return None
        return m.start(), m.end()
    if hi - lo >= _WIDE_WINDOW and r.starts and len(r.starts) * _CHARS_PER_START <= hi - lo:
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
    on a wide window ``str.find`` is much cheaper than trying every position."""
    find = view.find
    positions: set[int] = set()
    for s in r.starts:
        i = find(s, lo, hi)
        while i >= 0:
            positions.add(i)
            i = find(s, i + 1, hi)
    match = r.pattern.match
    attempts = 0
    for start in sorted(positions):
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
