"""``/memory``: look at and edit memory from the chat, with pi-memory's exact words.

Every subcommand goes to the live store (``read`` re-reads the files), never to the frozen
snapshot, so ``/memory read`` shows what the next session will see while this session's prompt
stays unchanged. Messages and levels match pi-memory, so scripts and habits carry over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_memory.backends import describe_store
from pi_memory.memory import MemoryStore
from pi_memory.memory.snapshot import format_entry_count

__all__ = ["DESCRIPTION", "SUBCOMMANDS", "Completion", "complete", "run_memory_command"]

SUBCOMMANDS = ("status", "read", "add", "replace", "remove")
DESCRIPTION = "Manage persistent memory. Subcommands: status, read, add, replace, remove."
NOT_LOADED = "pi-memory is not loaded."
UNKNOWN = "Unknown subcommand. Available: status, read, add, replace, remove."
USAGE = {
    "add": "Usage: /memory add [user|memory] <content>",
    "replace": "Usage: /memory replace [user|memory] <oldText> -> <newContent>",
    "remove": "Usage: /memory remove [user|memory] <substring>",
}

Notify = Callable[[str, str], None]


class Completion(str):
    """A completion the host can print as text that also carries pi's ``{label, value}``."""

    @property
    def value(self) -> str:
        return str(self)

    @property
    def label(self) -> str:
        return str(self)


def complete(prefix: str) -> list[Completion]:
    """Subcommands starting with the (trimmed, lower-cased) prefix."""
    wanted = prefix.strip().lower()
    return [Completion(name) for name in SUBCOMMANDS if name.startswith(wanted)]


def _split_target(rest: str) -> tuple[str, str]:
    """``user ...`` / ``memory ...`` pick a target (exact, case-sensitive); default memory."""
    head, _, tail = rest.partition(" ")
    if head in ("user", "memory"):
        return head, tail
    return "memory", rest


def _status(store: MemoryStore, notify: Notify, dreaming: str | None) -> None:
    """pi-memory's two lines; a shared store adds where it lives, a failed read says why, and
    the dreaming line says whether background consolidation can run."""
    lines, level = [], "info"
    for target, file_name in (("memory", "MEMORY.md"), ("user", "USER.md")):
        result = store.read(target)
        if result.get("success") is False:
            lines.append(f"{file_name}: failed: {result.get('error')}")
            level = "warning"
            continue
        count = result.get("entryCount", len(result.get("entries", [])))
        lines.append(f"{file_name}: {format_entry_count(count)} ({result.get('usage', '?')})")
    if store.dir is None:
        lines.append(f"Stored in {describe_store(store)}")
    if dreaming is not None:
        lines.append(dreaming)
    notify("\n".join(lines), level)


def _read(store: MemoryStore, rest: str, notify: Notify) -> None:
    target = "user" if rest == "user" else "memory"
    result = store.read(target)
    if not result.get("success"):
        notify(f"Failed: {result.get('error')}", "warning")
        return
    entries: list[str] = result.get("entries", [])
    if not entries:
        notify(f"{target}: (empty)", "info")
        return
    listing = "\n".join(f"{n}. {entry}" for n, entry in enumerate(entries, 1))
    notify(f"{target} [{result.get('usage')}]:\n{listing}", "info")


def _report(result: dict[str, Any], success: str, notify: Notify) -> None:
    if result.get("success"):
        notify(success, "info")
    else:
        notify(f"Failed: {result.get('error')}", "warning")


def run_memory_command(store: MemoryStore | None, args: str, notify: Notify, dreaming: str | None = None) -> None:
    """Run ``/memory <args>`` against ``store`` and report through ``notify(message, level)``;
    ``dreaming`` is the line ``/memory status`` adds about background dreaming."""
    if store is None:
        notify(NOT_LOADED, "warning")
        return
    tokens = args.split()
    sub = tokens[0].lower() if tokens else "status"
    rest = " ".join(tokens[1:])
    if sub == "status":
        _status(store, notify, dreaming)
    elif sub == "read":
        _read(store, rest, notify)
    elif sub in ("add", "remove"):
        target, text = _split_target(rest)
        if not text.strip():
            notify(USAGE[sub], "warning")
            return
        change, done = (store.add, "Added to") if sub == "add" else (store.remove, "Removed from")
        _report(change(target, text), f"{done} {target}.", notify)
    elif sub == "replace":
        target, body = _split_target(rest)
        old, arrow, new = body.partition("->")
        if not arrow or not old.strip() or not new.strip():
            notify(USAGE["replace"], "warning")
            return
        _report(store.replace(target, old.strip(), new.strip()), f"Replaced in {target}.", notify)
    else:
        notify(UNKNOWN, "warning")
