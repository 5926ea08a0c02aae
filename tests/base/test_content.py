"""``base/content.py``: the one reading of message content as text, and its named variants."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_memory.base import IMAGE_MARKER, content_text, searchable_text, text_values
from pi_memory.extensions.memory.turns import session_turns
from pi_memory.recall.backfill import records_from_entries
from pi_memory.session import SessionManager, get_current_system_message

BLOCKS: list[Any] = [
    {"type": "thinking", "thinking": "private"},
    {"type": "text", "text": "first"},
    {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "x"}},
    {"type": "image", "data": "AAAA", "mimeType": "image/png"},
    {"type": "text", "text": ""},
    {"type": "text", "text": "second"},
    "not a block",
]


@pytest.mark.parametrize("content", ["plain", None, 7, {"type": "text", "text": "x"}])
def test_strings_are_themselves_and_other_shapes_have_no_text(content: Any) -> None:
    expected = "plain" if content == "plain" else ""
    assert content_text(content) == searchable_text(content) == expected


def test_content_text_is_the_text_blocks_only() -> None:
    assert content_text(BLOCKS) == "first\n\nsecond"
    assert content_text(BLOCKS, " ") == "first  second"
    assert content_text([{"type": "text", "text": None}, {"type": "text", "text": 3}, {"type": "text"}]) == ""


def test_searchable_text_notes_images_and_drops_empty_parts() -> None:
    assert searchable_text(BLOCKS) == f"first\n{IMAGE_MARKER}\nsecond"


def test_text_values_are_raw() -> None:
    assert text_values([{"type": "text", "text": True}, {"type": "text"}, {"type": "image"}]) == [True, None]
    assert text_values("text") == []


def test_dreaming_turns_leave_a_null_text_out() -> None:
    """A text block whose ``text`` is null is no text (it used to become the word ``None``)."""
    question = [{"type": "text", "text": None}, {"type": "text", "text": "q"}]
    entries = [
        {"type": "message", "id": "u", "message": {"role": "user", "timestamp": 1, "content": question}},
        {"type": "message", "id": "a", "message": {"role": "assistant", "timestamp": 2,
                                                  "content": [{"type": "text", "text": "answer"}]}},
    ]
    [turn] = session_turns(entries, "s", None)
    assert turn.user_message == "q" and turn.assistant_message == "answer"


def test_recall_indexes_the_searchable_text() -> None:
    entries = [{"type": "message", "id": "m1", "message": {"role": "user", "content": BLOCKS, "timestamp": 1}}]
    [record] = records_from_entries(entries, "s")
    assert record["text"] == searchable_text(BLOCKS)


def test_session_readers_stringify_odd_text_values_as_javascript_does(tmp_path: Path) -> None:
    """pi joins ``block.text`` with ``Array.join``: ``true`` → "true", ``2.0`` → "2", missing → ""."""
    odd = [{"type": "text", "text": "odd"}, {"type": "text", "text": True}, {"type": "text", "text": 2.0},
           {"type": "text"}]
    sm = SessionManager.create("/p", str(tmp_path))
    sm.append_message({"role": "user", "content": odd, "timestamp": 1})
    [info] = SessionManager.list("/p", str(tmp_path))
    assert info.first_message == "odd true 2 "
    system = get_current_system_message([{"role": "system", "content": odd, "timestamp": 1}])
    assert system is not None and system["content"] == "odd\ntrue\n2\n"
