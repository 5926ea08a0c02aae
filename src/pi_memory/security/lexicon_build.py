"""The intent lexicon compiled for reading: whole-word entries, stems, phrases and their automata.

The tables (``intent_lexicon``, ``intent_words``, ``intent_acts``, ``intent_facets``,
``intent_orders``, ``intent_loans``, ``intent_licence``) list words per concept in 14 languages;
:func:`lexicon` turns them into the lookups ``intent_match`` reads a line with. Compiling them is
most of what a fresh process pays for its first scan, so an ASCII text is read with
:func:`ascii_lexicon`, the ASCII entries alone (an ASCII text cannot hold any other), and the
other scripts' entries are compiled only when a text in them comes along.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from pi_memory.security.lazy_re import compile_lazily

__all__ = [
    "CLITIC", "END", "PROCLITICS", "START", "UNACCENT", "WORD", "Lexicon", "ascii_lexicon", "is_word", "lexicon",
    "lexicon_for", "unaccent",
]

#: A word as the lexicon writes one: letters and digits, with at most one inner apostrophe.
WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")


@dataclass(frozen=True)
class Lexicon:
    exact: dict[str, frozenset[str]]
    stems: dict[str, frozenset[str]]
    # Phrases and words of scripts without spaces: entry -> ((bounds, concepts), ...), where
    # bounds says which ends must fall on a word boundary (see :func:`intent_tokens.on_boundaries`).
    phrases: dict[str, tuple[tuple[int, frozenset[str]], ...]]
    stem_lengths: tuple[int, ...]
    _reads: list[int] = field(default_factory=lambda: [0], init=False, compare=False, repr=False)

    @cached_property
    def automaton(self) -> Any:
        """One pyahocorasick automaton over the exact words, the stems and the phrases (values:
        ``(length, is a word or stem, phrase options or ())``), or None without the extension.
        One automaton, not one per kind: its pass costs about the same per character whatever
        it holds (measured: a ~2 KB note read with both kinds in one automaton costs ~60 % of
        two passes), and the intent layer reads every line's words and phrases together
        (``intent_match.concept_positions``)."""
        exact, stems, phrases = self.exact, self.stems, self.phrases
        return _automaton({
            k: (len(k), k in exact or k in stems, phrases.get(k, ())) for k in {**exact, **stems, **phrases}
        })

    @cached_property
    def longest(self) -> int:
        """The length of the longest entry: a match that touches a position starts and ends
        within this many characters of it."""
        return max(map(len, (*self.exact, *self.stems, *self.phrases)), default=0)

    def reader(self, size: int) -> Any:
        """:attr:`automaton` for reading a text of ``size`` characters, or None while the
        lexicon is young and the text short: then one ``str.find`` per entry is cheaper than
        building the automaton (a fifth of what a fresh process pays for its first scan), and
        ``intent_match`` reads the same marks either way."""
        if "automaton" not in self.__dict__ and size <= _SHORT_TEXT and self._reads[0] < _YOUNG_READS:
            self._reads[0] += 1
            return None
        return self.automaton


#: Texts up to this long are read without the automaton during the first reads of a lexicon.
_SHORT_TEXT = 400
_YOUNG_READS = 32


_SPACED_SCRIPT = re.compile(r"^[\x00-\u024f\u0370-\u03ff\u0400-\u04ff\u1e00-\u1eff]+$")
_CJK = compile_lazily(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]")
_HANGUL = compile_lazily(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
_ARABIC = compile_lazily(r"[\u0600-\u06ff]")
START, END, CLITIC = 1, 2, 4
#: Arabic proclitics a word may carry before a lexicon entry: and, so, with, to, like, the, ...
PROCLITICS = frozenset("و ف ب ل ك س ال وال فال بال كال لل ولل فلل وب ول وك فب فل وس فس".split())  # noqa: SIM905
#: In an entry, ``+`` is a space or hyphen and ``-`` is a hyphen, a space or nothing, so
#: ``without+asking``, ``pre-approv*`` and ``e-mail`` match as written in the text.
_JOINERS = {"-": ("-", " ", ""), "+": (" ", "-")}


def _variants(entry: str) -> list[str]:
    """Spellings of one entry: its joiners expanded, accents of Latin letters dropped (the text is
    read the same way, :data:`UNACCENT`), and a Turkish dotless i also as a plain i."""
    out = [entry if entry.isascii() else entry.translate(UNACCENT)]
    if "+" in entry or "-" in entry:
        for sep, alts in _JOINERS.items():
            out = [alt.join(o.split(sep)) for o in out for alt in alts] if sep in entry else out
    if "ı" in entry:
        out += [v.replace("ı", "i") for v in out]
    return out


def _unaccented(cp: int) -> str | None:
    base = unicodedata.normalize("NFD", chr(cp))[0]
    return base if base.isascii() and base != chr(cp) else None


#: Latin letters with accents (U+00C0-U+017F) to their base letter, one character for one, so
#: positions survive: "revísalo", "revisalo" and the entry ``revis*`` read alike. Vietnamese
#: letters outside that block keep their marks (its tones tell words apart).
UNACCENT = {cp: b for cp in range(0xC0, 0x180) if (b := _unaccented(cp)) is not None}
_LAST_FOLDED = "\u017f"  # the last code point UNACCENT maps
_ACCENTED_RUN = compile_lazily("[\u00c0-\u017f]+")


def unaccent(text: str) -> str:
    """``text.translate(UNACCENT)``, translating only the runs of U+00C0-U+017F (the only code
    points it maps): ``str.translate`` looks every character of a non-ASCII text up in the
    dict, five times slower on a 2 KB note than finding those runs."""
    return _ACCENTED_RUN.sub(_unaccent_run, text)


def _unaccent_run(m: re.Match[str]) -> str:
    return m.group().translate(UNACCENT)


def _bounds(entry: str, stem: bool, inside: bool) -> int:
    """Which ends of a phrase entry must be word boundaries (none in Chinese or Japanese; a
    Korean entry takes any ending, particles attach to it; an Arabic one any proclitic)."""
    ascii = entry.isascii()
    if ascii:  # no ASCII character is a combining mark: ``isalnum`` is :func:`is_word` here
        return (0 if inside or not entry[0].isalnum() else START) | (0 if stem or not entry[-1].isalnum() else END)
    if _CJK.search(entry):
        return 0
    flags = 0 if inside or not is_word(entry[0]) else START
    if not ascii and _ARABIC.search(entry):
        flags |= CLITIC
    if not stem and (ascii or not _HANGUL.search(entry)) and is_word(entry[-1]):
        flags |= END
    return flags


def is_word(ch: str) -> bool:
    """A letter, digit or combining mark: what a word boundary test counts as inside a word."""
    return ch.isalnum() or unicodedata.category(ch)[0] == "M"


@cache
def lexicon() -> Lexicon:
    """The whole lexicon, compiled on first use."""
    return _build(ascii_only=False)


@cache
def ascii_lexicon() -> Lexicon:
    """The lexicon's ASCII entries (after accent folding) alone: all an ASCII text can hold, so a
    process that reads only ASCII notes never compiles the other scripts' ~2,000 entries."""
    return _build(ascii_only=True)


