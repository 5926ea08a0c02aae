"""pi_memory.session against the real pi SessionManager (1.6.0) under Node, both directions.

pi writes → we read: every leaf's context equals pi's ``buildSessionContext()`` as JSON text
(key order included) and our re-serialization equals pi's bytes. We write → pi reads: pi opens
our files, serializes them to our exact bytes, builds the same context for every leaf, lists
them with the right names and counts, and appends to them; we then read pi's appends.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from pi_memory.session import SessionManager, jsjson

pytestmark = pytest.mark.interop

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def _tree(nodes: list[Any]) -> list[dict[str, Any]]:
    out = []
    for node in nodes:
        item: dict[str, Any] = {"id": node.entry["id"]}
        if node.label is not None:
            item["label"] = node.label
        if node.label_timestamp is not None:
            item["labelTimestamp"] = node.label_timestamp
        item["children"] = _tree(node.children)
        out.append(item)
    return out


def our_dump(path: str) -> dict[str, Any]:
    """What we see in a file, in the shape pi_session.mjs's ``dump`` prints."""
    sm = SessionManager.open(path)
    header = sm.get_header()
    assert header is not None
    entries = sm.get_entries()
    contexts, context_entries, branches, labels = {}, {}, {}, {}
    for entry in entries:
        sm.branch(entry["id"])
        contexts[entry["id"]] = jsjson.dumps(sm.build_session_context().to_dict())
        context_entries[entry["id"]] = [e["id"] for e in sm.build_context_entries()]
        branches[entry["id"]] = [e["id"] for e in sm.get_branch()]
        label = sm.get_label(entry["id"])
        if label is not None:
            labels[entry["id"]] = label
    sm.reset_leaf()
    null_context = jsjson.dumps(sm.build_session_context().to_dict())
    reopened = SessionManager.open(path)
    return {
        "file": path,
        "serialized": "".join(jsjson.dumps(r) + "\n" for r in [header, *entries]),
        "sessionId": sm.get_session_id(),
        "cwd": sm.get_cwd(),
        "header": jsjson.dumps(header),
        "leafId": reopened.get_leaf_id(),
        "leafContext": jsjson.dumps(reopened.build_session_context().to_dict()),
        "sessionName": sm.get_session_name(),
        "ids": [e["id"] for e in entries],
        "contexts": contexts,
        "contextEntries": context_entries,
        "branches": branches,
        "nullContext": null_context,
        "labels": labels,
        "tree": jsjson.dumps(_tree(reopened.get_tree())),
    }


def assert_same_view(pi: dict[str, Any], ours: dict[str, Any]) -> None:
    """Field by field, so a failure names what differs (and for which leaf)."""
    for key in ("sessionId", "cwd", "header", "leafId", "sessionName", "ids", "labels", "nullContext"):
        assert ours[key] == pi[key], f"{key} differs for {pi['file']}"
    for leaf, pi_context in pi["contexts"].items():
        assert ours["contexts"][leaf] == pi_context, f"context for leaf {leaf} differs in {pi['file']}"
        assert ours["contextEntries"][leaf] == pi["contextEntries"][leaf], f"context entries for {leaf}"
        assert ours["branches"][leaf] == pi["branches"][leaf], f"branch for {leaf}"
    assert ours["leafContext"] == pi["leafContext"]
    assert ours["tree"] == pi["tree"]
    assert ours["serialized"] == pi["serialized"], f"serialization differs for {pi['file']}"


def test_missing_peers_fail_loudly(node_peer_locator: Any, tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception, match=r"scripts/test\.sh"):
        node_peer_locator(tmp_path / "node_modules")


# --- pi writes, we read ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pi_sessions(node_peer: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("pi-written")
    made = node_peer.run_json("pi_session.mjs", "scenario", str(root / "sessions"), str(root / "proj"))
    dumps = node_peer.run_json("pi_session.mjs", "dump", *made["files"])
    return {"files": made["files"], "ids": made["ids"], "dumps": dumps}


def test_pi_scenario_has_every_entry_type(pi_sessions: dict[str, Any]) -> None:
    main = Path(pi_sessions["files"][0]).read_text(encoding="utf-8").split("\n")[:-1]  # not splitlines: U+2028
    kinds = {json.loads(line)["type"] for line in main}
    assert kinds == {
        "session",
        "message",
        "model_change",
        "thinking_level_change",
        "custom",
        "custom_message",
        "label",
        "session_info",
        "usage",
        "compaction",
        "context_edit",
        "branch_summary",
    }
    roles = {json.loads(line)["message"]["role"] for line in main if '"type":"message"' in line}
    assert roles == {"system", "user", "assistant", "toolResult", "bashExecution"}
    assert sum('"type":"compaction"' in line for line in main) == 2
    sm = SessionManager.open(pi_sessions["files"][0])
    assert len([n for n in sm.get_tree()]) >= 3  # several roots, several branches
    assert sm.damaged_lines == []


