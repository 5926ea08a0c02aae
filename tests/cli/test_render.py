"""How the store commands show memory on a terminal (:mod:`pi_memory.cli.render`): the status rows
(read-only), entries numbered with continuation lines indented, and one next step after a
failed command."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from pi_memory.cli.render import collect_status, next_step, print_entries, print_status
from pi_memory.memory import MemoryStore


def plain() -> Console:
    return Console(file=io.StringIO(), width=100, color_system=None, highlight=False)


def test_status_reads_both_files_and_names_the_fix_for_drift(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path, memory_char_limit=100)
    store.add("memory", "Deploys on Fridays")
    (tmp_path / "USER.md").write_text("a\n§\n\n§\nb", encoding="utf-8")
    memory, user = collect_status(MemoryStore(tmp_path, memory_char_limit=100))
    assert (memory.state, memory.entries, memory.used_chars, memory.percent) == ("ok", 1, 18, 18)
    assert memory.to_json()["usage"] == "18% — 18/100 chars" and memory.next == ""
    assert user.state == "drift" and "stray" in user.detail and str(tmp_path / "USER.md") in user.next
    empty = collect_status(MemoryStore(tmp_path / "none"))
    assert [row.state for row in empty] == ["missing", "missing"] and not (tmp_path / "none").exists()
    console = plain()
    print_status(console, [memory, user])
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "MEMORY.md" in out and "drift" in out and out.rstrip().endswith(f"Directory: {tmp_path}")


def test_entries_are_numbered_and_continuation_lines_indented() -> None:
    console = plain()
    entries = [f"fact {n}" for n in range(1, 10)] + ["first line\nsecond line"]
    print_entries(console, {"target": "memory", "entries": entries, "usage": "5% — 90/2,200 chars"})
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert lines[0] == "memory [5% — 90/2,200 chars]:" and lines[1] == " 1. fact 1"
    assert lines[-2:] == ["10. first line", "    second line"]
    empty = plain()
    print_entries(empty, {"target": "user", "entries": [], "usage": ""})
    assert empty.file.getvalue() == "user: (empty)\n"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("result", "says"), [
    ({"retryable": True}, "run the same command again"),
    ({"driftBackup": "/m/MEMORY.md.bak.1"}, "a copy was saved to /m/MEMORY.md.bak.1"),
    ({"matches": ["a", "b"]}, "use a longer substring"),
    ({"currentEntries": []}, "Make room first: `pi-memory read memory`"),
    ({"error": "No entry matched 'x'"}, "Run `pi-memory read memory`"),
    ({"error": "Blocked: prompt_injection"}, "rephrase it as a plain fact"),
    ({"error": "something else"}, ""),
])
def test_a_failed_command_gets_one_next_step(result: dict[str, object], says: str) -> None:
    step = next_step(result, "memory")
    assert (says in step) if says else step == ""