def lexicon_for(text: str) -> Lexicon:
    """The lexicon to read ``text`` (already accent-folded) with: an ASCII text cannot hold a
    non-ASCII entry, so :func:`ascii_lexicon` finds exactly what :func:`lexicon` would."""
    return ascii_lexicon() if text.isascii() else lexicon()


@cache
def _entries() -> dict[str, set[str]]:
    """Each distinct table entry once, with every concept the tables give it (many repeat)."""
    from pi_memory.security.intent_acts import ACTS
    from pi_memory.security.intent_chores import CHORES
    from pi_memory.security.intent_demote import DEMOTES
    from pi_memory.security.intent_facets import FACETS
    from pi_memory.security.intent_lexicon import LEXICON
    from pi_memory.security.intent_licence import LICENCES
    from pi_memory.security.intent_loans import LOANS
    from pi_memory.security.intent_orders import ORDERS
    from pi_memory.security.intent_persist import PERSISTS
    from pi_memory.security.intent_words import WORDS

    by_language = (*WORDS.values(), *ACTS.values(), *FACETS.values(), *ORDERS.values(), *LOANS.values(),
                   *LICENCES.values(), *PERSISTS.values(), *CHORES.values(), *DEMOTES.values())
    tables = [LEXICON.items(), *(t.items() for t in by_language)]
    entries: dict[str, set[str]] = {}
    for key, words in (pair for table in tables for pair in table):
        keys = key.split("|")
        for w in _spellings(words.casefold()):
            found = entries.get(w)
            if found is None:
                entries[w] = set(keys)
            else:
                found.update(keys)
    return entries


def _spellings(words: str) -> list[str]:
    """The entries of a table, each Hindi one also without its nukta: "ज़रूरत" and "जरूरत", "फ़ॉरवर्ड"
    and "फॉरवर्ड" are written either way (the scanned text loses the nukta, ``intent.detect``)."""
    out = words.split()
    return out + [w.replace(NUKTA, "") for w in out if NUKTA in w] if NUKTA in words else out


