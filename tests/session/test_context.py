"""Reference §7, "Context building" (30–43), plus pi 1.6.0's system checkpoints and context edits."""

from __future__ import annotations

from typing import Any

import pytest
from session_builders import asst, user

from pi_memory.session import SessionError, SessionManager, build_session_context, convert_to_llm


def _entry(entry_type: str, eid: str, parent: str | None, **fields: Any) -> dict[str, Any]:
    return {"type": entry_type, "id": eid, "parentId": parent, "timestamp": "2025-01-01T00:00:00.000Z", **fields}


def _msg(eid: str, parent: str | None, message: dict[str, Any]) -> dict[str, Any]:
    return _entry("message", eid, parent, message=message)


def _texts(messages: list[dict[str, Any]]) -> list[str]:
    out = []
    for m in messages:
        if m["role"] in ("compactionSummary", "branchSummary"):
            out.append(f"[{m['role']}:{m['summary']}]")
        elif isinstance(m.get("content"), str):
            out.append(m["content"])
        else:
            out.append(m["content"][0]["text"] if m["content"] else "")
    return out


def test_30_empty() -> None:
    assert build_session_context([]).to_dict() == {"messages": [], "thinkingLevel": "off", "model": None}


def test_31_thinking_level() -> None:
    entries = [
        _msg("1", None, user("u")),
        _entry("thinking_level_change", "2", "1", thinkingLevel="high"),
        _msg("3", "2", asst("a")),
    ]
    ctx = build_session_context(entries)
    assert len(ctx.messages) == 2 and ctx.thinking_level == "high"


def test_32_later_assistant_sets_the_model() -> None:
    entries = [
        _msg("1", None, user()),
        _entry("model_change", "2", "1", provider="openai", modelId="gpt-4"),
        _msg("3", "2", asst(provider="anthropic", model="claude-test")),
    ]
    assert build_session_context(entries).model == {"provider": "anthropic", "modelId": "claude-test"}
    entries.append(_entry("model_change", "4", "3", provider="openai", modelId="gpt-4"))
    assert build_session_context(entries).model == {"provider": "openai", "modelId": "gpt-4"}


def _compacted(first_kept: str) -> list[dict[str, Any]]:
    return [
        _msg("u1", None, user("u1")),
        _msg("a1", "u1", asst("a1")),
        _msg("u2", "a1", user("u2")),
        _msg("a2", "u2", asst("a2")),
        _entry("compaction", "c1", "a2", summary="S1", firstKeptEntryId=first_kept, tokensBefore=100),
        _msg("u3", "c1", user("u3")),
        _msg("a3", "u3", asst("a3")),
    ]


def test_33_compaction_keeps_from_first_kept() -> None:
    ctx = build_session_context(_compacted("u2"))
    assert _texts(ctx.messages) == ["[compactionSummary:S1]", "u2", "a2", "u3", "a3"]
    assert ctx.messages[0]["tokensBefore"] == 100
    assert ctx.messages[0]["timestamp"] == 1735689600000


def test_34_compaction_keeping_everything() -> None:
    ctx = build_session_context(_compacted("u1"))
    assert _texts(ctx.messages) == ["[compactionSummary:S1]", "u1", "a1", "u2", "a2", "u3", "a3"]


def test_34b_unknown_first_kept_keeps_nothing_before() -> None:
    assert _texts(build_session_context(_compacted("gone")).messages) == ["[compactionSummary:S1]", "u3", "a3"]


def test_35_only_the_latest_compaction_counts() -> None:
    entries = [
        *_compacted("u2"),
        _entry("compaction", "c2", "a3", summary="S2", firstKeptEntryId="u3", tokensBefore=5),
        _msg("u4", "c2", user("u4")),
    ]
    assert _texts(build_session_context(entries).messages) == ["[compactionSummary:S2]", "u3", "a3", "u4"]
    # an older compaction inside the kept range contributes nothing
    entries[-2]["firstKeptEntryId"] = "u2"
    assert _texts(build_session_context(entries).messages) == ["[compactionSummary:S2]", "u2", "a2", "u3", "a3", "u4"]


def test_36_branches() -> None:
    entries = [
        _msg("1", None, user("1")),
        _msg("2", "1", asst("2")),
        _msg("3", "2", user("3")),
        _msg("4", "2", user("4")),
    ]
    assert _texts(build_session_context(entries, "3").messages) == ["1", "2", "3"]
    assert _texts(build_session_context(entries, "4").messages) == ["1", "2", "4"]


def test_37_branch_summary_in_place() -> None:
    entries = [
        _msg("1", None, user("1")),
        _entry("branch_summary", "2", "1", fromId="9", summary="gone"),
        _msg("3", "2", user("3")),
        _entry("branch_summary", "4", "3", fromId="9", summary=""),
    ]
    messages = build_session_context(entries).messages
    assert _texts(messages) == ["1", "[branchSummary:gone]", "3"]  # an empty summary is skipped
    assert list(messages[1]) == ["role", "summary", "fromId", "timestamp"]


