"""The ``§`` entry format shared with pi-memory and hermes-agent (:mod:`pi_memory.memory.entries`):
parsing, writing, budgets counted as the TypeScript side counts them, and drift with its fix."""

from __future__ import annotations

import pytest

from pi_memory.memory.entries import (
    INVALID_UTF8,
    WINDOWS_LINE_ENDINGS,
    contains_delimiter,
    entry_length,
    find_drift,
    is_canonical,
    joined_length,
    parse_checked,
    parse_entries,
    serialize_entries,
)


def test_entries_are_trimmed_deduplicated_and_joined_without_a_trailing_newline() -> None:
    raw = "\ufeff  first fact \n§\nsecond\n§\nfirst fact"
    assert parse_entries(raw) == ["first fact", "second"]  # BOM and spaces trimmed as JS trim does
    assert serialize_entries(["a", "b"]) == "a\n§\nb" and serialize_entries([]) == ""
    assert parse_entries("") == [] and parse_entries(" \n ") == []
    assert is_canonical("a\n§\nb") and not is_canonical("a\n§\nb\n")


def test_the_budget_counts_delimiters_and_one_entry_counts_utf16_units() -> None:
    assert joined_length(["ab", "cde"]) == 2 + 3 + 3 and joined_length([]) == 0
    assert entry_length("plain") == 5
    assert entry_length("😀😀") == 4  # two code points, four UTF-16 units: pi-memory's count


@pytest.mark.parametrize("content", ["one\n§\ntwo", "§\nlead", "trail\n§", "a\n§\r\nb", "§"])
def test_content_holding_a_delimiter_line_is_recognised(content: str) -> None:
    assert contains_delimiter(content)


def test_a_section_sign_inside_a_line_is_not_a_delimiter() -> None:
    assert not contains_delimiter("costs 5 § per unit") and not contains_delimiter("§§\nx")


def test_drift_names_what_is_wrong_and_the_fix_for_the_file() -> None:
    assert find_drift("a\n§\nb", 100) is None
    assert find_drift(" a \n§\n b\n", 100) is None  # whitespace around entries is cosmetic
    stray = find_drift("a\n§\n\n§\nb", 100)
    assert stray is not None and "stray" in stray.reason
    crlf = find_drift("a\r\n§\r\nb", 100)
    assert crlf is WINDOWS_LINE_ENDINGS
    assert "dos2unix /m/MEMORY.md" in crlf.next_step("/m/MEMORY.md")
    oversized = find_drift("x" * 200, 100)
    assert oversized is not None and "200 chars, over the 100-char limit" in oversized.reason
    assert "iconv" in INVALID_UTF8.next_step("USER.md")


def test_parse_checked_gives_the_entries_and_the_drift_from_one_split() -> None:
    assert parse_checked("a\n§\nb\n§\na", 100) == (["a", "b"], None)
    entries, drift = parse_checked("a\n§\n\n§\nb", 100)
    assert entries == ["a", "b"] and drift is not None
