"""``rows``: one SQL row layout becomes hits and records the same way on every engine."""

from __future__ import annotations

import re
from typing import Any

from pi_memory.recall.rows import hit_from_row, metadata_of, now, record_from_row, record_pages

ROW = (7, "m1", "the staging database moved", "user", "2025-01-02T10:00:00Z", "s1", '{"author": "Ana"}')


def test_metadata_is_read_from_json_text_or_a_jsonb_dict() -> None:
    assert metadata_of("{}") == {}
    assert metadata_of('{"a": 1}') == {"a": 1}
    assert metadata_of({"a": 1}) == {"a": 1}
    assert metadata_of(None) == {}


def test_a_row_becomes_a_hit_or_a_record() -> None:
    hit = hit_from_row(ROW, similarity=0.5, score=1.25)
    assert (hit.id, hit.text, hit.role, hit.timestamp, hit.session_id) == ROW[1:6]
    assert (hit.similarity, hit.score, hit.metadata) == (0.5, 1.25, {"author": "Ana"})
    assert record_from_row(ROW) == {"id": "m1", "text": "the staging database moved", "role": "user",
                                    "timestamp": "2025-01-02T10:00:00Z", "session_id": "s1",
                                    "metadata": {"author": "Ana"}}


def test_record_pages_walk_the_rows_by_seq_until_none_is_left() -> None:
    rows = [(seq, f"m{seq}", "t", "user", "2025-01-01T00:00:00Z", "s1", "{}") for seq in (2, 5, 9)]
    asked: list[int] = []

    def page(last: int) -> list[tuple[Any, ...]]:
        asked.append(last)
        return [r for r in rows if r[0] > last][:2]

    assert [[r["id"] for r in batch] for batch in record_pages(page)] == [["m2", "m5"], ["m9"]]
    assert asked == [0, 5, 9]


def test_now_is_pis_timestamp_format() -> None:
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", now())
