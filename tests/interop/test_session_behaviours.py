"""File-handling edge cases, run in pi 1.6.0 and in pi_memory.session; the observations must match.

Reference §7 was written against an older pi; where 1.6.0 behaves differently (the first write
happens at the first *user or assistant* message; a non-empty file that is not a session is
refused, not overwritten; ``branch_summary.fromId`` is the leaf we came from) this test is what
pins our behaviour to the real 1.6.0.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

from pi_memory.session import SessionError, SessionFileDamagedWarning, SessionManager

pytestmark = pytest.mark.interop

_clock = itertools.count(1733234400000, 1000)


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": next(_clock)}


def _assistant(text: str) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": [{"type": "text", "text": text}],
        "api": "anthropic-messages",
        "provider": "anthropic",
        "model": "claude-sonnet-4-5",
        "usage": {
            "input": 1,
            "output": 1,
            "cacheRead": 0,
            "cacheWrite": 0,
            "totalTokens": 2,
            "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
        },
        "stopReason": "stop",
        "timestamp": next(_clock),
    }


def _lines(path: str) -> list[str] | None:
    if not os.path.exists(path):
        return None
    return Path(path).read_text(encoding="utf-8").split("\n")


def _last_keys(path: str) -> list[str]:
    lines = [line for line in _lines(path) or [] if line]
    return list(json.loads(lines[-1]))


def _sub(root: Path, name: str) -> str:
    directory = root / name
    directory.mkdir(parents=True, exist_ok=True)
    return str(directory)


def python_behaviours(root: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}

    sm = SessionManager.create("/p", _sub(root, "lazy"))
    f = sm.get_session_file()
    assert f is not None
    sm.append_model_change("a", "m")
    sm.append_thinking_level_change("off")
    sm.append_custom_entry("t", {"a": 1})
    before = os.path.exists(f)
    sm.append_message(_user("u"))
    after_user = len(_lines(f) or []) - 1
    sm.append_message(_assistant("a"))
    name_ok = re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.jsonl",
        os.path.basename(f),
    )
    out["lazy"] = {
        "before": before,
        "afterUser": after_user,
        "afterAssistant": len(_lines(f) or []) - 1,
        "nameOk": name_ok is not None,
    }

    f = os.path.join(_sub(root, "empty"), "s.jsonl")
    Path(f).write_text("")
    sm = SessionManager.open(f)
    recovered = len(_lines(f) or []) - 1
    same_id = json.loads((_lines(f) or [""])[0])["id"] == sm.get_session_id()
    again = SessionManager.open(f).get_session_id() == sm.get_session_id()
    sm.append_message(_user("u"))
    sm.append_message(_assistant("a"))
    all_lines = [line for line in _lines(f) or [] if line]
    out["empty"] = {
        "recovered": recovered,
        "sameId": same_id,
        "again": again,
        "samePath": sm.get_session_file() == f,
        "lines": len(all_lines),
        "headers": sum(json.loads(line)["type"] == "session" for line in all_lines),
        "reopenedEntries": len(SessionManager.open(f).get_entries()),
    }

    f = os.path.join(_sub(root, "invalid"), "s.jsonl")
    body = (
        '{"type":"message","id":"x","parentId":null,"timestamp":"2025-01-01T00:00:00.000Z",'
        '"message":{"role":"user","content":"hi","timestamp":1}}\n'
    )
    Path(f).write_text(body)
    try:
        SessionManager.open(f)
        threw = False
    except SessionError:
        threw = True
    out["onlyMessage"] = {"threw": threw, "unchanged": Path(f).read_text() == body}
    g = os.path.join(_sub(root, "invalid"), "t.jsonl")
    Path(g).write_text("not json at all\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SessionFileDamagedWarning)
        try:
            SessionManager.open(g)
            out["notJson"] = {"threw": False}
        except SessionError:
            out["notJson"] = {"threw": True}

    f = os.path.join(_sub(root, "missing"), "deep", "named.jsonl")
    sm = SessionManager.open(f)
    sm.append_thinking_level_change("off")
    before = os.path.exists(f)
    sm.append_message(_user("u"))
    out["missing"] = {"before": before, "after": os.path.exists(f), "path": sm.get_session_file() == f}

    sm = SessionManager.in_memory("/p")
    a = sm.append_message(_user("1"))
    b = sm.append_message(_assistant("2"))
    e1 = sm.get_entry(sm.branch_with_summary(a, "S"))
    sm.reset_leaf()
    s2 = sm.branch_with_summary(None, "R")
    e2 = sm.get_entry(s2)
    assert e1 is not None and e2 is not None
    out["branchSummary"] = {
        "fromIsOldLeaf": e1["fromId"] == b,
        "parent": e1["parentId"] == a,
        "rootFrom": e2["fromId"],
        "rootParent": e2["parentId"],
        "leaf": sm.get_leaf_id() == s2,
    }
    try:
        sm.branch_with_summary("nonexistent", "S")
        out["branchSummaryMissing"] = {"ok": None}
    except LookupError as exc:
        out["branchSummaryMissing"] = {"error": str(exc)}

    sm = SessionManager.create("/p", _sub(root, "keys"))
    f = sm.get_session_file()
    assert f is not None
    u = sm.append_message(_user("u"))
    sm.append_compaction("S", u, 10)
    compaction = _last_keys(f)
    sm.append_compaction("S", None, 10, {"readFiles": []}, False)
    compaction2 = _last_keys(f)
    c2 = json.loads([line for line in _lines(f) or [] if line][-1])
    sm.append_label_change(u, None)
    label = _last_keys(f)
    sm.append_label_change(u, "")
    empty_label = _last_keys(f)
    sm.append_session_info("  My\r\n name  ")
    info = json.loads([line for line in _lines(f) or [] if line][-1])["name"]
    sm.append_custom_entry("t")
    custom = _last_keys(f)
    sm.append_custom_message_entry("t", "x", False)
    custom_message = _last_keys(f)
    sm.append_usage("k", "p", "m", {"input": 1}, "")
    usage_keys = _last_keys(f)
    out["keys"] = {
        "compaction": compaction,
        "compaction2": compaction2,
        "selfKept": c2["firstKeptEntryId"] == c2["id"],
        "label": label,
        "emptyLabel": empty_label,
        "info": info,
        "name": sm.get_session_name(),
        "custom": custom,
        "customMessage": custom_message,
        "usageKeys": usage_keys,
    }

    f = os.path.join(_sub(root, "torn"), "s.jsonl")
    sm = SessionManager.open(f)
    sm.append_message(_user("u"))
    sm.append_message(_assistant("a"))
    with open(f, "a", encoding="utf-8") as handle:
        handle.write('{"type":"message","id":"torn00')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sm2 = SessionManager.open(f)
    assert any(issubclass(w.category, SessionFileDamagedWarning) for w in caught)
    entries = len(sm2.get_entries())
    sm2.append_custom_entry("after", {"ok": True})
    all_lines = _lines(f) or []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SessionFileDamagedWarning)
        reopened = [e["type"] for e in SessionManager.open(f).get_entries()]
    out["torn"] = {
        "entries": entries,
        "tornLineKept": '{"type":"message","id":"torn00' in all_lines,
        "reopened": reopened,
        "endsWithNewline": Path(f).read_text().endswith("\n"),
    }

    f = os.path.join(_sub(root, "duplicate-header"), "s.jsonl")
    h = '{"type":"session","version":3,"id":"dup","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}'
    m1 = (
        '{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z",'
        '"message":{"role":"user","content":"hi","timestamp":1}}'
    )
    m2 = (
        '{"type":"message","id":"bbbbbbbb","parentId":"aaaaaaaa","timestamp":"2025-01-01T00:00:02.000Z",'
        '"message":{"role":"user","content":"yo","timestamp":2}}'
    )
    Path(f).write_text("\n".join([h, m1, h, m2, ""]))
    sm = SessionManager.open(f)
    out["duplicateHeader"] = {"entries": len(sm.get_entries()), "leaf": sm.get_leaf_id(), "id": sm.get_session_id()}

    sm = SessionManager.create("/p", _sub(root, "branched"))
    sm.append_message(_user("first"))
    a = sm.append_message(_assistant("a"))
    old_file = sm.get_session_file()
    with_assistant = sm.create_branched_session(a)
    assert with_assistant is not None
    header = json.loads((_lines(with_assistant) or [""])[0])
    sm2 = SessionManager.in_memory("/p")
    sm2.append_thinking_level_change("off")
    t = sm2.append_custom_entry("x")
    sm3 = SessionManager.create("/p", _sub(root, "branched2"))
    sm3.append_thinking_level_change("off")
    sm3.append_custom_entry("y")
    leaf = sm3.get_leaf_id()
    assert leaf is not None
    no_conversation = sm3.create_branched_session(leaf)
    assert no_conversation is not None
    exists_before = os.path.exists(no_conversation)
    sm3.append_message(_user("now"))
    all_lines = [line for line in _lines(no_conversation) or [] if line]
    out["branched"] = {
        "exists": os.path.exists(with_assistant),
        "headers": sum(1 for line in _lines(with_assistant) or [] if line and json.loads(line)["type"] == "session"),
        "parentIsOld": header.get("parentSession") == old_file,
        "switched": sm.get_session_file() == with_assistant,
        "inMemory": sm2.create_branched_session(t) is None,
        "existsBefore": exists_before,
        "after": len(all_lines),
        "uniqueIds": len({json.loads(line)["id"] for line in all_lines}) == len(all_lines),
    }
    return out


def test_edge_cases_match_pi(node_peer: Any, tmp_path: Path) -> None:
    pi = node_peer.run_json("pi_session.mjs", "behaviours", str(tmp_path / "pi"))
    ours = python_behaviours(tmp_path / "py")
    assert set(ours) == set(pi)
    for case in pi:
        assert ours[case] == pi[case], f"{case}: pi {pi[case]!r} vs ours {ours[case]!r}"
