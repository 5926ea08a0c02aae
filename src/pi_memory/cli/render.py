"""Turning store results into terminal output: the status table, numbered entries, one-liners.

Everything the user wrote is printed as plain text (never as rich markup), so an entry such as
``[BLOCKED: …]`` or ``[bold]`` shows exactly as stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from pi_memory.memory import TARGETS, MemoryStore
from pi_memory.memory.entries import joined_length, parse_entries
from pi_memory.memory.snapshot import format_usage


@dataclass(frozen=True)
class TargetStatus:
    """One row of ``pi-memory status``; ``state`` is ok, missing, drift or unreadable.

    ``next`` is what to do about a drift or unreadable file ("" when nothing needs doing).
    """

    target: str
    file: str
    exists: bool
    entries: int
    used_chars: int
    limit: int
    percent: int
    usage: str
    state: str
    detail: str
    next: str = ""

    def to_json(self) -> dict[str, Any]:
        """camelCase keys, like the store's results."""
        return {
            "target": self.target,
            "file": self.file,
            "exists": self.exists,
            "entryCount": self.entries,
            "usedChars": self.used_chars,
            "limit": self.limit,
            "percent": self.percent,
            "usage": self.usage,
            "state": self.state,
            "detail": self.detail,
            "next": self.next,
        }


def collect_status(store: MemoryStore) -> list[TargetStatus]:
    """Read both targets without locking or creating anything (status is read-only)."""
    rows = []
    for target in TARGETS:
        limit = store.char_limit(target)
        raw = store.backend.read(target)
        entries = parse_entries(raw.text) if raw.readable else []
        used = joined_length(entries)
        fix = ""
        if raw.error is not None:
            state, detail, fix = "unreadable", raw.error, "fix that, then run `pi-memory status` again."
        elif not raw.exists:
            state, detail = "missing", "no file yet; the first add creates it"
        elif (drift := store.drift(target, raw)) is not None:
            state, detail = "drift", f"{drift.reason}; writes are refused until it is fixed"
            fix = drift.next_step(store.backend.location(target))
        else:
            state, detail = "ok", ""
        rows.append(
            TargetStatus(
                target=target,
                file=store.backend.location(target),
                exists=raw.exists,
                entries=len(entries),
                used_chars=used,
                limit=limit,
                percent=min(100, used * 100 // limit) if limit > 0 else 0,
                usage=format_usage(used, limit),
                state=state,
                detail=detail,
                next=fix,
            )
        )
    return rows


_STATE_STYLE = {"ok": "green", "missing": "dim", "drift": "bold red", "unreadable": "bold red"}


def status_table(rows: list[TargetStatus]) -> Table:
    """One row per target (file names only; print the directory separately, unwrapped)."""
    table = Table(title="pi-memory status", title_justify="left")
    table.add_column("Target", style="bold")
    table.add_column("File", overflow="fold")
    table.add_column("Entries", justify="right")
    table.add_column("Used", justify="right")
    table.add_column("Limit", justify="right")
    table.add_column("Use %", justify="right")
    table.add_column("State")
    for row in rows:
        pct_style = "red" if row.percent >= 90 else "yellow" if row.percent >= 75 else ""
        state = Text(row.state, style=_STATE_STYLE.get(row.state, ""))
        table.add_row(
            row.target,
            Text(Path(row.file).name),
            str(row.entries),
            f"{row.used_chars:,}",
            f"{row.limit:,}",
            Text(f"{row.percent}%", style=pct_style),
            state,
        )
    return table


def print_entries(console: Console, result: Mapping[str, Any]) -> None:
    """``memory [usage]:`` then ``1. entry`` lines; continuation lines are indented."""
    target, entries = result["target"], result["entries"]
    if not entries:
        console.print(Text(f"{target}: (empty)"))
        return
    console.print(Text(f"{target} [{result['usage']}]:"))
    width = len(str(len(entries)))
    for number, entry in enumerate(entries, 1):
        prefix = f"{number:>{width}}. "
        lines = entry.split("\n")
        body = "\n".join([lines[0], *(" " * len(prefix) + line for line in lines[1:])])
        console.print(Text(prefix + body), soft_wrap=True)


def next_step(result: Mapping[str, Any], target: str) -> str:
    """One line telling the user what to do after a failed command."""
    if result.get("retryable"):
        return "Another process is writing this file; run the same command again in a moment."
    if "driftBackup" in result:
        return str(result.get("remediation", f"Fix the file; a copy was saved to {result['driftBackup']}."))
    if "matches" in result:
        return "Several entries match; use a longer substring that only one of them contains."
    if "currentEntries" in result:
        return f"Make room first: `pi-memory read {target}`, then replace or remove an entry."
    error = str(result.get("error", ""))
    if error.startswith("No entry matched"):
        return f"Run `pi-memory read {target}` to see the entries and pick a substring from one."
    if error.startswith("Blocked"):
        return "The text looks like a prompt injection or exfiltration payload; rephrase it as a plain fact."
    return ""


def print_status(console: Console, rows: list[TargetStatus]) -> None:
    """The table, then the directory on its own line so it can be copied."""
    console.print(status_table(rows))
    if rows:
        console.print(Text(f"Directory: {Path(rows[0].file).parent}"), soft_wrap=True)


__all__ = ["TargetStatus", "collect_status", "next_step", "print_entries", "print_status", "status_table"]
