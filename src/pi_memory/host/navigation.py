"""Moving within one session file: where /fork and /tree put the leaf, what leaving a branch
abandons (``session_before_tree``'s preparation), and /tree itself (pi 1.6.0's navigateTree).

Switching to another session (/new, /resume, /fork's new file) is lifecycle and stays in
:mod:`~pi_memory.host.session_runtime`; summarising the branch left is :mod:`~pi_memory.host.compaction`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from pi_memory.base import content_text
from pi_memory.session import SessionManager
from pi_memory.session.entries import Entry

from .context import SwitchResult
from .types import AbortSignal, Event, result_field

if TYPE_CHECKING:
    from .compaction import Compactor
    from .runner import ExtensionRunner

__all__ = ["TreeHost", "edit_point", "navigate_tree", "tree_preparation"]


class TreeHost(Protocol):
    """What /tree needs from the runtime: the session, its extensions and its compactor."""

    session_manager: SessionManager
    runner: ExtensionRunner
    compactor: Compactor

    async def dispatch(self, event: Event) -> Any: ...


def edit_point(entry: Entry, entry_id: str) -> tuple[Any, str | None]:
    """Where /fork and /tree put the leaf for ``entry``: before a user message (whose text comes
    back for editing), else at the entry itself."""
    message = entry.get("message") if entry.get("type") == "message" else None
    if isinstance(message, Mapping) and message.get("role") == "user":
        return entry.get("parentId"), content_text(message.get("content"))
    return entry_id, None


def tree_preparation(sm: SessionManager, target_id: str, summarize: bool,
                     custom_instructions: str | None) -> dict[str, Any]:
    """pi's ``session_before_tree`` preparation: the entries that leaving the current leaf for
    ``target_id`` abandons (``entriesToSummarize``, root first) and the common ancestor."""
    old_path = sm.get_branch()
    target_ids = {e.get("id") for e in sm.get_branch(target_id)}
    common = next((e.get("id") for e in reversed(old_path) if e.get("id") in target_ids), None)
    return {"targetId": target_id, "oldLeafId": sm.get_leaf_id(), "commonAncestorId": common,
            "entriesToSummarize": [e for e in old_path if e.get("id") not in target_ids],
            "userWantsSummary": summarize, "customInstructions": custom_instructions}


async def navigate_tree(host: TreeHost, target_id: str, *, summarize: bool = False,
                        custom_instructions: str | None = None) -> SwitchResult:
    """/tree: move the leaf within this file. Selecting a user message moves to its parent and
    returns its text for editing; ``summarize`` leaves a summary of the abandoned branch."""
    sm = host.session_manager
    target = sm.get_entry(target_id)
    if target is None:
        raise ValueError(f"Entry {target_id} not found")
    old_leaf = sm.get_leaf_id()
    preparation = tree_preparation(sm, target_id, summarize, custom_instructions)
    result = await host.runner.emit(Event(type="session_before_tree", preparation=preparation,
                                          signal=AbortSignal()))
    if result_field(result, "cancel"):
        return SwitchResult(True)
    new_leaf, text = edit_point(target, target_id)
    supplied = result_field(result, "summary")
    summary_entry = await host.compactor.leave_branch(new_leaf, preparation, supplied)
    event = Event(type="session_tree", newLeafId=sm.get_leaf_id(), oldLeafId=old_leaf)
    if summary_entry is not None:
        event["summaryEntry"] = summary_entry
        event["fromExtension"] = bool(supplied)
    await host.dispatch(event)
    await host.dispatch(Event(type="session:loaded", reason="tree", sessionFile=sm.get_session_file()))
    return SwitchResult(False, text)
