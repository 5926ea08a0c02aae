"""The anchor index: rules grouped by anchor, and the one pass that finds anchors in a view.

Anchors are found in ``view.title()``: the view is already case-folded, so ``title()``
upper-cases exactly the first letter of every word, and a title-cased key can only match at a
word start. With ``pyahocorasick`` installed a C Aho-Corasick automaton reports the key
occurrences and :func:`_automaton_anchors` replays the regex's choices (longest whole-word key
at a start, non-overlapping); without it a trie-shaped regex does the same pass. Both give the
same anchors, so findings never depend on the extension.

Needs (``prefilter``): literals a rule regex cannot match without, read from its parse tree. The
index's :attr:`RuleIndex.plan` says which rule needs which. After the warm-up one automaton holds
the anchor keys and the literals' title-case spellings, so :func:`anchors_and_needs` reads both
from one pass over the title-cased view (a pass costs about the same per character whatever the
automaton holds); the literal-only automaton over the view is left for texts whose ``title()``
changes length.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pi_memory.security.prefilter import Need
from pi_memory.security.rule import Rule, anchor_key, is_stem

try:
    import ahocorasick as _ahocorasick  # type: ignore[import-not-found]  # C extension, no stubs
except ImportError:  # pragma: no cover - the pure-Python finder gives the same anchors
    _ahocorasick = None

# Only each rule's most selective need is used, and only if all its literals have 4+ characters:
# measured on corpus, docs, code and dialogue, more or shorter literals cost more to find (the
# automaton reports every occurrence) than the regex runs they save.
_MIN_LITERAL = 4
_WARMUP_VIEWS = 16
_SIGMA = "\u03a3"  # the one letter whose lower case (inside title()) looks at its neighbours
_MAX_NEEDS = 1

_use_automaton = _ahocorasick is not None

# ``pyahocorasick`` finds a node's child by a linear scan of its children in the order they were
# added, and a text character that leaves a match is looked up again at the root (143 children in
# the merged automaton). Adding the keys in order of how common their characters are in text
# (English letter frequency, then layout, capitals as title() makes them, punctuation, digits)
# puts the usual characters first in every scan: about a third fewer instructions per character
# on prose and code, and the same occurrences (only the order of a node's children changes).
_COMMON_FIRST = (
    " etaonisrhldcumfpgwybvkTAISCMPRDEBWOFHNLGUJKVYQXZ\n.,-_/():\"'`=xjqz"
    "0123456789;!?*[]{}<>|#@$%&+~^\\\t"
)
# Each listed character sorts as its rank (a C-speed translate gives every key its sort string);
# other ASCII characters sort after them, the rest of Unicode as itself.
_BY_RANK = str.maketrans({
    **{chr(c): chr(0x80 + c) for c in range(0x80)}, **{c: chr(1 + i) for i, c in enumerate(_COMMON_FIRST)}
})


def _common_first(keys: Iterable[str]) -> list[str]:
    """``keys`` in the insertion order that keeps each node's usual characters first."""
    return sorted(keys, key=lambda k: k.translate(_BY_RANK))


def _force_fallback(on: bool) -> None:
    """Test switch: run the pure-Python anchor finder even when ``pyahocorasick`` is installed."""
    global _use_automaton
    _use_automaton = not on and _ahocorasick is not None


def automaton_enabled() -> bool:
    """Is the C automaton in use (installed, and not switched off by :func:`_force_fallback`)?"""
    return _use_automaton


