"""What we write is never drift to pi-memory (DESIGN §3), checked under Node's own strings.

pi-memory refuses every write to a file holding one entry longer than its limit in UTF-16
units (JavaScript's ``length``); we count code points. An emoji-heavy entry that fits only in
code points would lock a Node process sharing the directory out of the file. The rule runs in
``pi_memory_drift.mjs`` (transcribed from pi-memory's store, which npm does not publish), over
files our store wrote after random edits dense in emoji, ``§``, CRLF and spaces.
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

from pi_memory.base.lock import publish as lock_publish
from pi_memory.memory import MemoryStore

ALPHABET = ["a", "b", " ", "é", "😀", "🦀", "\n", "\r\n", "§", "\u00a0"]


def _text(rng: random.Random, longest: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, longest)))


def _files_written_by_our_store(seed: int, runs: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    cases: list[dict[str, object]] = []
    for _ in range(runs):
        limit = rng.choice([4, 9, 20, 60])
        with tempfile.TemporaryDirectory() as tmp:
            store = MemoryStore(tmp, memory_char_limit=limit, user_char_limit=limit)
            for _ in range(rng.randint(1, 12)):
                target = rng.choice(["memory", "user"])
                action = rng.choice(["add", "add", "replace", "remove"])
                if action == "add":
                    store.add(target, _text(rng, limit))
                elif action == "replace":
                    store.replace(target, _text(rng, 2), _text(rng, limit))
                else:
                    store.remove(target, _text(rng, 2))
            for name in ("MEMORY.md", "USER.md"):
                path = Path(tmp) / name
                if path.exists():
                    cases.append({"raw": path.read_bytes().decode("utf-8"), "limit": limit})
    lock_publish.drop_spares()
    return cases


def test_no_file_our_store_writes_is_drift_to_pi_memory(node_peer: Any) -> None:
    cases = _files_written_by_our_store(seed=20261201, runs=300)
    # The case behind the rule: 1,100 emoji (2,200 UTF-16 units) is the most one entry may hold.
    for count in (1100, 1101):
        with tempfile.TemporaryDirectory() as tmp:
            MemoryStore(tmp).add("memory", "😀" * count)
            MemoryStore(tmp).add("user", "🦀" * (count // 2 + 1))  # user limit 1,375
            for name, limit in (("MEMORY.md", 2200), ("USER.md", 1375)):
                if (Path(tmp) / name).exists():
                    cases.append({"raw": (Path(tmp) / name).read_text(encoding="utf-8"), "limit": limit})
    lock_publish.drop_spares()
    assert sum(1 for c in cases if any(ord(ch) > 0xFFFF for ch in str(c["raw"]))) > 50  # emoji really present
    verdicts = node_peer.run_json("pi_memory_drift.mjs", input=json.dumps(cases, ensure_ascii=False))
    drifted = [c for c, d in zip(cases, verdicts, strict=True) if d]
    assert not drifted, f"{len(drifted)} of {len(cases)} files are drift to pi-memory, e.g. {drifted[:3]}"


def test_the_rule_transcription_sees_what_the_old_store_wrote(node_peer: Any) -> None:
    """The check can fail: 1,101 emoji in one entry (what we used to accept) is drift to Node."""
    verdicts = node_peer.run_json(
        "pi_memory_drift.mjs", input=json.dumps([{"raw": "😀" * 1101, "limit": 2200}, {"raw": "a", "limit": 1}])
    )
    assert verdicts == [True, False]
