"""``types``: records are checked when they are added, and hits and info have one JSON shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_memory.recall import SQLiteIndex
from pi_memory.recall.types import Hit, RecallIndex, index_info, normalize_record

from .conftest import record


def test_a_record_is_checked_and_copied() -> None:
    given = {**record("m1", "hello"), "metadata": {"a": 1}, "extra": "dropped"}
    out = normalize_record(given)
    assert out == {**record("m1", "hello"), "metadata": {"a": 1}}
    assert out["metadata"] is not given["metadata"]
    assert normalize_record(record("m2", "x"))["metadata"] == {}


@pytest.mark.parametrize(("change", "message"), [
    ({"text": None}, "field 'text' must be a string, got NoneType"),
    ({"session_id": 3}, "field 'session_id' must be a string, got int"),
    ({"id": ""}, "id must not be empty"),
    ({"metadata": ["a"]}, "metadata must be a dict"),
])
def test_a_bad_record_fails_with_the_field_named(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        normalize_record({**record("m1", "hello"), **change})


def test_each_lone_surrogate_becomes_one_replacement_character() -> None:
    """As JavaScript's ``toWellFormed()`` (and Node's UTF-8 encoding) does: one U+FFFD per lone
    surrogate, never three (one per byte of its UTF-8-like encoding), and a pair split into two
    code points is the character it encodes."""
    assert normalize_record(record("m1", "a\ud800b"))["text"] == "a\ufffdb"
    text = normalize_record(record("m1", "\udc00x\ud83d\ude00y\ud800\ud800\udfff"))["text"]
    assert text == "\ufffdx\U0001f600y\ufffd\U000103ff"
    assert text.encode("utf-8")  # storable
    assert normalize_record(record("\ud800", "t"))["id"] == "\ufffd"


def test_hit_json_rounds_the_scores() -> None:
    hit = Hit(id="m1", text="t", similarity=0.123456, score=1.23456789, role="user",
              timestamp="2025-01-01T00:00:00Z", session_id="s1")
    assert hit.to_json() == {"id": "m1", "text": "t", "similarity": 0.1235, "score": 1.234568, "role": "user",
                             "timestamp": "2025-01-01T00:00:00Z", "session_id": "s1", "metadata": {}}


def test_index_info_and_the_protocol(tmp_path: Path) -> None:
    with SQLiteIndex(tmp_path / "recall.db") as index:
        assert isinstance(index, RecallIndex)
        assert index_info(index, "here", 0, 10, None, "minilm-static-256") == {
            "backend": "sqlite", "location": "here", "count": 0, "size_bytes": 10, "embedder": None,
            "dimension": None, "embedder_in_use": "minilm-static-256"}
        assert index_info(index, "here", 2, 10, ("e", 8), "e")["dimension"] == 8
