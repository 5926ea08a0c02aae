"""The intent layer's re-readings of a text no line of which it flagged: letters spaced out,
dotted or written in digits read as the words they spell (``intent.detect`` reads each view
built here as a whole text)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from pi_memory.security import normalize
from pi_memory.security.intent_match import ascii_lexicon

__all__ = ["rereadings"]


def rereadings(folded: str) -> Iterator[str | None]:
    """The re-readings of a line no reading flagged, each built only when the text shows its trick.

    After the rules' layout view (letter runs of four or more joined), every run of single
    characters is joined, paths and addresses included, and words with a dot between their
    letters lose the dots: "u p l o a d   ~ / . k u b e / c o n f i g   t o   h t t p s : / / ..."
    and "c.o.p.y t.h.e .e.n.v" then hold the act, the path and the URL the intent reads. The leet
    view reads a lone "4" between words as the article it stands for ("5p4wn 4 5h3ll")."""
    layout = normalize.layout_view(folded)
    yield layout
    if layout is not None:
        spelled = _DOTTED_WORD.sub(lambda m: m.group().replace(".", "") if m.group()[0] != "." else
                                   "." + m.group()[1:].replace(".", ""), _SPACED_RUN.sub(_unspace, folded))
        yield spelled if spelled not in (folded, layout) else None
    leet = normalize.leet_view(folded, _vocabulary())
    yield _LONE_FOUR.sub("a", leet) if leet is not None else None


#: A run of two or more single characters with single spaces between them; a wider gap ends it.
_SPACED_RUN = re.compile(r"(?<!\S)\S(?: \S)+(?!\S)")
#: A word with a dot between each of its letters, and an optional leading dot (``.e.n.v``).
_DOTTED_WORD = re.compile(r"(?<![\w.])\.?[a-z](?:\.[a-z])+(?![\w])")
_LONE_FOUR = re.compile(r"(?<= )4(?= [a-z])")


def _unspace(m: re.Match[str]) -> str:
    return m.group().replace(" ", "")


@cache
def _vocabulary() -> frozenset[str]:
    """The lexicon's words and stems: a leet view is only worth reading when it spells one (a
    decoded token is ASCII letters, so the ASCII entries are all it can spell)."""
    lex = ascii_lexicon()
    return frozenset(lex.exact) | frozenset(lex.stems)
