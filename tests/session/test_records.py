"""The fields of the entries a session appends (:mod:`pi_memory.session.records`), built as pi
1.6.0 builds them: its key order, and unset optional keys left out rather than written ``null``."""

from __future__ import annotations

import pytest

from pi_memory.session.records import (
    check_replacement,
    compaction_fields,
    custom_message_head,
    given,
    latest_name,
    session_name,
    summary_extras,
)


def test_unset_optional_keys_are_left_out_in_order() -> None:
    assert given(a=1, b=None, c=0, d="") == {"a": 1, "c": 0, "d": ""}
    assert list(summary_extras({"n": 1}, {"input": 3}, True)) == ["details", "usage", "fromHook"]
    assert summary_extras(None, None, None) == {}


def test_a_compaction_keeps_its_own_id_when_nothing_is_kept_and_checkpoints_the_system_message() -> None:
    system = {"role": "system", "content": "SYS"}
    fields = compaction_fields("c1", "2025-01-01T00:00:01.000Z", "S", None, 120, {"details": {"x": 1}}, system)
    assert list(fields) == ["summary", "firstKeptEntryId", "tokensBefore", "details", "systemMessage"]
    assert fields["firstKeptEntryId"] == "c1" and fields["systemMessage"]["timestamp"] == 1_735_689_601_000
    assert compaction_fields("c2", "t", "S", "k9", 5, {}, None) == {"summary": "S", "firstKeptEntryId": "k9",
                                                                  "tokensBefore": 5}


def test_a_custom_message_owns_a_copy_of_its_content() -> None:
    blocks = [{"type": "text", "text": "hi"}]
    head = custom_message_head("note", blocks, True, None)
    assert list(head) == ["customType", "content", "display"]
    blocks[0]["text"] = "changed"
    assert head["content"] == [{"type": "text", "text": "hi"}]
    assert custom_message_head("note", "plain", False, {"k": 1})["details"] == {"k": 1}


def test_names_are_one_trimmed_line_and_the_latest_one_counts() -> None:
    assert session_name("  fix\r\nthe\nbuild  ") == "fix the build"
    entries = [{"type": "session_info", "name": "old"}, {"type": "message"}, {"type": "session_info", "name": "  "}]
    assert latest_name(entries) is None  # cleared by the last one
    assert latest_name(entries[:2]) == "old" and latest_name([]) is None


@pytest.mark.parametrize("bad", [{}, {"content": 3}, {"text": "x"}])
def test_a_context_edit_replacement_needs_string_or_list_content(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="must be null or contain string/array content"):
        check_replacement(bad)
    check_replacement(None)
    check_replacement({"content": "new"})
    check_replacement({"content": [{"type": "text", "text": "new"}]})
