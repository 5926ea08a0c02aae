"""The `§`-delimited entry format shared with pi-memory and hermes-agent.

A file is a list of free-text entries joined by ``"\\n§\\n"`` with no trailing
newline. Parsing splits on the exact delimiter, trims each piece the way
JavaScript's ``String.prototype.trim`` does (so a leading BOM is dropped, as in
pi-memory) and drops empty pieces.

Drift is content that a rewrite through the tools would lose: an empty piece
(a stray or trailing delimiter) or one "entry" longer than the whole budget
(free text appended by a shell or patch tool). Whitespace around entries is
cosmetic and is *not* drift (hermes-agent #61523): a blank line before `§`
must never lock the store.
"""

from __future__ import annotations

from collections.abc import Iterable

ENTRY_DELIMITER = "\n§\n"

#: The characters JavaScript's ``trim`` removes (WhiteSpace + LineTerminator).
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    """Trim like JavaScript's ``String.prototype.trim`` (includes U+FEFF)."""
    return text.strip(JS_WHITESPACE)


def split_entries(raw: str) -> list[str]:
    """Split on the exact delimiter, trim pieces, drop empties; duplicates kept."""
    if not js_trim(raw):
        return []
    pieces = (js_trim(piece) for piece in raw.split(ENTRY_DELIMITER))
    return [piece for piece in pieces if piece]


def dedupe(entries: Iterable[str]) -> list[str]:
    """Drop exact duplicates, keeping the first occurrence and the order."""
    return list(dict.fromkeys(entries))


def parse_entries(raw: str) -> list[str]:
    """The live entry list for a file's text."""
    return dedupe(split_entries(raw))


def serialize_entries(entries: Iterable[str]) -> str:
    """Join entries with the delimiter; no trailing newline; ``[]`` gives ``""``."""
    return ENTRY_DELIMITER.join(entries)


def joined_length(entries: list[str]) -> int:
    """Budget size: length of the joined text in code points, delimiters included."""
    if not entries:
        return 0
    return sum(map(len, entries)) + len(ENTRY_DELIMITER) * (len(entries) - 1)


def contains_delimiter(content: str) -> bool:
    """True when ``content`` would not survive as one entry next to its neighbours.

    Checks the content with a newline on each side, so a leading ``§`` line or a
    trailing ``§`` line (which would fuse with a neighbouring delimiter) counts too.
    """
    return ENTRY_DELIMITER in "\n" + content + "\n"


def _piece_drift(pieces: list[str], char_limit: int) -> str | None:
    # Trimming only removes whitespace, so the rewrite keeps every non-whitespace
    # character exactly when no piece is blank (a blank piece drops one `§`).
    if not all(pieces):
        return "empty entry or stray delimiter"
    for entry in pieces:
        # Only a piece that starts or ends with '§' can hold a delimiter line at its edge
        # (split() already removed every inner one): test those alone.
        if (entry[0] == "§" or entry[-1] == "§") and contains_delimiter(entry):
            return "a '§' line at the edge of an entry would move entry boundaries"
    for entry in pieces:
        if len(entry) > char_limit:
            return f"an entry of {len(entry):,} chars is longer than the {char_limit:,}-char limit"
    return None


def drift_reason(raw: str, char_limit: int) -> str | None:
    """Why ``raw`` would not round-trip through the tools, or ``None`` when it does.

    Only non-whitespace differences count: a rewrite may normalise spacing
    around entries, but it must never drop a `§` piece or split free text.
    """
    if not js_trim(raw):
        return None
    return _piece_drift([js_trim(piece) for piece in raw.split(ENTRY_DELIMITER)], char_limit)


def parse_checked(raw: str, char_limit: int) -> tuple[list[str], str | None]:
    """``(parse_entries(raw), drift_reason(raw, char_limit))`` with one split of the text.

    A mutation needs both, under the lock, on every call.
    """
    if not js_trim(raw):
        return [], None
    pieces = [js_trim(piece) for piece in raw.split(ENTRY_DELIMITER)]
    return dedupe(piece for piece in pieces if piece), _piece_drift(pieces, char_limit)


def is_canonical(raw: str) -> bool:
    """True when ``raw`` is byte-for-byte what the tools would write for it."""
    return raw == serialize_entries(parse_entries(raw))
