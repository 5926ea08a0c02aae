"""The frozen system-prompt block and its bounding.

The block is rendered once per :meth:`MemoryStore.load_from_disk` and then
kept byte-identical, so a provider's prompt cache stays warm for a whole
session. Every entry passes the threat scanner first: a poisoned entry (or one
too large to scan, or one that merely looks like one of our placeholders) is
replaced *in the prompt only*; the file keeps it for ``memory_read`` and
``memory_remove``.
"""

from __future__ import annotations

from collections.abc import Iterable

from pi_memory.memory.entries import ENTRY_DELIMITER
from pi_memory.memory.guidance import MEMORY_GUIDANCE
from pi_memory.security.threats import MAX_SCAN_CHARS, threat_ids

HEADER_RULE = "═" * 46
BLOCK_LABELS = {"memory": "MEMORY (your personal notes)", "user": "USER PROFILE (who the user is)"}
SNAPSHOT_CHAR_CAP = 50_000
USER_RESERVE = 24_999
_PLACEHOLDER_PREFIX = "[BLOCKED:"
EMPTY_SNAPSHOT = "Memory is empty: nothing has been saved yet."


def format_usage(current: int, limit: int) -> str:
    """``"0% — 9/2,200 chars"``; the percentage is floored and capped at 100."""
    pct = min(100, current * 100 // limit) if limit > 0 else 0
    return f"{pct}% — {current:,}/{limit:,} chars"


def format_entry_count(count: int) -> str:
    """``"1 entry"``, ``"2 entries"``: the one wording every status line uses."""
    return f"{count:,} entr{'y' if count == 1 else 'ies'}"


def sanitize_entry(entry: str, file_label: str) -> str:
    """The entry as it may appear in a system prompt, or a short placeholder."""
    if len(entry) > MAX_SCAN_CHARS:
        return (
            f"[BLOCKED: {file_label} entry of {len(entry):,} chars is too large to scan. "
            "Removed from system prompt.]"
        )
    if entry.startswith(_PLACEHOLDER_PREFIX):
        return (
            f"[BLOCKED: {file_label} contained an untrusted blocked-looking entry. "
            "Removed from system prompt.]"
        )
    ids = threat_ids(entry, "strict")
    if ids:
        return (
            f"[BLOCKED: {file_label} entry contained threat pattern(s): {', '.join(ids)}. "
            "Removed from system prompt; use memory_read to inspect it.]"
        )
    return entry


def _block_split_phrases(entries: list[str], sanitized: list[str], file_label: str) -> list[str]:
    """Block both halves of a threat split across two adjacent entries.

    The model reads the block as one text, so "ignore all previous" at the end of one entry and
    "instructions" at the start of the next is one instruction: every pair of clean neighbours
    is scanned joined (each entry at most twice: linear in the block)."""
    out = list(sanitized)
    for i in range(len(entries) - 1):
        a, b = entries[i], entries[i + 1]
        if sanitized[i] != a or sanitized[i + 1] != b:
            continue
        ids = threat_ids(f"{a}\n{b}", "strict")
        if ids:
            placeholder = (
                f"[BLOCKED: {file_label} entry read with its neighbour contained threat pattern(s): "
                f"{', '.join(ids)}. Removed from system prompt; use memory_read to inspect it.]"
            )
            out[i] = out[i + 1] = placeholder
    return out


def render_block(target: str, entries: Iterable[str], file_label: str, char_limit: int) -> str:
    """Header, usage and the sanitized entries; ``""`` for no entries."""
    originals = list(entries)
    sanitized = _block_split_phrases(
        originals, [sanitize_entry(e, file_label) for e in originals], file_label
    )
    if not sanitized:
        return ""
    content = ENTRY_DELIMITER.join(sanitized)
    header = f"{BLOCK_LABELS[target]} [{format_usage(len(content), char_limit)}]"
    return "\n".join([HEADER_RULE, header, HEADER_RULE, content])


def join_blocks(memory_block: str, user_block: str) -> str:
    """The memory block, a blank line, the user block (empties left out)."""
    return "\n\n".join(block for block in (memory_block, user_block) if block)


def bound_snapshot(memory_block: str, user_block: str, cap: int = SNAPSHOT_CHAR_CAP) -> str:
    """Fit both blocks into ``cap`` chars (pi-memory's ``captureSnapshot``).

    When both are present the user block keeps up to ``USER_RESERVE`` chars, so
    a huge MEMORY.md can never push the user profile out of the prompt. Cuts
    are prefix slices; the files themselves are never shortened.
    """
    if not memory_block or not user_block:
        return (memory_block or user_block)[:cap]
    reserved = min(len(user_block), USER_RESERVE)
    memory_part = memory_block[: max(0, cap - 2 - reserved)]
    user_part = user_block[: max(0, cap - 2 - len(memory_part))]
    return f"{memory_part}\n\n{user_part}"


def memory_prompt(snapshot: str, guidance: str = MEMORY_GUIDANCE) -> str:
    """The memory section of a system prompt: ``guidance``, a blank line, then ``snapshot``.

    Every host that is not the pi host (MCP instructions, the framework adapters) shows the model
    this one text, so a model reads the same rules and the same frozen facts wherever it runs.
    """
    return f"{guidance.rstrip()}\n\n{snapshot or EMPTY_SNAPSHOT}"