_WORD_END = "(?![^\\W\\d_])"
_WORD, _STEM = "<word-end>", "<stem-end>"  # trie terminal markers (never a single character)


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
                kinds[key] = kinds.get(key, False) or is_stem(a)
            for key in r.partners:
                groups.setdefault(key, [])
                kinds[key] = kinds.get(key, False) or is_stem(key.lower())
        # A finder reports only the longest anchor at a position ("Api_Key" hides "Api"), so a
        # key also stands for every shorter key that is a whole word at its start: found by
        # looking up the key's prefixes that end before a non-letter (linear, not K²).
        rank = {k: i for i, k in enumerate(groups)}
        # Most keys are one word of letters: no shorter key can end inside them (no per-character walk).
        self.aliases = {
            k: () if k[1:].isalpha() else
            tuple(sorted((k[:j] for j in range(1, len(k)) if not k[j].isalpha() and k[:j] in rank),
                         key=rank.__getitem__))
            for k in groups
        }
        # ``groups`` lists each key's rules in rule order already, so a key without aliases only
        # drops repeats (a rule with two anchors of one key); with aliases the union is re-sorted.
        self.by_anchor = {
            k: tuple(dict.fromkeys(groups[k])) if not self.aliases[k] else
            tuple(sorted({id(r): r for p in (k, *self.aliases[k]) for r in groups[p]}.values(),
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
        for k in _common_first(self.by_anchor):
            automaton.add_word(k, (k, len(k), self._kinds[k]))
        automaton.make_automaton()
        return automaton

    @cached_property
    def shadowed(self) -> tuple[tuple[int, ...], ...]:
        """Per rule (rule order): the later rules with the same id. Findings keep an id's first
        rule in table order, so once a rule hits, these can no longer change a result."""
        later: dict[str, list[int]] = {}
        out: list[tuple[int, ...]] = [()] * len(self.rules)
        for i in range(len(self.rules) - 1, -1, -1):
            same = later.setdefault(self.rules[i].id, [])
            out[i] = tuple(same)
            same.insert(0, i)
        return tuple(out)

    @cached_property
    def rule_ids(self) -> dict[str, tuple[int, ...]]:
        """Anchor key -> indices (rule order) of the rules it reaches."""
        return {k: tuple(self.order[id(r)] for r in rules) for k, rules in self.by_anchor.items()}

    def warmed(self) -> bool:
        """Has the warm-up gone by (:meth:`warm` said ``True``)?"""
        return self._views >= _WARMUP_VIEWS

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
        masks = self.plan.literal_masks
        for lit in _common_first(masks):
            automaton.add_word(lit, (lit, masks[lit]))
        automaton.make_automaton()
        return automaton

    @cached_property
    def merged_automaton(self) -> Any:
        """The anchor keys and the need literals in one C automaton over the title-cased view,
        so that one pass gives both (see :func:`anchors_and_needs`); ``None`` when there is
        nothing to find or a literal holds a letter whose title case depends on its neighbours.

        ``title()`` changes a character by whether the one before it is cased, so a literal
        inside the view appears in ``view.title()`` in one of two spellings: as a word start
        (``lit.title()``) or after a letter. Both are keys; a hit is confirmed on the view itself
        with ``startswith`` (``title()`` folds different texts together). Values are
        ``(anchor or None, ((literal, length, need bits), ...), plain)``; ``plain``: every
        literal is ASCII without capitals, so in an ASCII view without capitals a hit is the
        literal itself (ASCII title-casing only flips the case of a letter)."""
        assert _ahocorasick is not None
        masks = self.plan.literal_masks
        if not self.by_anchor or any(_SIGMA in lit for lit in masks):
            return None
        kinds = self._kinds
        keys: dict[str, tuple[Any, list[tuple[str, int, int]]]] = {
            k: ((k, len(k), kinds[k]), []) for k in self.by_anchor
        }
        for lit, mask in masks.items():
            n = len(lit)
            for spelling in {lit.title(), ("a" + lit).title()[1:]}:
                if len(spelling) == n:  # a longer one never occurs in a same-length title()
                    keys.setdefault(spelling, (None, []))[1].append((lit, n, mask))
        automaton = _ahocorasick.Automaton()
        for k in _common_first(keys):
            anchor, lits = keys[k]
            plain = all(lit.isascii() and lit == lit.lower() for lit, _, _ in lits)
            automaton.add_word(k, (anchor, tuple(lits), plain))
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


def anchors_and_needs(index: RuleIndex, view: str) -> tuple[list[tuple[int, str]], int, frozenset[str]] | None:
    """:func:`find_anchors`, plus the need bits and literals present in ``view``, from one
    automaton pass (:attr:`RuleIndex.merged_automaton`). ``None`` where that pass does not
    apply: without the C automaton, before the warm-up, when ``title()`` changes the length."""
    if not (_use_automaton and index.warmed()):
        return None
    automaton = index.merged_automaton
    if automaton is None:
        return None
    titled = view.title()
    if len(titled) != len(view):
        return None
    best: dict[int, tuple[int, str]] = {}
    last = len(titled) - 1
    letters = _ASCII_LETTERS
    startswith = view.startswith
    trusted = view.isascii() and view.islower()  # no ASCII capital: see ``merged_automaton``
    present = 0
    seen: set[str] = set()
    for end, (anchor, lits, plain) in automaton.iter(titled):
        if lits:
            for lit, n, bits in lits:
                if (trusted and plain) or startswith(lit, end - n + 1):
                    present |= bits
                    seen.add(lit)
            if anchor is None:
                continue
        key, size, stem = anchor
        if not stem and end < last:
            c = titled[end + 1]
            if c in letters or (c > "\x7f" and c.isalnum() and not c.isdecimal()):
                continue
        best[end - size + 1] = (size, key)
    return _non_overlapping(best), present, frozenset(seen)


_start_automata: dict[Need, Any] = {}


def start_positions(starts: Need, view: str, lo: int, hi: int) -> list[int]:
    """Sorted positions in ``view[lo:hi]`` where one of ``starts`` begins (and fits).

    With ``pyahocorasick`` one automaton pass over the window (built once per start set)
    replaces a ``str.find`` per start string: four times faster for a rule with ~40 of them."""
    if _use_automaton:
        hi = min(hi, len(view))  # the automaton does not clamp its end as str.find does
        automaton = _start_automata.get(starts)
        if automaton is None:
            automaton = _start_automata[starts] = _ahocorasick.Automaton()
            for s in _common_first(starts):
                automaton.add_word(s, len(s))
            automaton.make_automaton()
        return sorted({end - size + 1 for end, size in automaton.iter(view, lo, hi)})
    find = view.find
    positions: set[int] = set()
    for s in starts:
        i = find(s, lo, hi)
        while i >= 0:
            positions.add(i)
            i = find(s, i + 1, hi)
    return sorted(positions)


_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _automaton_anchors(automaton: Any, titled: str) -> list[tuple[int, str]]:
    """Replay the trie regex's choices over the automaton's overlapping occurrences: a
    whole-word key must not be followed by a letter (``[^\\W\\d_]``, which is exactly
    ``isalnum() and not isdecimal()``), the longest valid key wins at a start, and a match hides
    every start inside it."""
    best: dict[int, tuple[int, str]] = {}
    last = len(titled) - 1
    letters = _ASCII_LETTERS
    for end, (key, size, stem) in automaton.iter(titled):
        if not stem and end < last:
            c = titled[end + 1]
            # ASCII first: a set lookup, not two method calls ("Use" in "User" is the usual case)
            if c in letters or (c > "\x7f" and c.isalnum() and not c.isdecimal()):
                continue
        # Occurrences arrive in order of their end, so a later one at the same start is longer.
        best[end - size + 1] = (size, key)
    return _non_overlapping(best)


def _non_overlapping(best: dict[int, tuple[int, str]]) -> list[tuple[int, str]]:
    """Leftmost first, each match hiding the starts inside it (``best``: start -> longest key)."""
    found: list[tuple[int, str]] = []
    pos = 0
    for start in sorted(best):
        if start >= pos:
            size, key = best[start]
            found.append((start, key))
            pos = start + size
    return found

