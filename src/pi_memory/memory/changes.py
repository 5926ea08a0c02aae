"""What each write does to a target's entries, apart from storage, locking and state.

:class:`~pi_memory.memory.store.MemoryStore` re-reads the entries under the lock and hands them,
with the limit, to one of these functions; it writes what comes back. Each returns either a
failed result (nothing is written) or :data:`Changed`: the new entries and the keys to add to
the success result (``replacedEntry``, ``removedEntry``, ``editedEntry``). The inputs were
already checked (:mod:`pi_memory.memory.validation`); what is checked here depends on the
entries as stored.
"""

from __future__ import annotations

from collections.abc import Sequence

from pi_memory.base.js import js_trim
from pi_memory.memory.entries import dedupe, joined_length, serialize_entries
from pi_memory.memory.validation import Result, content_error, fail, preview

__all__ = ["Changed", "add_entry", "edit_entry", "find_one", "remove_entry", "replace_entry", "set_all"]

#: The new entries and the extra keys of the success result.
Changed = tuple[list[str], Result]


def _over_limit(message: str, entries: list[str], limit: int) -> Result:
    """A failed result for a write over the budget, showing what is stored and its usage."""
    return fail(message, currentEntries=list(entries), usage=f"{joined_length(entries):,}/{limit:,}")


def find_one(entries: list[str], old_text: str) -> int | Result:
    """Index of the one entry ``old_text`` names; an exact whole-entry match wins."""
    if old_text in entries:
        return entries.index(old_text)
    matches = [i for i, e in enumerate(entries) if old_text in e]
    if not matches:
        return fail(f"No entry matched '{old_text}'.")
    if len({entries[i] for i in matches}) > 1:
        return fail(
            f"Multiple entries matched '{old_text}'. Be more specific.",
            matches=[preview(entries[i]) for i in matches],
        )
    return matches[0]


def add_entry(entries: list[str], limit: int, content: str) -> Result | Changed:
    """``entries`` with ``content`` appended, if the total stays within ``limit``."""
    if joined_length([*entries, content]) > limit:
        current = joined_length(entries)
        return _over_limit(
            f"Memory at {current:,}/{limit:,} chars. Adding this entry ({len(content):,} chars) "
            "would exceed the limit. Replace or remove existing entries first.",
            entries, limit,
        )
    return [*entries, content], {}


def replace_entry(entries: list[str], limit: int, old_text: str, new_content: str) -> Result | Changed:
    """The entry ``old_text`` names replaced by ``new_content`` (a duplicate is kept once)."""
    found = find_one(entries, old_text)
    if isinstance(found, dict):
        return found
    updated = dedupe([new_content if i == found else e for i, e in enumerate(entries)])
    if (new_total := joined_length(updated)) > limit:
        return _over_limit(
            f"Replacement would put memory at {new_total:,}/{limit:,} chars. Shorten the new "
            "content or remove other entries first.",
            entries, limit,
        )
    return updated, {"replacedEntry": entries[found]}


def remove_entry(entries: list[str], limit: int, old_text: str) -> Result | Changed:
    """``entries`` without the one ``old_text`` names."""
    found = find_one(entries, old_text)
    if isinstance(found, dict):
        return found
    return [e for i, e in enumerate(entries) if i != found], {"removedEntry": entries[found]}


def set_all(entries: list[str], limit: int, wanted: list[str]) -> Result | Changed:
    """``wanted`` (already trimmed, deduplicated and checked) as the whole content, within ``limit``."""
    if (total := joined_length(wanted)) > limit:
        return _over_limit(
            f"These entries total {total:,} chars; the limit is {limit:,}. Shorten or merge entries and retry.",
            entries, limit,
        )
    return list(wanted), {}


def edit_entry(entries: Sequence[str], limit: int, old_str: str, new_str: str, label: str) -> Result | Changed:
    """The one occurrence of ``old_str`` across ``entries`` replaced by ``new_str`` (``str_replace``).

    No match or several is a failure listing the candidates; an edit that empties its entry
    removes it. ``label`` names the target in the message for a match spanning entries.
    """
    entries = list(entries)
    holding = [(i, entry.count(old_str)) for i, entry in enumerate(entries) if old_str in entry]
    occurrences = sum(count for _, count in holding)
    if occurrences == 0:
        spans = old_str in serialize_entries(entries)
        return fail(
            f"old_str spans more than one entry of {label}; edit one entry at a time."
            if spans else f"No entry contains {old_str!r} verbatim.",
            currentEntries=list(entries),
        )
    if occurrences > 1:
        numbers = ", ".join(str(i + 1) for i, _ in holding)
        return fail(
            f"{old_str!r} occurs {occurrences} times (entries {numbers}); include more of the entry so "
            "it is unique.",
            matches=[preview(entries[i]) for i, _ in holding],
        )
    index = holding[0][0]
    new_entry = js_trim(entries[index].replace(old_str, new_str))
    if new_entry and (bad := content_error(new_entry, "The edited entry", limit)) is not None:
        return bad
    updated = dedupe(new_entry if i == index else e for i, e in enumerate(entries) if i != index or new_entry)
    if (new_total := joined_length(updated)) > limit:
        return _over_limit(
            f"The edit would put memory at {new_total:,}/{limit:,} chars. Shorten it or remove other "
            "entries first.",
            entries, limit,
        )
    return updated, {"editedEntry": new_entry}
