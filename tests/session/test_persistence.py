"""Reference §7, "File writing and format" (1–10), as pi 1.6.0 behaves."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from session_builders import asst, user

from pi_memory.session import SessionManager


def _records(path: str) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").split("\n") if line]


def test_1_create_names_the_file_but_does_not_write_it(session_dir: str) -> None:
    sm = SessionManager.create("/home/u/proj", session_dir)
    path = sm.get_session_file()
    assert path is not None and os.path.dirname(path) == session_dir
    stamp, _, rest = os.path.basename(path).partition("_")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z", stamp)
    assert rest == sm.get_session_id() + ".jsonl"
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", sm.get_session_id())
    assert not os.path.exists(path)


def test_2_3_setup_entries_stay_in_memory_until_the_conversation_starts(session_dir: str) -> None:
    sm = SessionManager.create("/p", session_dir)
    path = sm.get_session_file()
    assert path is not None
    sm.append_model_change("anthropic", "claude")
    sm.append_thinking_level_change("off")
    sm.append_custom_entry("ext", {"a": 1})
    assert not os.path.exists(path)
    # pi 1.6.0 writes at the first user *or* assistant message (older pi waited for the assistant)
    sm.append_message(user("q"))
    assert [r["type"] for r in _records(path)] == [
        "session",
        "model_change",
        "thinking_level_change",
        "custom",
        "message",
    ]
    sm.append_message(asst("a"))
    text = Path(path).read_text(encoding="utf-8")
    assert text.endswith("\n") and text.count("\n") == 6


def test_4_header_bytes(session_dir: str) -> None:
    sm = SessionManager.create("/home/u/proj", session_dir)
    sm.append_message(user())
    first = Path(sm.get_session_file() or "").read_text(encoding="utf-8").split("\n")[0]
    header = sm.get_header()
    assert header is not None
    assert first == (
        f'{{"type":"session","version":3,"id":"{sm.get_session_id()}","timestamp":"{header["timestamp"]}",'
        '"cwd":"/home/u/proj"}'
    )
    child = SessionManager.create("/home/u/proj", session_dir, parent_session="/x/parent.jsonl")
    assert list(child.get_header() or {}) == ["type", "version", "id", "timestamp", "cwd", "parentSession"]


def test_5_6_custom_entry_key_order(session_dir: str) -> None:
    sm = SessionManager.create("/p", session_dir)
    sm.append_message(user())
    sm.append_custom_entry("t", {"a": 1})
    sm.append_custom_entry("t")
    sm.append_custom_message_entry("t", "c", True, {"d": 1})
    sm.append_custom_message_entry("t", [{"type": "text", "text": "x"}], False)
    sm.append_message(
        {"role": "toolResult", "toolCallId": "c", "toolName": "t", "content": [], "isError": False, "timestamp": 1}
    )
    recs = _records(sm.get_session_file() or "")
    assert list(recs[2]) == ["type", "customType", "data", "id", "parentId", "timestamp"]
    assert list(recs[3]) == ["type", "customType", "id", "parentId", "timestamp"]
    assert list(recs[4]) == ["type", "customType", "content", "display", "details", "id", "parentId", "timestamp"]
    assert list(recs[5]) == ["type", "customType", "content", "display", "id", "parentId", "timestamp"]
    assert "details" not in recs[6]["message"]


def test_7_label_without_value_has_no_label_key() -> None:
    sm = SessionManager.in_memory("/p")
    target = sm.append_message(user())
    sm.append_label_change(target, "x")
    assert sm.get_label(target) == "x"
    entry = sm.get_entry(sm.append_label_change(target, None))
    assert entry is not None and "label" not in entry
    assert sm.get_label(target) is None


def test_8_session_name_trimmed() -> None:
    sm = SessionManager.in_memory("/p")
    entry = sm.get_entry(sm.append_session_info("  My name  "))
    assert entry is not None and entry["name"] == "My name"
    assert sm.get_session_name() == "My name"
    sm.append_session_info("a\r\n\nb")
    assert sm.get_session_name() == "a b"
    sm.append_session_info("   ")
    assert sm.get_session_name() is None


def test_9_compaction_optional_keys() -> None:
    sm = SessionManager.in_memory("/p")
    first = sm.append_message(user())
    entry = sm.get_entry(sm.append_compaction("s", first, 10))
    assert entry is not None
    assert list(entry) == ["type", "id", "parentId", "timestamp", "summary", "firstKeptEntryId", "tokensBefore"]
    entry = sm.get_entry(sm.append_compaction("s", first, 10, {"readFiles": [], "modifiedFiles": []}, False))
    assert entry is not None and entry["fromHook"] is False and list(entry)[-2:] == ["details", "fromHook"]


def test_9b_compaction_checkpoints_the_system_prompt() -> None:
    sm = SessionManager.in_memory("/p")
    sm.append_message({"role": "system", "content": "A", "sections": {"x": "1"}, "timestamp": 5})
    sm.append_message(
        {
            "role": "system",
            "content": "",
            "sections": {"x": None, "y": "2"},
            "toolsAdded": [{"name": "t", "description": "d", "parameters": {}}],
            "timestamp": 6,
        }
    )
    kept = sm.append_message(user())
    entry = sm.get_entry(sm.append_compaction("s", kept, 1))
    assert entry is not None
    system = entry["systemMessage"]
    assert system["content"] == "A" and system["sections"] == {"y": "2"}
    assert [t["name"] for t in system["toolsAdded"]] == ["t"]
    assert list(system) == ["role", "content", "sections", "toolsAdded", "timestamp"]
    assert isinstance(system["timestamp"], int) and system["timestamp"] > 1_700_000_000_000


def test_10_unknown_entry_types_and_fields_survive(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    lines = [
        '{"type":"session","version":3,"id":"x1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p","future":{"k":[1.5e-9]}}',
        '{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":'
        '{"role":"user","content":[{"type":"text","text":"x","zz":0.1}],"timestamp":1,"extra":true},"later":null}',
        '{"type":"v4_thing","id":"bbbbbbbb","parentId":"aaaaaaaa","timestamp":"2025-01-01T00:00:02.000Z","seq":7}',
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    sm = SessionManager.open(str(path))
    assert sm.get_leaf_id() == "bbbbbbbb"
    sm.append_message(user("more"))
    written = path.read_text(encoding="utf-8").split("\n")
    assert written[:3] == lines
    assert [m["role"] for m in sm.build_session_context().messages] == ["user", "user"]
