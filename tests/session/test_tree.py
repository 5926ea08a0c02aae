"""``session/tree.py``: the index over a file's records and the forest ``get_tree`` returns."""

from __future__ import annotations

from typing import Any

from pi_memory.session.tree import branch_path, build_tree, index_entries


def _e(entry_id: Any, parent: Any, kind: str = "custom", stamp: str = "2025-01-01T00:00:00.000Z", **more: Any) -> dict:
    return {"type": kind, "id": entry_id, "parentId": parent, "timestamp": stamp, **more}


def test_the_index_survives_damaged_ids_and_tracks_labels() -> None:
    odd_id: list[str] = ["not", "a", "string"]
    records = [
        {"type": "session", "id": "s"},
        _e("a", None, "message", message={"role": "custom", "content": "x"}),
        _e(odd_id, "a"),
        _e("l1", "a", "label", targetId="a", label="first"),
        _e("l2", "a", "label", targetId=odd_id, label="odd"),
        _e("l3", "a", "label", targetId="a", label=""),  # clears "first"
    ]
    index = index_entries(records)
    assert "a" in index.by_id and len(index.by_id) == 5 and index.leaf_id == "l3"
    assert list(index.labels.values()) == ["odd"]
    assert not index.has_conversation  # a custom-role message is not conversation
    records.append(_e("u", "l3", "message", message={"role": "user", "content": "hi"}))
    assert index_entries(records).has_conversation


def test_branch_path_ends_at_a_cycle() -> None:
    by_id = {"a": _e("a", "b"), "b": _e("b", "a")}
    assert [e["id"] for e in branch_path(by_id, "a")] == ["b", "a"]
    assert branch_path(by_id, None) == [] and branch_path(by_id, "missing") == []


def test_the_forest_sorts_children_by_time_and_keeps_orphans_as_roots() -> None:
    entries = [
        _e("r", None),
        _e("late", "r", stamp="2025-01-01T00:00:09.000Z"),
        _e("early", "r", stamp="2025-01-01T00:00:01.000Z"),
        _e("undated", "early", stamp="not a date"),
        _e("dated", "early", stamp="2025-01-01T00:00:00.000Z"),
        _e("orphan", "gone"),
        _e("self", "self"),
    ]
    roots = build_tree(entries, {"r": "L"}, {"r": "2025"})
    assert [n.entry["id"] for n in roots] == ["r", "orphan", "self"]
    assert (roots[0].label, roots[0].label_timestamp) == ("L", "2025")
    assert [n.entry["id"] for n in roots[0].children] == ["early", "late"]
    # a NaN comparison counts as equal (JavaScript's sort): file order stays
    assert [n.entry["id"] for n in roots[0].children[0].children] == ["undated", "dated"]
    assert roots[0].to_dict()["label"] == "L" and roots[0].to_dict()["labelTimestamp"] == "2025"
