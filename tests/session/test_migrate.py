"""Opening a v1 or v2 session file migrates it to v3 (:mod:`pi_memory.session.migrate`, reference §7
50–52): ids and parents added, key order kept, ``hookMessage`` renamed, the file rewritten."""

from __future__ import annotations

from pathlib import Path

from pi_memory.session import SessionManager


def test_50_51_52_migrations(tmp_path: Path) -> None:
    v1 = tmp_path / "v1.jsonl"
    v1.write_text(
        '{"type":"session","id":"v1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}\n'
        '{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"a","timestamp":1}}\n'
        '{"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"user","content":"b","timestamp":2}}\n'
    )
    sm = SessionManager.open(str(v1))
    header = sm.get_header()
    assert header is not None and list(header)[-1] == "version" and header["version"] == 3
    entries = sm.get_entries()
    assert all(len(e["id"]) == 8 for e in entries)
    assert [e["parentId"] for e in entries] == [None, entries[0]["id"]]
    assert list(entries[0]) == ["type", "timestamp", "message", "id", "parentId"]
    assert v1.read_text().split("\n")[0].endswith('"version":3}')

    v2 = tmp_path / "v2.jsonl"
    v2.write_text(
        '{"type":"session","version":2,"id":"v2","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}\n'
        '{"type":"message","id":"abc12345","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z",'
        '"message":{"role":"hookMessage","customType":"h","content":"x","display":true,"timestamp":1}}\n'
        '{"type":"message","id":"def67890","parentId":"abc12345","timestamp":"2025-01-01T00:00:02.000Z",'
        '"message":{"role":"user","content":"y","timestamp":2}}\n'
    )
    sm = SessionManager.open(str(v2))
    assert [e["id"] for e in sm.get_entries()] == ["abc12345", "def67890"]
    assert sm.get_entries()[0]["message"]["role"] == "custom"
    assert (sm.get_header() or {})["version"] == 3
    assert '"role":"custom"' in v2.read_text()