@pytest.mark.parametrize("which", [0, 1, 2], ids=["main", "branched", "forked"])
def test_we_read_pi_files_like_pi(pi_sessions: dict[str, Any], which: int) -> None:
    pi = pi_sessions["dumps"][which]
    path = pi_sessions["files"][which]
    ours = our_dump(path)
    assert_same_view(pi, ours)
    # and our re-serialization is byte for byte the file pi wrote
    assert ours["serialized"].encode("utf-8") == Path(path).read_bytes()


def test_pi_compacted_context_has_checkpoint_and_edits(pi_sessions: dict[str, Any]) -> None:
    """Sanity on what we agreed on: the second compaction's checkpoint and the context edits."""
    sm = SessionManager.open(pi_sessions["files"][0])
    ids = pi_sessions["ids"]
    sm.branch(ids["u4"])
    messages = sm.build_session_context().messages
    assert messages[0]["role"] == "system"
    assert messages[0]["toolsAdded"][-1]["name"] == "write"
    assert [t["name"] for t in messages[0]["toolsAdded"]] == ["read", "write"]
    assert messages[1]["role"] == "compactionSummary" and messages[1]["summary"] == "Summary two"
    edited = [
        m
        for m in messages
        if m["role"] == "assistant" and m["content"][:1] == [{"type": "text", "text": "edited answer"}]
    ]
    assert len(edited) == 1
    assert not any(m["role"] == "user" and m["content"][0]["text"] == "third" for m in messages)


# --- we write, pi reads ------------------------------------------------------------------------

_clock = [1733234400000]


def _ts() -> int:
    _clock[0] += 1000
    return _clock[0]


def _usage(scale: int) -> dict[str, Any]:
    return {
        "input": 10 * scale,
        "output": 5 * scale,
        "cacheRead": 0,
        "cacheWrite": 3,
        "totalTokens": 15 * scale + 3,
        "cost": {"input": 0.00003 * scale, "output": 0.000075, "cacheRead": 0, "cacheWrite": 1e-7, "total": 0.1 + 0.2},
    }


def _user(text: str, *extra: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}, *extra], "timestamp": _ts()}


def _assistant(text: str, **more: Any) -> dict[str, Any]:
    message: dict[str, Any] = {
        "role": "assistant",
        "content": [{"type": "thinking", "thinking": "hmm", "thinkingSignature": "s"}, {"type": "text", "text": text}],
        "api": "openai-completions",
        "provider": "openai",
        "model": "gpt-4.1-mini",
        "usage": _usage(1),
        "stopReason": "stop",
        "timestamp": _ts(),
    }
    message.update(more)
    return message


def python_scenario(cwd: str, session_dir: str | None = None, name: str = "Py session") -> SessionManager:
    """Every entry type, branches, labels, two compactions, custom messages with images."""
    sm = SessionManager.create(cwd, session_dir)
    sm.append_model_change("anthropic", "claude-sonnet-4-5")
    sm.append_thinking_level_change("low")
    sm.append_message(
        {
            "role": "system",
            "content": "Be helpful.",
            "sections": {"b": "B", "3": "three", "a": "A"},
            "toolsAdded": [{"name": "read", "description": "Read", "parameters": {"type": "object"}}],
            "timestamp": _ts(),
        }
    )
    u1 = sm.append_message(
        _user('ünïcode 😀 \u2028 \x7f \ud800 "q"', {"type": "image", "data": PNG, "mimeType": "image/png"})
    )
    a1 = sm.append_message(
        _assistant(
            "calling",
            content=[
                {
                    "type": "toolCall",
                    "id": "c1",
                    "name": "read",
                    "arguments": {"path": "x", "10": 1, "9": [0.5, -0.0, 1e22]},
                }
            ],
            stopReason="toolUse",
        )
    )
    sm.append_message(
        {
            "role": "toolResult",
            "toolCallId": "c1",
            "toolName": "read",
            "content": [{"type": "image", "data": PNG, "mimeType": "image/png"}],
            "details": {"ratio": 0.000009, "n": 12345678901},
            "isError": False,
            "timestamp": _ts(),
        }
    )
    sm.append_custom_entry("py-ext", {"state": [1, 2.25e-9]})
    sm.append_custom_entry("py-ext")
    sm.append_custom_entry("py-ext", None)
    sm.append_custom_message_entry(
        "py-ext",
        [{"type": "text", "text": "look"}, {"type": "image", "data": PNG, "mimeType": "image/jpeg"}],
        True,
        {"x": 1},
    )
    sm.append_custom_message_entry("py-ext", "quiet", False)
    sm.append_message(
        {
            "role": "bashExecution",
            "command": "make",
            "output": "ok\n",
            "exitCode": 0,
            "cancelled": False,
            "truncated": True,
            "fullOutputPath": "/tmp/o.txt",
            "timestamp": _ts(),
            "excludeFromContext": True,
        }
    )
    sm.append_label_change(u1, "start")
    sm.append_session_info(f"  {name}\r\n ")
    u2 = sm.append_message(_user("more"))
    a2 = sm.append_message(_assistant("sure"))
    sm.append_usage("cache_warm", "openai", "gpt-4.1-mini", _usage(4))
    sm.append_compaction("First summary", u2, 4321, {"readFiles": [], "modifiedFiles": ["m.py"]}, False)
    u3 = sm.append_message(_user("again"))
    a3 = sm.append_message(_assistant("again answer"))
    sm.append_message(
        {
            "role": "system",
            "content": "",
            "sections": {"a": None, "c": "C"},
            "toolsRemoved": [{"name": "read"}],
            "timestamp": _ts(),
        }
    )
    sm.append_context_edit(a3, {"content": "replaced"})
    sm.append_context_edit(u3, {"content": [{"type": "text", "text": "user replaced"}]})
    sm.append_compaction("Second summary", None, 77, None, True, _usage(2))
    sm.append_message(_user("after second"))
    sm.append_message(_assistant("", content=[], stopReason="error", errorMessage="boom"))
    sm.append_label_change(a2, "mid")
    sm.append_label_change(u1)  # clear
    sm.branch(a1)
    sm.append_model_change("openai", "gpt-5")
    sm.append_message(_user("branch b"))
    sm.branch_with_summary(u2, "left the first branch", {"readFiles": ["r"], "modifiedFiles": []}, False)
    sm.append_message(_user("after branch summary"))
    sm.append_message(_assistant("fine"))
    sm.branch_with_summary(None, "from the root")
    sm.reset_leaf()
    sm.append_message(_user("root two"))
    return sm