def test_38_complex_tree() -> None:
    sm = SessionManager.in_memory("/p")
    e1 = sm.append_message(user("1"))
    e2 = sm.append_message(asst("2"))
    e3 = sm.append_message(user("3"))
    sm.append_message(asst("4"))
    sm.append_compaction("S", e3, 10)
    sm.append_message(user("6"))
    e7 = sm.append_message(asst("7"))
    sm.branch(e3)
    sm.branch_with_summary(e3, "B")
    e11 = sm.append_message(user("11"))
    sm.branch(e7)
    assert _texts(sm.build_session_context().messages) == ["[compactionSummary:S]", "3", "4", "6", "7"]
    sm.branch(e11)
    assert _texts(sm.build_session_context().messages) == ["1", "2", "3", "[branchSummary:B]", "11"]
    assert e1 and e2


def test_39_unknown_and_orphan_leaves() -> None:
    entries = [_msg("1", None, user("1")), _msg("2", "1", asst("2"))]
    assert len(build_session_context(entries, "nonexistent").messages) == 2
    orphan = [*entries, _msg("3", "missing", user("orphan"))]
    assert _texts(build_session_context(orphan, "3").messages) == ["orphan"]
    assert build_session_context(entries, None).messages == []


def test_39b_parent_cycles_do_not_hang() -> None:
    entries = [_msg("a", "b", user("a")), _msg("b", "a", user("b"))]
    assert _texts(build_session_context(entries, "a").messages) == ["b", "a"]


def test_40_custom_and_label_entries_are_not_context() -> None:
    entries = [
        _msg("1", None, user()),
        _entry("custom", "2", "1", customType="x", data={}),
        _entry("label", "3", "2", targetId="1", label="L"),
        _entry("session_info", "4", "3", name="n"),
        _entry("usage", "5", "4", kind="k"),
        _msg("6", "5", asst()),
    ]
    assert [m["role"] for m in build_session_context(entries).messages] == ["user", "assistant"]


def test_41_hidden_custom_messages_are_still_sent() -> None:
    entries = [_entry("custom_message", "1", None, customType="t", content="X", display=False, details={"d": 1})]
    messages = build_session_context(entries).messages
    assert messages == [
        {
            "role": "custom",
            "customType": "t",
            "content": "X",
            "display": False,
            "details": {"d": 1},
            "timestamp": 1735689600000,
        }
    ]
    assert convert_to_llm(messages) == [
        {"role": "user", "content": [{"type": "text", "text": "X"}], "timestamp": 1735689600000}
    ]


def test_system_checkpoint_replaces_earlier_system_messages() -> None:
    sm = SessionManager.in_memory("/p")
    sm.append_message({"role": "system", "content": "base", "sections": {"a": "A"}, "timestamp": 7})
    u = sm.append_message(user("u"))
    sm.append_message({"role": "system", "content": "", "sections": {"b": "B"}, "timestamp": 8})
    sm.append_message(asst("a"))
    sm.append_compaction("S", u, 3)
    messages = sm.build_session_context().messages
    assert [m["role"] for m in messages] == ["system", "compactionSummary", "user", "assistant"]
    assert messages[0]["sections"] == {"a": "A", "b": "B"}


@pytest.mark.parametrize("role", ["assistant", "toolResult"])
def test_context_edits(role: str) -> None:
    sm = SessionManager.in_memory("/p")
    u = sm.append_message(user("keep"))
    message = (
        asst("old")
        if role == "assistant"
        else {
            "role": "toolResult",
            "toolCallId": "c",
            "toolName": "t",
            "content": [{"type": "text", "text": "old"}],
            "isError": False,
            "timestamp": 1,
        }
    )
    target = sm.append_message(message)
    sm.append_context_edit(target, {"content": "new"})  # a string becomes one text block for these roles
    assert sm.get_entry(sm.get_leaf_id() or "")["replacement"] == {"content": [{"type": "text", "text": "new"}]}  # type: ignore[index]
    assert _texts(sm.build_session_context().messages) == ["keep", "new"]
    sm.append_context_edit(u, None)
    assert _texts(sm.build_session_context().messages) == ["new"]
    sm.branch(target)  # before the edits: the original content is back
    assert _texts(sm.build_session_context().messages) == ["keep", "old"]
    with pytest.raises(ValueError):
        sm.append_context_edit(target, {"nope": 1})
    sm.reset_leaf()
    with pytest.raises(Exception, match="not on the active branch"):
        sm.append_context_edit(target, None)


def test_context_edit_replacements_are_stored_as_pi_stores_them() -> None:
    """Only assistant/toolResult string content becomes blocks (then pi keeps just the blocks);
    other replacements are stored as given; entries that never reach the model refuse edits."""
    sm = SessionManager.in_memory("/p")
    u = sm.append_message(user("keep"))
    a = sm.append_message(asst("old"))
    system = sm.append_message({"role": "system", "content": "s", "timestamp": 1})
    edit = sm.append_context_edit(u, {"content": "plain", "note": 1})
    assert (sm.get_entry(edit) or {})["replacement"] == {"content": "plain", "note": 1}
    edit = sm.append_context_edit(a, {"content": "new", "note": 1})
    assert (sm.get_entry(edit) or {})["replacement"] == {"content": [{"type": "text", "text": "new"}]}
    assert [m.get("content") for m in sm.build_session_context().messages][:2] == [
        "plain", [{"type": "text", "text": "new"}]
    ]
    with pytest.raises(SessionError, match="does not contribute editable model content"):
        sm.append_context_edit(system, None)
    with pytest.raises(ValueError):  # checked before the target is looked up, as in pi
        sm.append_context_edit("missing", {"content": 1})
