"""Reference §7, "IDs, leaf and tree" (11–29)."""

from __future__ import annotations

import re

import pytest
from session_builders import chain, user

from pi_memory.session import EntryNotFoundError, SessionManager


def test_11_ids_and_parents() -> None:
    sm = SessionManager.in_memory("/p")
    ids = [sm.append_message(user(str(i))) for i in range(3)]
    assert all(re.fullmatch(r"[0-9a-f]{8}", i) for i in ids)
    assert [e["parentId"] for e in sm.get_entries()] == [None, ids[0], ids[1]]


def test_12_leaf_follows_appends() -> None:
    sm = SessionManager.in_memory("/p")
    assert sm.get_leaf_id() is None
    a = sm.append_message(user())
    assert sm.get_leaf_id() == a
    b = sm.append_thinking_level_change("high")
    assert sm.get_leaf_id() == b


def test_13_empty_session() -> None:
    sm = SessionManager.in_memory("/p")
    assert sm.get_branch() == [] and sm.get_tree() == [] and sm.get_leaf_entry() is None


def test_14_15_16_branch() -> None:
    sm = SessionManager.in_memory("/p")
    ids = chain(sm, 4)
    assert [e["id"] for e in sm.get_branch(ids[1])] == ids[:2]
    sm.branch(ids[0])
    new = sm.append_message(user("sibling"))
    assert sm.get_entry(new)["parentId"] == ids[0]  # type: ignore[index]
    with pytest.raises(EntryNotFoundError, match="Entry nonexistent not found"):
        sm.branch("nonexistent")


def test_17_18_tree_shape() -> None:
    sm = SessionManager.in_memory("/p")
    ids = chain(sm, 2)
    for text in ("a", "b", "c"):
        sm.branch(ids[1])
        sm.append_message(user(text))
    assert len(sm.get_tree()[0].children[0].children) == 3

    sm = SessionManager.in_memory("/p")
    one, two, three = chain(sm, 3)
    sm.branch(two)
    five = sm.append_message(user("5"))
    sm.append_message(user("6"))
    sm.branch(five)
    sm.append_message(user("7"))
    node2 = sm.get_tree()[0].children[0]
    assert node2.entry["id"] == two and len(node2.children) == 2
    node5 = next(c for c in node2.children if c.entry["id"] == five)
    assert len(node5.children) == 2
    assert sm.get_children(two)[0]["id"] == three and sm.get_children(None)[0]["id"] == one


def test_19_20_21_branch_with_summary() -> None:
    sm = SessionManager.in_memory("/p")
    first, second = chain(sm, 2)
    summary_id = sm.branch_with_summary(first, "S")
    entry = sm.get_entry(summary_id)
    assert entry is not None and sm.get_leaf_id() == summary_id
    assert entry["parentId"] == first and entry["summary"] == "S"
    assert entry["fromId"] == second  # pi 1.6.0: the leaf we left (the interop test pins this)
    sm.reset_leaf()
    root = sm.get_entry(sm.branch_with_summary(None, "S"))
    assert root is not None and root["parentId"] is None and root["fromId"] == "root"
    with pytest.raises(EntryNotFoundError):
        sm.branch_with_summary("nonexistent", "S")


def test_22_reset_leaf() -> None:
    sm = SessionManager.in_memory("/p")
    chain(sm, 2)
    sm.append_thinking_level_change("high")
    sm.reset_leaf()
    assert sm.build_session_context().messages == []
    new = sm.append_message(user("fresh"))
    assert sm.get_entry(new)["parentId"] is None  # type: ignore[index]
    ctx = sm.build_session_context()
    assert [m["content"][0]["text"] for m in ctx.messages] == ["fresh"]
    assert ctx.thinking_level == "off" and ctx.model is None
    assert len(sm.get_tree()) == 2


def test_23_labels() -> None:
    sm = SessionManager.in_memory("/p")
    a, b = chain(sm, 2)
    sm.append_label_change(a, "one")
    assert sm.get_label(a) == "one"
    sm.append_label_change(a, "two")
    assert sm.get_label(a) == "two"
    sm.append_label_change(a)
    assert sm.get_label(a) is None
    with pytest.raises(EntryNotFoundError, match="Entry non-existent not found"):
        sm.append_label_change("non-existent", "x")
    sm.append_label_change(b, "bee")
    assert sm.get_tree()[0].children[0].label == "bee"
    assert all(m["role"] in ("user", "assistant") for m in sm.build_session_context().messages)
    assert len(sm.build_session_context().messages) == 2


def test_29_custom_session_ids(session_dir: str) -> None:
    sm = SessionManager.in_memory("/p", id="my-custom-id")
    assert sm.get_session_id() == "my-custom-id" and (sm.get_header() or {})["id"] == "my-custom-id"
    assert SessionManager.in_memory("/p").get_session_id()
    assert SessionManager.in_memory("/p", parent_session="p").get_session_id()
    with pytest.raises(ValueError):
        SessionManager.in_memory("/p", id="../escape")
    made = SessionManager.create("/p", session_dir, id="abc")
    assert (made.get_session_file() or "").endswith("_abc.jsonl")