@pytest.fixture(scope="module")
def py_sessions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("py-written")
    sessions = str(root / "sessions")
    sm = python_scenario(str(root / "proj"), sessions)
    main = sm.get_session_file()
    assert main is not None
    u_ids = [e["id"] for e in sm.get_entries() if e.get("message", {}).get("role") == "user"]
    branched = SessionManager.open(main).create_branched_session(u_ids[2])
    forked = SessionManager.fork_from(main, str(root / "proj-fork"), sessions).get_session_file()
    return {"root": root, "files": [main, branched, forked]}


def test_pi_reads_our_files_like_we_do(node_peer: Any, py_sessions: dict[str, Any]) -> None:
    dumps = node_peer.run_json("pi_session.mjs", "dump", *py_sessions["files"])
    for path, pi in zip(py_sessions["files"], dumps, strict=True):
        ours = our_dump(path)
        assert_same_view(pi, ours)
        # pi would write exactly the bytes we wrote
        assert pi["serialized"].encode("utf-8") == Path(path).read_bytes()


def test_pi_appends_to_our_file_and_we_read_it(node_peer: Any, tmp_path: Path) -> None:
    sm = python_scenario(str(tmp_path / "proj"), str(tmp_path / "s"))
    path = sm.get_session_file()
    assert path is not None
    before = Path(path).read_bytes()
    appended = node_peer.run_json("pi_session.mjs", "append", path)
    assert appended["before"] == sm.get_leaf_id()
    after = Path(path).read_bytes()
    assert after.startswith(before)  # pi appended; nothing of ours was rewritten
    reopened = SessionManager.open(path)
    assert [e["id"] for e in reopened.get_entries()][-4:] == appended["ids"]
    assert reopened.get_leaf_id() == appended["leafId"]
    assert reopened.get_label(appended["ids"][0]) == "pi-label"
    custom = reopened.get_entry(appended["ids"][2])
    assert custom is not None and custom["data"] == {"n": 0.000001}
    # both agree on the result, byte for byte and per leaf
    assert_same_view(node_peer.run_json("pi_session.mjs", "dump", path)[0], our_dump(path))
    # and we can keep appending after pi
    reopened.append_message(_user("python again"))
    assert_same_view(node_peer.run_json("pi_session.mjs", "dump", path)[0], our_dump(path))


