"""/tree and /fork within one file (:mod:`pi_memory.host.navigation`): where the leaf goes, what
leaving a branch abandons, and the summary left behind (pi 1.6.0's navigateTree)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from host_helpers import make_runtime

from pi_memory.host.navigation import edit_point


def test_the_edit_point_of_a_user_message_is_its_parent_with_its_text() -> None:
    user = {"type": "message", "id": "u1", "parentId": "p0",
            "message": {"role": "user", "content": [{"type": "text", "text": "fix the bug"}]}}
    assert edit_point(user, "u1") == ("p0", "fix the bug")
    root_user = {**user, "parentId": None, "message": {"role": "user", "content": "hello"}}
    assert edit_point(root_user, "u1") == (None, "hello")
    answer = {"type": "message", "id": "a1", "parentId": "u1", "message": {"role": "assistant", "content": []}}
    assert edit_point(answer, "a1") == ("a1", None)
    assert edit_point({"type": "compaction", "id": "c1", "parentId": "a1"}, "c1") == ("c1", None)


@pytest.mark.anyio
async def test_tree_navigation_with_a_branch_summary(tmp_path: Path) -> None:
    rt, provider, _ = await make_runtime(tmp_path, ["a1", "a2", "## Goal\nexplored tea"])
    await rt.prompt("q1")
    await rt.prompt("q2")
    entries = rt.session_manager.get_entries()
    first_answer = next(e["id"] for e in entries if e["type"] == "message"
                        and e["message"]["role"] == "assistant")
    result = await rt.navigate_tree(first_answer, summarize=True)
    assert not result.cancelled and result.editor_text is None
    leaf = rt.session_manager.get_leaf_entry()
    assert leaf is not None and leaf["type"] == "branch_summary" and leaf["parentId"] == first_answer
    assert leaf["summary"].startswith("The user explored a different conversation branch before returning here.")
    assert leaf["summary"].endswith("explored tea")
    assert "[User]: q2" in provider.requests[-1].messages[0]["content"][0]["text"]

    def supply(pi: Any) -> None:
        pi.on("session_before_tree", lambda e: {"summary": {"summary": "From the hook", "details": {"n": 1}}})
    rt2, provider2, _ = await make_runtime(tmp_path / "b", ["x", "y"], supply)
    await rt2.prompt("one")
    await rt2.prompt("two")
    target = rt2.session_manager.get_entries()[2]["id"]
    await rt2.navigate_tree(target)
    leaf = rt2.session_manager.get_leaf_entry()
    assert leaf is not None and (leaf["summary"], leaf["details"], leaf["fromHook"]) == ("From the hook",
                                                                                          {"n": 1}, True)
    assert len(provider2.requests) == 2
