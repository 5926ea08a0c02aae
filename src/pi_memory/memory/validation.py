"""What the store accepts as an entry, checked before it takes the lock.

One place for the rules every write applies to the text it is given: not empty, valid UTF-8
(no lone surrogates — invalid UTF-8 on a command line or half of an escaped UTF-16 pair), no
line holding only the ``§`` delimiter, within the limit in UTF-16 units as pi-memory counts it
(so a directory shared with pi-memory never drifts for it), short enough to scan, and free of
threats. Each check returns a failed result with a next step, or ``None``.
"""

from __future__ import annotations

from typing import Any

from pi_memory.base.js import js_trim
from pi_memory.base.settings import whole_number
from pi_memory.memory.entries import contains_delimiter, entry_length
from pi_memory.security.threats import MAX_SCAN_CHARS, first_threat_message

__all__ = ["Result", "coerce_limit", "content_error", "fail", "invalid_text", "named_text", "preview"]

Result = dict[str, Any]

PREVIEW_CHARS = 80


def fail(error: str, **extra: Any) -> Result:
    """A failed result in pi-memory's shape (``success: false``, ``error``, any extra keys)."""
    return {"success": False, "error": error, **extra}


def preview(entry: str) -> str:
    """``entry`` cut to :data:`PREVIEW_CHARS` for a list of candidates."""
    return entry if len(entry) <= PREVIEW_CHARS else entry[:PREVIEW_CHARS] + "..."


def coerce_limit(name: str, value: object) -> int:
    """Accept ints and digit strings (settings after ``${VAR}`` interpolation)."""
    number = whole_number(value)
    if number is None:
        raise ValueError(f"{name} must be a whole number of characters (e.g. 2200), got {value!r}")
    if number < 0:
        raise ValueError(f"{name} must be 0 or more, got {number}")
    return number


def invalid_text(value: str, field: str) -> Result | None:
    """A failed result when ``value`` cannot be encoded as UTF-8 (it holds a lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        return fail(
            f"{field} is not valid text: character {exc.start + 1} is U+{ord(value[exc.start]):04X}, a lone "
            "surrogate, which cannot be stored as UTF-8 (it comes from bytes that were not valid UTF-8, e.g. "
            "on a command line, or from half of an escaped UTF-16 pair). Nothing was changed; send the text "
            "as valid UTF-8."
        )
    return None


def named_text(value: object) -> str | Result:
    """The trimmed ``oldText`` that names an entry (``replace``, ``remove``), or why it cannot."""
    text = js_trim(str(value))
    if not text:
        return fail("oldText cannot be empty.")
    return bad if (bad := invalid_text(text, "oldText")) is not None else text


def content_error(content: str, field: str, limit: int) -> Result | None:
    """Why ``content`` (already trimmed) cannot be stored as one entry under ``limit``, or ``None``."""
    if not content:
        return fail(f"{field} cannot be empty.")
    if (bad := invalid_text(content, field)) is not None:
        return bad
    if contains_delimiter(content):
        return fail(
            f"{field} contains the entry delimiter (a line holding only '§', maybe with a Windows "
            "line ending); it would be split into several entries on reload. Remove that line or add "
            "each part as its own entry."
        )
    if len(content) <= limit < (units := entry_length(content)):
        # Within the budget in code points, over it as pi-memory counts: a Node process sharing
        # the directory would then refuse every write to the file as drift.
        return fail(
            f"{field} is {len(content):,} chars but {units:,} UTF-16 units (each emoji or other character "
            f"beyond U+FFFF counts 2); one entry must fit the {limit:,}-char limit in both counts, so "
            "that pi-memory (TypeScript) sharing this directory can still write to it. Shorten it or "
            "split it into two entries."
        )
    if len(content) > MAX_SCAN_CHARS:
        return fail(
            f"{field} is {len(content):,} chars; entries over {MAX_SCAN_CHARS:,} chars cannot be "
            "scanned safely. Store a shorter summary."
        )
    return fail(threat) if (threat := first_threat_message(content, "strict")) else None