def test_pi_lists_our_sessions(node_peer: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    agent_dir = tmp_path / "agent"
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent_dir))
    cwd = str(tmp_path / "my proj")
    first = python_scenario(cwd, name="First one")
    second = SessionManager.create(cwd)
    second.append_message(_user("only a question"))
    second.append_session_info("Second")
    second.append_session_info("")  # cleared
    unnamed_other = SessionManager.create(str(tmp_path / "other"))
    unnamed_other.append_message(_user("elsewhere"))
    unnamed_other.append_message(_assistant("yes"))
    assert SessionManager.create(cwd).get_session_file() is not None  # never written: no file
    pi = node_peer.run_json("pi_session.mjs", "list", str(agent_dir), cwd, env={"PI_CODING_AGENT_DIR": str(agent_dir)})

    expected_dir = str(agent_dir / "sessions" / f"--{cwd.lstrip('/').replace('/', '-')}--")
    assert pi["defaultDir"] == expected_dir
    assert os.path.dirname(first.get_session_file() or "") == expected_dir

    def as_pi(infos: list[Any]) -> list[dict[str, Any]]:
        return [
            {
                "path": s.path,
                "id": s.id,
                "cwd": s.cwd,
                "name": s.name,
                "parentSessionPath": s.parent_session_path,
                "created": round(s.created.timestamp() * 1000),
                "modified": round(s.modified_ms),
                "messageCount": s.message_count,
                "firstMessage": s.first_message,
                "allMessagesText": s.all_messages_text,
            }
            for s in infos
        ]

    assert as_pi(SessionManager.list(cwd)) == pi["list"]
    assert as_pi(SessionManager.list_all()) == pi["listAll"]
    by_name = {s["name"]: s for s in pi["listAll"]}
    assert set(by_name) == {"First one", None}
    assert by_name["First one"]["messageCount"] == sum(1 for e in first.get_entries() if e["type"] == "message")
    assert len(pi["listAll"]) == 3
    assert pi["continueRecent"] == SessionManager.continue_recent(cwd).get_session_file()
    assert pi["findById"] == SessionManager.find_by_id(cwd, pi["list"][-1]["id"])


def test_pi_lists_odd_text_blocks_like_we_do(node_peer: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Text blocks whose ``text`` is not a string are joined as JavaScript's ``Array.join`` does."""
    agent_dir = tmp_path / "agent"
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent_dir))
    cwd = str(tmp_path / "proj")
    odd = [{"type": "text", "text": "odd"}, {"type": "text", "text": True}, {"type": "text", "text": 2.0},
           {"type": "text", "text": None}, {"type": "text"}, {"type": "image", "data": PNG, "mimeType": "image/png"}]
    sm = SessionManager.create(cwd)
    sm.append_message({"role": "user", "content": odd, "timestamp": _ts()})
    sm.append_message(_assistant("fine"))
    pi = node_peer.run_json("pi_session.mjs", "list", str(agent_dir), cwd, env={"PI_CODING_AGENT_DIR": str(agent_dir)})
    [info] = SessionManager.list(cwd)
    assert [(s["firstMessage"], s["allMessagesText"]) for s in pi["list"]] == [
        (info.first_message, info.all_messages_text)
    ]
    assert info.first_message == "odd true 2  "


def _random_session(rng: random.Random, sm: SessionManager) -> None:
    ids: list[str] = []
    for _ in range(rng.randint(5, 40)):
        op = rng.random()
        if ids and op < 0.12:
            sm.branch(rng.choice(ids))
            continue
        if ids and op < 0.18:
            target: str | None = rng.choice([*ids, None])
            ids.append(sm.branch_with_summary(target, rng.choice(["", "sum"])))
            continue
        if ids and op < 0.26:
            ids.append(sm.append_compaction("c", rng.choice(ids), rng.randint(0, 9999), None, rng.choice([None, True])))
            continue
        if ids and op < 0.32:
            ids.append(sm.append_label_change(rng.choice(ids), rng.choice([None, "", "L"])))
            continue
        if op < 0.36:
            sm.reset_leaf()
            continue
        if op < 0.45:
            ids.append(
                sm.append_custom_message_entry(
                    "t", rng.choice(["x", [{"type": "text", "text": "y"}]]), rng.random() < 0.5
                )
            )
            continue
        if op < 0.5:
            ids.append(sm.append_thinking_level_change(rng.choice(["off", "high"])))
            continue
        if op < 0.55:
            ids.append(
                sm.append_message(
                    {"role": "system", "content": "s", "sections": {"k": rng.choice(["v", None])}, "timestamp": _ts()}
                )
            )
            continue
        ids.append(sm.append_message(_user(f"u{rng.random()}") if op < 0.8 else _assistant(f"a{rng.random():.3g}")))


def test_random_python_trees_agree_with_pi(node_peer: Any, tmp_path: Path) -> None:
    rng = random.Random(20240603)
    files = []
    for i in range(12):
        sm = SessionManager.create(str(tmp_path / "p"), str(tmp_path / "s"))
        sm.append_message(_user(f"start {i}"))
        _random_session(rng, sm)
        path = sm.get_session_file()
        assert path is not None and os.path.exists(path)
        files.append(path)
    for path, pi in zip(files, node_peer.run_json("pi_session.mjs", "dump", *files), strict=True):
        assert_same_view(pi, our_dump(path))