NUKTA = "\u093c"


def _build(ascii_only: bool) -> Lexicon:
    exact: dict[str, set[str]] = {}
    stems: dict[str, set[str]] = {}
    phrases: dict[str, dict[int, set[str]]] = {}
    word_at = WORD.fullmatch

    def add_word(table: dict[str, set[str]], v: str, names: set[str]) -> None:
        found = table.get(v)
        if found is None:
            table[v] = set(names)
        else:
            found.update(names)

    def add_phrase(v: str, bounds: int, names: set[str]) -> None:
        options = phrases.get(v)
        if options is None:
            phrases[v] = {bounds: set(names)}
        elif bounds in options:
            options[bounds].update(names)
        else:
            options[bounds] = set(names)

    for word, names in _entries().items():
        if ascii_only and not word.isascii() and max(word) > _LAST_FOLDED:
            # A letter past U+017F stays as written (neither UNACCENT nor the dotless-i spelling
            # touches it), so no spelling of this entry is ASCII: skip its variants unbuilt.
            continue
        stem = word[-1] == "*"
        core = word[:-1] if stem else word
        if "+" not in core and "-" not in core and core[0] != "*" and "ı" not in core:
            # Most entries: one spelling, and an ASCII word of letters and digits (``isalnum``
            # says what the word regex would) needs no regex at all.
            if core.isascii():
                if core.isalnum() or word_at(core):
                    add_word(stems if stem else exact, core, names)
                else:
                    add_phrase(core, _bounds(core, stem, False), names)
                continue
            v = core.translate(UNACCENT)
            if ascii_only and not v.isascii():
                continue
            if word_at(v) and _SPACED_SCRIPT.match(v):
                add_word(stems if stem else exact, v, names)
            else:
                add_phrase(v, _bounds(v, stem, False), names)
            continue
        inside = word.startswith("*") and len(word) > 1
        for v in _variants(word.strip("*")):
            if ascii_only and not v.isascii():
                continue
            if not inside and word_at(v) and _SPACED_SCRIPT.match(v):
                add_word(stems if stem else exact, v, names)
            else:
                add_phrase(v, _bounds(v, stem, inside), names)
    frozen = {
        k: ((b, frozenset(c)),) if len(v) == 1 else tuple((b, frozenset(c)) for b, c in sorted(v.items()))
        for k, v in phrases.items()
        for b, c in (next(iter(v.items())),)
    }
    return Lexicon(
        {k: frozenset(v) for k, v in exact.items()},
        {k: frozenset(v) for k, v in stems.items()},
        frozen,
        tuple(sorted({len(k) for k in stems})),
    )


def _automaton(entries: dict[str, object]) -> Any:
    """The automaton over ``entries``, its first letters in the order a text needs them (below)."""
    try:
        import ahocorasick  # type: ignore[import-not-found]  # C extension, no stubs
    except ImportError:  # pragma: no cover - the scans fall back to substring tests
        return None
    automaton = ahocorasick.Automaton()
    for entry in _root_order(entries):
        automaton.add_word(entry, entries.get(entry, _PLACEHOLDER))
    automaton.make_automaton()
    return automaton


#: What a placeholder entry carries: no length a reading uses, no word, no phrase options, so
#: ``intent_tokens`` skips it like text that holds no entry.
_PLACEHOLDER = (2, False, ())


def _root_order(entries: dict[str, object]) -> list[str]:
    """The entries to add, in the order their first letters should be tried.

    pyahocorasick finds a node's child by a linear scan, in the order the children were added, and
    most characters of a text are looked up at the root (nothing longer matches there). With
    every script's entries the root has some 700 children, and a space, a digit or a punctuation
    mark, which no entry starts with, was compared with all of them. So the entries that start
    with an ASCII character come first, then a placeholder for every other ASCII character
    (``c`` followed by NUL, which carries nothing: :data:`_PLACEHOLDER`), then the other scripts'
    entries: any ASCII character is found among the first 128 children. The matches are the
    same (an automaton's matches do not depend on the order its entries were added); an ASCII
    lexicon's root is small and left as it is."""
    ascii_first = [e for e in entries if e[0].isascii()]
    if len(ascii_first) == len(entries):
        return ascii_first
    starts = {e[0] for e in ascii_first}
    placeholders = [chr(c) + "\x00" for c in range(128) if chr(c) not in starts]
    return [*ascii_first, *(p for p in placeholders if p not in entries), *(e for e in entries if not e[0].isascii())]
