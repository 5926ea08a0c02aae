"""How the lexicon's words and phrases are found in a text: the word starts and phrase entries of
one automaton pass (``str.find`` per entry while a lexicon is young or without ``pyahocorasick``),
the concepts each token carries (memoised), and the word-boundary test each script needs.

``intent_match`` turns these finds into a line's concepts and their positions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from pi_memory.security.lexicon_build import CLITIC, END, PROCLITICS, START, WORD, Lexicon, is_word

_WORD_START = re.compile(r"(?<![^\W_])[^\W_]")  # also after an apostrophe: l'utilisateur


def on_boundaries(text: str, lo: int, hi: int, flags: int) -> bool:
    """Whether ``text[lo:hi]`` sits on the word boundaries ``flags`` asks for (an Arabic entry
    may follow a proclitic: at most 3 letters back, so the test stays constant-time)."""
    if flags & END and hi < len(text) and is_word(text[hi]):
        return False
    if flags & START and lo > 0 and is_word(text[lo - 1]):
        if not flags & CLITIC:
            return False
        t = lo - 1
        while t > max(0, lo - 4) and is_word(text[t - 1]):
            t -= 1
        return (t == 0 or not is_word(text[t - 1])) and text[t:lo] in PROCLITICS
    return True


def word_marks(
    lex: Lexicon, text: str, starts: Iterable[int] | None = None
) -> Iterator[tuple[int, frozenset[str]]]:
    """``(position, concepts)`` of every word that starts like a lexicon word or stem
    (``starts``: those word starts, when the caller has found them already)."""
    cache = _TOKEN_CONCEPTS
    word_at = WORD.match
    for start in _word_starts(lex, text) if starts is None else starts:
        w = word_at(text, start)
        if w is None:
            continue
        token = w.group()
        hit = cache.get(token)
        if hit is None:
            hit = _token_concepts(lex, token)
            if len(cache) < _CACHE_LIMIT:
                cache[token] = hit
        if hit:
            yield start, hit


_Phrase = tuple[int, int, tuple[tuple[int, frozenset[str]], ...]]


def phrase_hits(lex: Lexicon, text: str) -> Iterator[_Phrase]:
    """``(start, end, options)`` of every phrase entry found in ``text`` (before boundary tests),
    in the automaton's order: by end, the longer entry first."""
    automaton = lex.reader(len(text))
    if automaton is None:  # a young lexicon, or no pyahocorasick: one find per entry
        yield from _found_phrases(lex, text)
        return
    for end, (n, _, options) in automaton.iter(text):
        if options:
            yield end - n + 1, end + 1, options


def _found_phrases(lex: Lexicon, text: str) -> list[_Phrase]:
    """:func:`phrase_hits` by ``str.find``: every occurrence of every phrase entry, sorted as the
    automaton reports them (by end; at one end the longer entry, which starts first)."""
    found: list[_Phrase] = []
    find = text.find
    for entry, options in lex.phrases.items():
        at = find(entry)
        while at >= 0:
            found.append((at, at + len(entry), options))
            at = find(entry, at + 1)
    found.sort(key=lambda hit: (hit[1], hit[0]))
    return found


def _word_starts(lex: Lexicon, text: str) -> Iterable[int]:
    """Starts of words that begin with a lexicon word or stem (C automaton, else every word)."""
    return lexicon_pass(lex, text, phrases=False)[0]


def lexicon_pass(
    lex: Lexicon, text: str, phrases: bool = True, window: tuple[int, int] | None = None
) -> tuple[Iterable[int], list[_Phrase]]:
    """:func:`_word_starts` and :func:`phrase_hits` (in its order) from one automaton pass;
    ``window``: only the entries that lie within ``text[a:b]`` are needed (the automaton reads
    only that much, ``str.find`` reads it all: the entries within the window are the same)."""
    automaton = lex.reader(len(text))
    if automaton is None:  # every word start (the same marks: see word_marks), one find per phrase
        return [m.start() for m in _WORD_START.finditer(text)], _found_phrases(lex, text) if phrases else []
    starts: set[int] = set()
    found: list[_Phrase] = []
    a, b = window or (0, len(text))
    for end, (n, word, options) in automaton.iter(text, a, b):
        start = end - n + 1
        if word and (start == 0 or not text[start - 1].isalnum()):
            starts.add(start)
        if options and phrases:
            found.append((start, end + 1, options))
    return sorted(starts), found


_TOKEN_CONCEPTS: dict[str, frozenset[str]] = {}
_CACHE_LIMIT = 200_000  # words seen: a bounded memo, so repeated words cost one lookup


def _token_concepts(lex: Lexicon, token: str) -> frozenset[str]:
    found = set(lex.exact.get(token, ()))
    for k in lex.stem_lengths:
        if k > len(token):
            break
        hit = lex.stems.get(token[:k])
        if hit is not None:
            found |= hit
    if token[-2:] in _POSSESSIVE and len(token) > 3:
        found |= _token_concepts(lex, token[:-2])  # "the assistant's rules": the assistant
    if not token.isascii() and token[0].isascii():
        # An English word with the other language's ending on it ("merge하기", "main에",
        # "deploy時"): code-mixed text reads the English word too.
        head = _ASCII_HEAD.match(token)
        if head is not None and head.end() < len(token) and _UNSPACED_TAIL.match(token, head.end()):
            found |= _token_concepts(lex, head.group())
    return frozenset(found)


_ASCII_HEAD = re.compile(r"[a-z]{2,}")
_POSSESSIVE = frozenset({"'s", "’s"})
#: Scripts whose endings attach to a borrowed word: Hangul, kana and CJK, Devanagari, Arabic.
_UNSPACED_TAIL = re.compile(r"[\uac00-\ud7af\u3040-\u30ff\u4e00-\u9fff\u0900-\u097f\u0600-\u06ff]")
