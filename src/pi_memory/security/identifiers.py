"""Where a word is part of a code identifier: the name of a program object, not the note's wording.

One reading for the two places that ask it. The intent layer asks it of an act word anywhere
(``conn.send(...)``, ``send_message``: what an API does, ``citations.CODE_ACTS``); the second look
at technical text asks it of every word of a line written as code, where a name assigned or
passed by keyword, an object key, an attribute and a declaring keyword are identifiers too
(``intent_technical.without_identifiers``). Both read the same extent: the words joined by ``_``
or ``.`` (or by ``-`` in code font) into one name, so that a name is judged whole
(``ignore_rules``, ``client.webhooks.unwrap``).

Underscores join only between two letters or digits: one that opens or closes a word in prose
(``_send_ the keys``, Markdown's emphasis) joins nothing. A dot joins only before a letter, so a
word at a sentence's end (``... the browser. Then``) is not joined to the next. Linear in the
name's length.
"""

from __future__ import annotations

from pi_memory.security.lazy_re import compile_lazily

#: What follows a name assigned or passed by keyword (``x = ...``, ``f(name=...)``), not compared.
_ASSIGNED = compile_lazily(r"\s*=(?![=>])")
#: An object key: ``{ key:`` or ``, key:``.
_KEY_BEFORE = compile_lazily(r"[{,]\s*$")
_KEY_AFTER = compile_lazily(r"\s*:")
#: A declaring keyword, before the name or the parameters it declares.
_DECLARING = frozenset(
    {"def", "class", "const", "let", "var", "function", "async", "await", "new", "return", "import", "from", "lambda"}
)
_DECLARED = compile_lazily(r"\s+[\w(]")


def identifier_at(text: str, pos: int, *, code: bool = False) -> tuple[int, int] | None:
    """``(start, end)`` of the code identifier the word at ``pos`` of folded ``text`` is part of,
    or ``None``: the word joined to others by ``_`` or ``.`` (or by ``-`` inside code font), or
    called (``send(``). With ``code`` (the line is written as code) also a name assigned or passed
    by keyword, an object key, an attribute after a call or an index (``f().send``), a name an
    underscore opens or closes (``_private``, ``__init__``) and a declaring keyword (``def``)."""
    end = _word_end(text, pos)
    if end == pos:
        return None
    lo, hi = pos, end
    while (j := _joined_before(text, lo)) is not None:
        lo = j
        while lo > 0 and text[lo - 1].isalnum():
            lo -= 1
    while (j := _joined_after(text, hi)) is not None:
        hi = _word_end(text, j)
    if (lo, hi) != (pos, end) or text.startswith("(", hi):
        return lo, hi
    if not code:
        return None
    while lo > 0 and text[lo - 1] == "_":
        lo -= 1
    while hi < len(text) and text[hi] == "_":
        hi += 1
    if (
        (lo, hi) != (pos, end)
        or text.startswith("(", hi)
        or _ASSIGNED.match(text, hi) is not None
        or (_KEY_BEFORE.search(text, max(0, lo - 20), lo) is not None and _KEY_AFTER.match(text, hi) is not None)
        or (lo > 0 and text[lo - 1] == ".")
        or (text[lo:hi] in _DECLARING and _DECLARED.match(text, hi) is not None)
    ):
        return lo, hi
    return None


def in_identifier(text: str, pos: int) -> bool:
    """Is the word starting at ``pos`` of folded ``text`` part of a code identifier? The same
    answer as :func:`identifier_at` (outside a code line), read from the word's own neighbours
    only: the intent layer asks it of every act word, and a long name need not be walked for each."""
    end = _word_end(text, pos)
    if end == pos:
        return False
    return (
        text.startswith("(", end)
        or _joined_after(text, end) is not None
        or _joined_before(text, pos) is not None
    )


def _word_end(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isalnum():
        pos += 1
    return pos


def _joined_after(text: str, i: int) -> int | None:
    """Where the next word starts, when the letters or digits ending at ``i`` are joined to it
    (``conn.send``, ``send_message``, ``self._send``, ``a__b``; ``wl-paste`` in code font)."""
    if i == 0 or i >= len(text) or not text[i - 1].isalnum():
        return None
    k = i + (text[i] == ".")
    while k < len(text) and text[k] == "_":
        k += 1
    if k < len(text) and k > i and (text[k].isalpha() or (text[k].isalnum() and text[k - 1] == "_")):
        return k
    if text[i] == "-" and text[i + 1 : i + 2].isalnum() and _in_code_font(text, i):
        return i + 1
    return None


def _joined_before(text: str, i: int) -> int | None:
    """Where the joiner before the word starting at ``i`` starts, when it joins a word before."""
    if i == 0 or i >= len(text) or not text[i].isalnum():
        return None
    k = i
    while k > 0 and text[k - 1] == "_":
        k -= 1
    if k > 0 and text[k - 1] == "." and (k < i or text[i].isalpha()):
        k -= 1
    if k < i and k > 0 and text[k - 1].isalnum():
        return k
    if text[i - 1] == "-" and i >= 2 and text[i - 2].isalnum() and _in_code_font(text, i):
        return i - 1
    return None


def _in_code_font(text: str, pos: int) -> bool:
    """Is ``pos`` inside an inline code span: an odd number of backquotes before it on its line?"""
    return text.count("`", text.rfind("\n", 0, pos) + 1, pos) % 2 == 1
