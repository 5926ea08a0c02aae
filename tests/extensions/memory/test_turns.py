"""Past conversations as turns for dreaming (:mod:`pi_memory.extensions.memory.turns`): a user
message and the assistant's answer, newer than the last dream, read from session files that are
never written (not even a ``.damaged`` sidecar beside somebody else's session)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pi_memory.extensions.memory.turns import collect_turns, iso_ms, session_turns

HEADER = {"type": "session", "version": 3, "id": "s1", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}


def message(entry_id: str, parent: str | None, role: str, text: str, ts: int, **extra: Any) -> dict[str, Any]:
    return {"type": "message", "id": entry_id, "parentId": parent, "timestamp": iso_ms(ts),
            "message": {"role": role, "content": [{"type": "text", "text": text}], "timestamp": ts, **extra}}


ENTRIES = [
    message("u1", None, "user", "We deploy on Fridays", 1_000),
    message("a1", "u1", "assistant", "Noted.", 2_000, provider="openai", model="gpt-4.1"),
    message("a2", "a1", "assistant", "Anything else?", 3_000, provider="openai", model="gpt-4.1"),
    message("u2", "a2", "user", "No answer to this one", 4_000),
]


def test_a_turn_is_a_user_message_with_every_answer_until_the_next_one() -> None:
    (turn,) = session_turns(ENTRIES, "s1", None)  # the last user message has no answer yet
    assert (turn.id, turn.user_message, turn.assistant_message) == ("u1", "We deploy on Fridays",
                                                                    "Noted.\nAnything else?")
    assert (turn.provider, turn.model, turn.created_at_ms) == ("openai", "gpt-4.1", 3_000)
    assert turn.created_at == "1970-01-01T00:00:03.000Z" and turn.conversation_id == "s1"
    assert session_turns(ENTRIES, "s1", since_ms=3_000) == []  # finished before the last dream


def test_turns_are_collected_from_session_files_without_writing_to_them(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions" / "--p--"
    sessions.mkdir(parents=True)
    path = sessions / "2025-01-01T00-00-00-000Z_s1.jsonl"
    text = "\n".join(json.dumps(e) for e in [HEADER, *ENTRIES]) + "\n{torn line\n"
    path.write_text(text, encoding="utf-8")
    turns = collect_turns(include_global=False, session_dir=str(sessions), since_ms=None)
    assert [t.user_message for t in turns] == ["We deploy on Fridays"] and turns[0].session_id == "s1"
    assert path.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in sessions.iterdir()) == [path.name]  # no .damaged sidecar
