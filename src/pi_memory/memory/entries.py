"""The `§`-delimited entry format shared with pi-memory and hermes-agent.

A file is a list of free-text entries joined by ``"\\n§\\n"`` with no trailing
newline. Parsing splits on the exact delimiter, trims each piece the way
JavaScript's ``String.prototype.trim`` does (so a leading BOM is dropped, as in
pi-memory) and drops empty pieces.

Drift is content that a rewrite through the tools would lose or change: an
empty piece (a stray or trailing delimiter), an entry with a `§` line at its
edge (it would fuse with a neighbouring delimiter), one "entry" longer than the
whole budget (free text appended by a shell or patch tool), or a `§` line that
ends in a carriage return (a file saved with Windows line endings: its
delimiters are not delimiters, so the whole file reads as one entry and a
remove would delete every fact in it). Whitespace around entries is cosmetic
and is *not* drift (hermes-agent #61523): a blank line before `§` must never
lock the store. :func:`find_drift` says which rule failed, where the text most
likely came from and what to do.

One entry is measured with :func:`entry_length`, the larger of its code points
and its UTF-16 units: pi-memory (TypeScript) counts UTF-16 units and treats an
entry over the limit as drift, so an entry that fits only in code points would
lock a Node process sharing the directory out of every write.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pi_memory.base.js import js_trim

ENTRY_DELIMITER = "\n§\n"

#: A line that is ``§`` once carriage returns are stripped: what a reader splitting on lines
#: (a person, an editor, hermes on Windows) takes for a delimiter.
_DELIMITER_LINE = re.compile("(?:^|\n)\r*§\r*(?=\n|\\Z)")
#: The same line with at least one carriage return: a delimiter only to the eye.
_CR_DELIMITER_LINE = re.compile("(?:^|\n)(?:\r+§\r*|§\r+)(?=\n|\\Z)")


@dataclass(frozen=True)
class Drift:
    """Why stored text would not round-trip through the tools, and what to do about it.

    ``reason`` says what is wrong, ``cause`` where it most likely came from, ``fix`` the next
    step; ``fix`` may name ``{file}``, filled in by :meth:`next_step`.
    """

    reason: str
    cause: str
    fix: str

    def next_step(self, file: str) -> str:
        """``fix`` for the file at ``file`` (a path, or a backend's location)."""
        return self.fix.replace("{file}", file)

    def __str__(self) -> str:
        return self.reason


WINDOWS_LINE_ENDINGS = Drift(
    reason="it has Windows line endings (CRLF): its '§' lines end in a carriage return, so they do not "
    "separate entries and the whole file reads as one entry",
    cause="saved by a Windows editor, or checked out by git with autocrlf",
    fix="Convert {file} to Unix (LF) line endings (`sed -i 's/\\r$//' {file}`, `dos2unix {file}`, or your "
    "editor's line-ending setting).",
)
INVALID_UTF8 = Drift(
    reason="it is not valid UTF-8",
    cause="written by a tool using another encoding",
    fix="Re-save {file} as UTF-8 (e.g. `iconv -f latin1 -t utf-8`), or remove the undecodable bytes.",
)
_STRAY_DELIMITER = Drift(
    reason="an empty entry or a stray '§' line (a '§' line with no entry on one side)",
    cause="likely a shell append, a patch tool or a manual edit",
    fix="Delete the stray '§' line in {file}, so that every line holding only '§' sits between two entries.",
)


def utf16_length(text: str) -> int:
    """Length in UTF-16 code units (JavaScript's ``length``): characters beyond U+FFFF count 2."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def entry_length(entry: str) -> int:
    """One entry's size against the limit: the larger of code points and UTF-16 units.

    UTF-16 units are never fewer than code points, so that is the UTF-16 length.
    """
    return len(entry) if entry.isascii() else utf16_length(entry)


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
    """True when ``content`` holds a line that is ``§`` once carriage returns are stripped.

    Such content would not survive as one entry: a plain ``§`` line splits it on reload (or, at
    its first or last line, fuses with a neighbouring delimiter), and a ``§\\r`` line is a
    Windows-style delimiter that makes the file drift.
    """
    return _DELIMITER_LINE.search(content) is not None


def _oversized(number: int, entry: str, char_limit: int) -> Drift:
    points, units = len(entry), utf16_length(entry)
    size = f"{points:,} chars"
    if units > points:
        size += f" ({units:,} UTF-16 units, as pi-memory counts)"
    cause = "likely free text appended by a shell or patch tool, or an entry written under a larger limit"
    if points <= char_limit:
        cause = ("pi-memory (TypeScript) counts each emoji and other character beyond U+FFFF as 2, and refuses "
                 "this file too")
    return Drift(
        reason=f"entry {number} is {size}, over the {char_limit:,}-char limit",
        cause=cause,
        fix="Split that entry of {file} into shorter entries, or move the extra text out of the file.",
    )


def _piece_drift(raw: str, pieces: list[str], char_limit: int) -> Drift | None:
    if "\r" in raw and _CR_DELIMITER_LINE.search(raw):
        return WINDOWS_LINE_ENDINGS
    # Trimming only removes whitespace, so the rewrite keeps every non-whitespace
    # character exactly when no piece is blank (a blank piece drops one `§`).
    if not all(pieces):
        return _STRAY_DELIMITER
    for number, entry in enumerate(pieces, 1):
        # Only a piece that starts or ends with '§' can hold a delimiter line at its edge
        # (split() already removed every inner one): test those alone.
        if (entry[0] == "§" or entry[-1] == "§") and contains_delimiter(entry):
            return Drift(
                reason=f"entry {number} starts or ends with a line holding only '§', which would fuse with a "
                "neighbouring delimiter and move entry boundaries on the next write",
                cause="content stored with a '§' line in it: pi-memory (TypeScript) writes such content as "
                "given, or a manual edit",
                fix="In {file}, delete that '§' line or put text on both sides of it, so that every line "
                "holding only '§' separates two entries.",
            )
    for number, entry in enumerate(pieces, 1):
        # UTF-16 units are at most twice the code points: most entries need no encoding.
        if len(entry) > char_limit or (2 * len(entry) > char_limit and entry_length(entry) > char_limit):
            return _oversized(number, entry, char_limit)
    return None


def find_drift(raw: str, char_limit: int) -> Drift | None:
    """Why ``raw`` would not round-trip through the tools, or ``None`` when it does.

    Only non-whitespace differences count: a rewrite may normalise spacing
    around entries, but it must never drop a `§` piece, split free text, or write
    a file that pi-memory would refuse.
    """
    return parse_checked(raw, char_limit)[1]


def drift_reason(raw: str, char_limit: int) -> str | None:
    """:func:`find_drift`'s ``reason`` alone (``None`` when ``raw`` round-trips)."""
    drift = find_drift(raw, char_limit)
    return None if drift is None else drift.reason


def parse_checked(raw: str, char_limit: int) -> tuple[list[str], Drift | None]:
    """``(parse_entries(raw), find_drift(raw, char_limit))`` with one split of the text.

    A mutation needs both, under the lock, on every call.
    """
    if not js_trim(raw):
        return [], None
    pieces = [js_trim(piece) for piece in raw.split(ENTRY_DELIMITER)]
    return dedupe(piece for piece in pieces if piece), _piece_drift(raw, pieces, char_limit)


def salvage_entries(raw: str) -> list[str]:
    """The entries a person sees in ``raw``, even when it drifted: what recovery offers to put back.

    Windows line endings become Unix ones, then the text is split on every line holding only
    ``§`` (so a CRLF file's delimiters count, and a stray ``§`` line leaves no empty entry);
    pieces are trimmed, empty ones dropped, duplicates kept once. Nothing here checks a piece
    against the limit or the scanner: putting one back is a write, and the write checks it.
    """
    text = raw.replace("\r\n", "\n")
    pieces = (js_trim(piece) for piece in _DELIMITER_LINE.split(text))
    return dedupe(piece for piece in pieces if piece)


def is_canonical(raw: str) -> bool:
    """True when ``raw`` is byte-for-byte what the tools would write for it."""
    return raw == serialize_entries(parse_entries(raw))
