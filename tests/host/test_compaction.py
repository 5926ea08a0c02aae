"""Compaction: threshold, estimates in UTF-16 units, cut points (never a tool result, split turns),
session_before_compact cancel/supply, the default summary, and overflow → compact → retry once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from host_helpers import asst, make_runtime, result, texts, user

from pi_memory.host import CompactionError, CompactionSettings, estimate_tokens, find_cut_point, should_compact
from pi_memory.host.compaction import prepare_compaction
from pi_memory.host.navigation import tree_preparation
from pi_memory.host.summary import BRANCH_SUMMARY_PREAMBLE
from pi_memory.providers import Context
from pi_memory.session import SessionManager, build_session_projection


def long_session(tmp_path: Path, turns: int = 6, size: int = 400) -> SessionManager:
    sm = SessionManager.create(str(tmp_path), str(tmp_path / "sessions"))
    for n in range(turns):
        sm.append_message(user(f"question {n} " + "q" * size))
        sm.append_message(asst(calls=[{"id": f"c{n}", "name": "read", "arguments": {"path": f"f{n}.txt"}}]))
        sm.append_message(result(f"c{n}", "r" * size))
        sm.append_message(asst(f"answer {n} " + "a" * size))
    return sm


def write_settings(home: Path, settings: dict[str, Any]) -> None:
    path = home / ".pi" / "agent" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(settings))


def test_threshold() -> None:  # §7 81
    settings = CompactionSettings(reserve_tokens=10_000)
    assert should_compact(95_000, 100_000, settings)
    assert not should_compact(89_000, 100_000, settings)
    assert not should_compact(95_000, 100_000, CompactionSettings(enabled=False, reserve_tokens=10_000))
    assert CompactionSettings.from_settings({"compaction": {"reserveTokens": 5, "keepRecentTokens": 7}}) == \
        CompactionSettings(True, 5, 7)
    assert CompactionSettings.from_settings({"compaction": "nonsense"}) == CompactionSettings()


def test_estimates_count_utf16_units() -> None:
    assert estimate_tokens(user("😀😀")) == 1  # 4 UTF-16 units, not 2 code points
    assert estimate_tokens(user("a" * 9)) == 3
    image = {"role": "user", "content": [{"type": "image", "data": "x", "mimeType": "image/png"}]}
    assert estimate_tokens(image) == 1200
    call = asst(calls=[{"id": "1", "name": "read", "arguments": {"path": "é"}}])
    assert estimate_tokens(call) == 4  # "read" + '{"path":"é"}' = 4 + 12 chars
    assert estimate_tokens({"role": "bashExecution", "command": "ls", "output": "ab"}) == 1
    assert estimate_tokens({"role": "compactionSummary", "summary": "x" * 8}) == 2


def test_cut_point_is_never_a_tool_result(tmp_path: Path) -> None:
    sm = long_session(tmp_path)
    entries = build_session_projection(sm.get_branch()).entries
    for keep in range(1, 2000, 7):
        cut = find_cut_point(entries, 0, len(entries), keep)
        kept = entries[cut.first_kept_index]
        assert kept.messages[0]["role"] != "toolResult", keep
        if cut.is_split_turn:
            assert entries[cut.turn_start_index].messages[0]["role"] == "user"
            assert cut.turn_start_index < cut.first_kept_index


def test_cut_point_rules(tmp_path: Path) -> None:  # §7 82
    sm = SessionManager.in_memory(str(tmp_path))
    sm.append_message(asst("only"))
    entries = build_session_projection(sm.get_branch()).entries
    assert find_cut_point(entries, 0, 1, 1000).first_kept_index == 0
    sm = long_session(tmp_path, turns=2, size=40)
    entries = build_session_projection(sm.get_branch()).entries
    assert find_cut_point(entries, 0, len(entries), 10_000).first_kept_index == 0  # everything fits
    # a budget reached at the last assistant message cuts inside the second turn
    cut = find_cut_point(entries, 0, len(entries), 5)
    assert (cut.first_kept_index, cut.turn_start_index, cut.is_split_turn) == (7, 4, True)


def test_prepare_compaction(tmp_path: Path) -> None:
    sm = long_session(tmp_path)
    prep = prepare_compaction(sm.get_branch(), CompactionSettings(keep_recent_tokens=300))
    assert prep is not None
    kept = sm.get_entry(prep.first_kept_entry_id)
    assert kept is not None and kept["message"]["role"] != "toolResult"
    assert prep.tokens_before > 0 and prep.messages_to_summarize
    assert "f0.txt" in prep.read_files
    sm.append_compaction("S", prep.first_kept_entry_id, prep.tokens_before)
    assert prepare_compaction(sm.get_branch(), CompactionSettings()) is None  # §7 83


@pytest.mark.anyio
async def test_manual_compaction_with_the_provider(tmp_path: Path, _isolated_home: Path) -> None:
    write_settings(_isolated_home, {"compaction": {"keepRecentTokens": 300}})
    seen: list[Any] = []

    def ext(pi: Any) -> None:
        pi.on("session_before_compact", lambda e: seen.append(e.preparation))
        pi.on("session_compact", lambda e: seen.append(e))

    rt, provider, _ = await make_runtime(tmp_path, ["## Goal\nSummary text"], ext, session=long_session(tmp_path))
    entry = await rt.compact("focus on files")
    assert entry is not None and entry["type"] == "compaction"
    assert entry["summary"].startswith("## Goal\nSummary text\n\n<read-files>\nf0.txt")
    assert entry["fromHook"] is False and entry["details"]["readFiles"][0] == "f0.txt"
    request: Context = provider.requests[0]
    prompt = request.messages[0]["content"][0]["text"]
    assert request.system_prompt is not None and "context summarization assistant" in request.system_prompt
    assert prompt.startswith("<conversation>\n[User]: question 0")
    assert "## Constraints & Preferences" in prompt and prompt.endswith("Additional focus: focus on files")
    assert seen[0]["firstKeptEntryId"] == entry["firstKeptEntryId"]
    assert seen[1].compaction_entry == entry and seen[1].from_extension is False
    messages = rt.session_manager.build_session_context().messages
    assert messages[0]["role"] == "compactionSummary"
    with pytest.raises(CompactionError, match="Already compacted"):
        await rt.compact()


@pytest.mark.anyio
async def test_hook_supplies_or_cancels(tmp_path: Path, _isolated_home: Path) -> None:
    write_settings(_isolated_home, {"compaction": {"keepRecentTokens": 300}})

    def supply(pi: Any) -> None:
        pi.on("session_before_compact", lambda e: {"compaction": {
            "summary": "From the hook", "firstKeptEntryId": e.preparation["firstKeptEntryId"], "tokensBefore": 42,
            "details": {"mine": True}}})

    rt, provider, _ = await make_runtime(tmp_path, [], supply, session=long_session(tmp_path))
    entry = await rt.compact()
    assert entry is not None
    assert (entry["summary"], entry["tokensBefore"], entry["details"], entry["fromHook"]) == (
        "From the hook", 42, {"mine": True}, True)
    assert provider.requests == []

    rt2, _, _ = await make_runtime(tmp_path / "b", [], lambda pi: pi.on(
        "session_before_compact", lambda e: {"cancel": True}), session=long_session(tmp_path / "b"))
    with pytest.raises(CompactionError, match="Compaction cancelled"):
        await rt2.compact()
    assert not any(e["type"] == "compaction" for e in rt2.session_manager.get_entries())

    small, _, _ = await make_runtime(tmp_path / "c", [])
    with pytest.raises(CompactionError, match="Nothing to compact"):
        await small.compact()


@pytest.mark.anyio
async def test_throwing_hook_falls_back_to_default_compaction(tmp_path: Path, _isolated_home: Path) -> None:
    write_settings(_isolated_home, {"compaction": {"keepRecentTokens": 300}})

    rt, _, _ = await make_runtime(tmp_path, ["summary"], lambda pi: pi.on("session_before_compact",
                                                                          lambda e: 1 / 0),
                                  session=long_session(tmp_path))
    entry = await rt.compact()
    assert entry is not None and entry["summary"].startswith("summary") and entry["fromHook"] is False


OVERFLOW = "400 invalid_request_error: prompt is too long: 210000 tokens > 200000 maximum"


@pytest.mark.anyio
async def test_overflow_compacts_and_retries_once(tmp_path: Path, _isolated_home: Path) -> None:
    write_settings(_isolated_home, {"compaction": {"keepRecentTokens": 300}})

    rt, provider, events = await make_runtime(tmp_path, [{"error": OVERFLOW}, "the summary", "answer after retry"],
                                              session=long_session(tmp_path))
    result = await rt.prompt("next question")
    assert result is not None and result.stop == "stop"
    assert len(provider.requests) == 3
    assert texts(result.last_assistant or {}) == "answer after retry"
    types = [e["type"] for e in rt.session_manager.get_entries()[-4:]]
    assert types == ["message", "message", "compaction", "message"]  # the error stays in the file
    retry_context = provider.requests[2].messages
    assert retry_context[0]["role"] == "compactionSummary"
    assert all(m.get("stopReason") != "error" for m in retry_context)
    assert [e["reason"] for e in events if e["type"] == "auto_compaction_start"] == ["overflow"]


@pytest.mark.anyio
async def test_overflow_retries_only_once(tmp_path: Path, _isolated_home: Path) -> None:
    write_settings(_isolated_home, {"compaction": {"keepRecentTokens": 300}})

    rt, provider, _ = await make_runtime(tmp_path, [{"error": OVERFLOW}, "the summary", {"error": OVERFLOW},
                                                    "unused"], session=long_session(tmp_path))
    result = await rt.prompt("next question")
    assert result is not None and result.stop == "error"
    assert len(provider.requests) == 3 and provider.remaining == 1


@pytest.mark.anyio
async def test_threshold_compaction_after_the_run(tmp_path: Path, _isolated_home: Path) -> None:
    write_settings(_isolated_home, {"compaction": {"reserveTokens": 200, "keepRecentTokens": 300}})

    rt, provider, _ = await make_runtime(
        tmp_path, [{"text": "big answer", "usage": {"input": 900, "output": 10}}, "the summary"],
        session=long_session(tmp_path), context_window=1000)
    await rt.prompt("question")
    assert len(provider.requests) == 2
    assert rt.session_manager.get_entries()[-1]["type"] == "compaction"
    usage = rt.context_usage()
    assert usage is not None and usage.tokens is None  # unknown until the next reply

    quiet, provider2, _ = await make_runtime(
        tmp_path / "q", [{"text": "small", "usage": {"input": 100, "output": 10}}],
        session=long_session(tmp_path / "q"), context_window=1000)
    await quiet.prompt("question")
    assert len(provider2.requests) == 1


@pytest.mark.anyio
async def test_ctx_compact_is_fire_and_forget(tmp_path: Path, _isolated_home: Path) -> None:
    write_settings(_isolated_home, {"compaction": {"keepRecentTokens": 300}})
    done: list[Any] = []

    def ext(pi: Any) -> None:
        pi.register_command("squash", handler=lambda args, ctx: ctx.compact(on_complete=done.append))

    rt, _, _ = await make_runtime(tmp_path, ["summary"], ext, session=long_session(tmp_path))
    await rt.prompt("/squash")
    await rt.wait_for_idle()
    assert done and done[0]["type"] == "compaction"


@pytest.mark.anyio
async def test_compactor_leaves_a_branch_behind_a_summary(tmp_path: Path, _isolated_home: Path) -> None:
    rt, provider, _ = await make_runtime(tmp_path, ["what was tried"], session=long_session(tmp_path, turns=2))
    sm = rt.session_manager
    branch = sm.get_branch()
    target = branch[3]["id"]  # the first answer
    preparation = tree_preparation(sm, target, True, "focus")
    assert (preparation["oldLeafId"], preparation["commonAncestorId"]) == (branch[-1]["id"], target)
    assert [e["id"] for e in preparation["entriesToSummarize"]] == [e["id"] for e in branch[4:]]

    entry = await rt.compactor.leave_branch(target, preparation, None)
    assert entry is not None and entry["type"] == "branch_summary" and entry["parentId"] == target
    assert entry["summary"] == BRANCH_SUMMARY_PREAMBLE + "what was tried" and sm.get_leaf_id() == entry["id"]
    prompt = provider.requests[0].messages[0]["content"][0]["text"]
    assert prompt.startswith("<conversation>\n[User]: question 1") and prompt.endswith("Additional focus: focus")
    assert "[Tool result]" not in prompt  # the branch summary leaves tool results out, as pi does

    supplied = await rt.compactor.leave_branch(None, preparation, {"summary": "from a hook", "details": {"k": 1}})
    assert supplied is not None and supplied["summary"] == "from a hook" and supplied["details"] == {"k": 1}
    assert supplied.get("parentId") is None and len(provider.requests) == 1

    quiet = tree_preparation(sm, target, False, None)
    assert await rt.compactor.leave_branch(target, quiet, None) is None and sm.get_leaf_id() == target
    assert len(provider.requests) == 1
