"""Compaction (reference §4): when the context nears the model's window, the older part of the
branch is replaced by a provider-written summary in a ``compaction`` entry; the entries stay in
the file, only the context changes.

The cut never lands on a tool result (it must follow its call); cutting inside a turn summarises
the turn's beginning separately. Token counting lives in ``tokens``, what the summarising model
is sent in ``summary``; :class:`Compactor` is the runtime's side: when to compact, the
``session_before_compact`` / ``session_compact`` hooks, the entry, and ``/tree``'s branch summary.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol

from pi_memory.providers import Model, Provider, StreamOptions
from pi_memory.session import SessionManager, build_session_projection, get_current_system_message
from pi_memory.session.context import ProjectedEntry, session_entry_to_context_messages
from pi_memory.session.entries import Entry

from .summary import (
    BRANCH_SUMMARY_PREAMBLE,
    SPLIT_TURN_JOINER,
    SUMMARIZATION_PROMPT,
    TURN_PREFIX_PROMPT,
    UPDATE_SUMMARIZATION_PROMPT,
    CompactionError,
    serialize_conversation,
    summarize,
)
from .tokens import calculate_context_tokens, estimate_context_tokens, estimate_tokens, js_len
from .types import AbortSignal, Event, result_field

if TYPE_CHECKING:
    from .context import UI
    from .runner import ExtensionRunner
    from .settings import Settings

__all__ = [
    "CompactionError",
    "CompactionHost",
    "CompactionPreparation",
    "CompactionResult",
    "CompactionSettings",
    "Compactor",
    "CutPoint",
    "calculate_context_tokens",
    "compact",
    "estimate_context_tokens",
    "estimate_tokens",
    "find_cut_point",
    "js_len",
    "prepare_compaction",
    "serialize_conversation",
    "should_compact",
]

@dataclass(frozen=True, slots=True)
class CompactionSettings:
    """``compaction`` settings: ``enabled``, ``reserveTokens``, ``keepRecentTokens``."""

    enabled: bool = True
    reserve_tokens: int = 16_384
    keep_recent_tokens: int = 20_000

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> CompactionSettings:
        raw = settings.get("compaction")
        raw = raw if isinstance(raw, Mapping) else {}

        def number(key: str, default: int) -> int:
            value = raw.get(key)
            return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else default

        enabled = raw.get("enabled", True)
        return cls(enabled if isinstance(enabled, bool) else True, number("reserveTokens", 16_384),
                   number("keepRecentTokens", 20_000))


# ----------------------------------------------------------------------------- estimates


def should_compact(context_tokens: int, context_window: int, settings: CompactionSettings) -> bool:
    """True when the context passes the window minus the reserve."""
    return settings.enabled and context_tokens > context_window - settings.reserve_tokens


# ----------------------------------------------------------------------------- cut point

_CUT_ROLES: Final = frozenset({"user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"})
_TURN_START_ROLES: Final = _CUT_ROLES - {"assistant"}


def _is_compaction(entry: ProjectedEntry) -> bool:
    return entry.source_entry.get("type") == "compaction"


def _turn_start(entry: ProjectedEntry) -> bool:
    return not _is_compaction(entry) and any(m.get("role") in _TURN_START_ROLES for m in entry.messages)


@dataclass(frozen=True, slots=True)
class CutPoint:
    first_kept_index: int
    turn_start_index: int
    is_split_turn: bool


def find_cut_point(entries: Sequence[ProjectedEntry], start: int, end: int, keep_recent_tokens: int) -> CutPoint:
    """Walk back from the newest entry until ``keep_recent_tokens`` are kept; cut at the nearest
    valid point at or after there (never a tool result), pulling in metadata entries just before it."""
    cut_points = [i for i in range(start, end)
                  if not _is_compaction(entries[i]) and any(m.get("role") in _CUT_ROLES for m in entries[i].messages)]
    if not cut_points:
        return CutPoint(start, -1, False)
    cut = cut_points[0]
    accumulated = 0
    for i in range(end - 1, start - 1, -1):
        tokens = sum(estimate_tokens(m) for m in entries[i].messages)
        if tokens == 0:
            continue
        accumulated += tokens
        if accumulated >= keep_recent_tokens:
            cut = next((c for c in cut_points if c >= i), cut_points[-1])
            break
    while cut > start:
        previous = entries[cut - 1]
        if _is_compaction(previous) or previous.messages:
            break
        cut -= 1
    if _turn_start(entries[cut]):
        return CutPoint(cut, -1, False)
    turn_start = next((i for i in range(cut, start - 1, -1) if _turn_start(entries[i])), -1)
    return CutPoint(cut, turn_start, turn_start != -1)


# ----------------------------------------------------------------------------- preparation


@dataclass(slots=True)
class CompactionPreparation:
    """What will be summarised and what is kept; handed to ``session_before_compact`` handlers."""

    first_kept_entry_id: str
    messages_to_summarize: list[dict[str, Any]]
    turn_prefix_messages: list[dict[str, Any]]
    is_split_turn: bool
    tokens_before: int
    previous_summary: str | None
    read_files: set[str] = field(default_factory=set)
    modified_files: set[str] = field(default_factory=set)
    settings: CompactionSettings = field(default_factory=CompactionSettings)

    def to_event(self) -> dict[str, Any]:
        """pi's camelCase shape for the event payload."""
        return {"firstKeptEntryId": self.first_kept_entry_id, "messagesToSummarize": self.messages_to_summarize,
                "turnPrefixMessages": self.turn_prefix_messages, "isSplitTurn": self.is_split_turn,
                "tokensBefore": self.tokens_before, "previousSummary": self.previous_summary,
                "fileOps": {"read": sorted(self.read_files), "modified": sorted(self.modified_files)},
                "settings": {"enabled": self.settings.enabled, "reserveTokens": self.settings.reserve_tokens,
                             "keepRecentTokens": self.settings.keep_recent_tokens}}


def _file_ops(messages: Sequence[Mapping[str, Any]], read: set[str], modified: set[str]) -> None:
    for message in messages:
        if message.get("role") != "assistant":
            continue
        for block in message.get("content") or []:
            if not isinstance(block, Mapping) or block.get("type") != "toolCall":
                continue
            args = block.get("arguments")
            path = args.get("path") if isinstance(args, Mapping) else None
            if isinstance(path, str) and path:
                if block.get("name") == "read":
                    read.add(path)
                elif block.get("name") in ("write", "edit"):
                    modified.add(path)


def _projected_tokens(projection_messages: list[dict[str, Any]], entries: list[ProjectedEntry],
                      path: Sequence[Entry]) -> int:
    """Usage-based estimate, unless a later compaction or context edit made that usage stale."""
    estimate = estimate_context_tokens(projection_messages)
    if estimate.last_usage_index is not None:
        index, usage_entry_id = 0, None
        for entry in entries:
            if estimate.last_usage_index < index + len(entry.messages):
                usage_entry_id = entry.source_entry.get("id")
                break
            index += len(entry.messages)
        usage_pos = next((i for i, e in enumerate(path) if e.get("id") == usage_entry_id), -1)
        invalidated = max((i for i, e in enumerate(path) if e.get("type") in ("context_edit", "compaction")),
                          default=-1)
        if usage_pos > invalidated:
            return estimate.tokens
    system = get_current_system_message(projection_messages)
    tokens = estimate_tokens(system) if system else 0
    return tokens + sum(estimate_tokens(m) for m in projection_messages if m.get("role") != "system")


def _conversation(entries: Sequence[ProjectedEntry]) -> list[dict[str, Any]]:
    return [m for e in entries if not _is_compaction(e) for m in e.messages if m.get("role") != "system"]


def prepare_compaction(path: Sequence[Entry], settings: CompactionSettings) -> CompactionPreparation | None:
    """None when there is nothing to compact (the branch ends in a compaction, or is too small)."""
    if path and path[-1].get("type") == "compaction":
        return None
    projection = build_session_projection(list(path))
    entries = projection.entries
    prev = next((i for i, e in enumerate(entries) if _is_compaction(e) and e.messages), -1)
    previous_summary = entries[prev].source_entry.get("summary") if prev >= 0 else None
    start = prev + 1
    tokens_before = _projected_tokens(projection.messages, entries, path)
    cut = find_cut_point(entries, start, len(entries), settings.keep_recent_tokens)
    if cut.first_kept_index >= len(entries):
        return None
    first_kept = entries[cut.first_kept_index].source_entry.get("id")
    if not isinstance(first_kept, str):
        return None
    history_end = cut.turn_start_index if cut.is_split_turn else cut.first_kept_index
    to_summarize = _conversation(entries[start:history_end])
    prefix = _conversation(entries[cut.turn_start_index:cut.first_kept_index]) if cut.is_split_turn else []
    if not to_summarize and not prefix:
        return None
    read: set[str] = set()
    modified: set[str] = set()
    if prev >= 0:
        source = entries[prev].source_entry
        details = source.get("details")
        if not source.get("fromHook") and isinstance(details, Mapping):
            read.update(f for f in details.get("readFiles") or [] if isinstance(f, str))
            modified.update(f for f in details.get("modifiedFiles") or [] if isinstance(f, str))
    _file_ops(to_summarize + prefix, read, modified)
    return CompactionPreparation(first_kept, to_summarize, prefix, cut.is_split_turn, tokens_before,
                                 previous_summary if isinstance(previous_summary, str) else None,
                                 read, modified, settings)


# ----------------------------------------------------------------------------- summary


@dataclass(frozen=True, slots=True)
class CompactionResult:
    summary: str
    first_kept_entry_id: str
    tokens_before: int
    details: dict[str, Any] | None = None


async def compact(preparation: CompactionPreparation, provider: Provider, model: Model,
                  custom_instructions: str | None = None, signal: asyncio.Event | None = None) -> CompactionResult:
    """Summarise with the provider (two summaries in parallel for a split turn) and append the
    file lists, as pi does. Raises :class:`CompactionError` when the provider fails."""
    options = StreamOptions(signal=signal, max_tokens=max(256, int(0.8 * preparation.settings.reserve_tokens)))
    focus = f"\n\nAdditional focus: {custom_instructions}" if custom_instructions else ""

    async def history() -> str:
        if not preparation.messages_to_summarize:
            return preparation.previous_summary or "No prior history."
        prompt = f"<conversation>\n{serialize_conversation(preparation.messages_to_summarize)}\n</conversation>\n\n"
        if preparation.previous_summary:
            prompt += f"<previous-summary>\n{preparation.previous_summary}\n</previous-summary>\n\n"
        prompt += (UPDATE_SUMMARIZATION_PROMPT if preparation.previous_summary else SUMMARIZATION_PROMPT) + focus
        return await summarize(provider, model, prompt, options, "Summarization")

    if preparation.is_split_turn and preparation.turn_prefix_messages:
        prefix_prompt = (f"# Conversation\n{serialize_conversation(preparation.turn_prefix_messages)}\n\n"
                         f"# Instructions\n{TURN_PREFIX_PROMPT}{focus}")
        history_text, prefix_text = await asyncio.gather(
            history(), summarize(provider, model, prefix_prompt, options, "Turn prefix summarization"))
        summary = f"{history_text}{SPLIT_TURN_JOINER}{prefix_text}"
    else:
        summary = await history()
    read_only = sorted(preparation.read_files - preparation.modified_files)
    modified = sorted(preparation.modified_files)
    sections = []
    if read_only:
        sections.append("<read-files>\n" + "\n".join(read_only) + "\n</read-files>")
    if modified:
        sections.append("<modified-files>\n" + "\n".join(modified) + "\n</modified-files>")
    if sections:
        summary += "\n\n" + "\n\n".join(sections)
    return CompactionResult(summary, preparation.first_kept_entry_id, preparation.tokens_before,
                            {"readFiles": read_only, "modifiedFiles": modified})


# ----------------------------------------------------------------------------- the runtime's side


class CompactionHost(Protocol):
    """What a :class:`Compactor` needs from its session runtime."""

    session_manager: SessionManager
    settings: Settings
    runner: ExtensionRunner
    ui: UI
    model: Model | None

    @property
    def signal(self) -> AbortSignal | None: ...

    async def dispatch(self, event: Event) -> Any: ...

    def announce(self, event: Event) -> None: ...

    async def append_host_entry(self, append: Callable[[SessionManager], str], reason: str) -> str: ...

    def require_model(self) -> Model: ...

    def provider_for(self, model: Model) -> Provider: ...


class Compactor:
    """Compaction for one session runtime: automatic (before a prompt, after a reply over the
    threshold, after a context overflow) and on request (``/compact``, ``ctx.compact()``)."""

    def __init__(self, host: CompactionHost) -> None:
        self._host = host

    @property
    def settings(self) -> CompactionSettings:
        return CompactionSettings.from_settings(self._host.settings.merged)

    async def before_prompt(self) -> None:
        """Compact when the branch's last reply (since the last compaction) passed the threshold."""
        for entry in reversed(self._host.session_manager.get_branch()):
            if entry.get("type") == "compaction":
                return
            message = entry.get("message") if entry.get("type") == "message" else None
            if isinstance(message, Mapping) and message.get("role") == "assistant":
                await self.if_over(message, "threshold")
                return

    async def if_over(self, message: Mapping[str, Any], reason: str) -> None:
        """Compact automatically when ``message``'s usage passes the window minus the reserve."""
        usage = message.get("usage")
        model = self._host.model
        if model is None or not isinstance(usage, Mapping):
            return
        if should_compact(calculate_context_tokens(usage), model.context_window, self.settings):
            await self.auto(reason)

    async def auto(self, reason: str) -> bool:
        """An automatic compaction between ``auto_compaction_start``/``_end``; a failure is a notice."""
        if not self.settings.enabled:
            return False
        self._host.announce(Event(type="auto_compaction_start", reason=reason))
        try:
            entry = await self.compact(auto=True)
        except CompactionError as exc:
            self._host.ui.notify(f"Auto-compaction ({reason}) failed: {exc}", "error")
            entry = None
        self._host.announce(Event(type="auto_compaction_end", reason=reason, result=entry, aborted=entry is None))
        return entry is not None

    async def compact(self, custom_instructions: str | None = None, *, auto: bool = False) -> Entry | None:
        """``session_before_compact`` → the entry → ``session_compact``; see ``SessionRuntime.compact``."""
        host = self._host
        path = host.session_manager.get_branch()
        if path and path[-1].get("type") == "compaction":
            raise CompactionError("Already compacted")
        preparation = prepare_compaction(path, self.settings)
        if preparation is None:
            raise CompactionError("Nothing to compact (session too small)")
        signal = host.signal or AbortSignal()
        result = await host.runner.emit(Event(type="session_before_compact", preparation=preparation.to_event(),
                                              branchEntries=path, customInstructions=custom_instructions,
                                              signal=signal))
        if result_field(result, "cancel"):
            if auto:
                return None
            raise CompactionError("Compaction cancelled")
        supplied = result_field(result, "compaction")
        if supplied:
            summary = str(result_field(supplied, "summary", ""))
            first_kept = result_field(supplied, "firstKeptEntryId", preparation.first_kept_entry_id)
            tokens_before = int(result_field(supplied, "tokensBefore", preparation.tokens_before))
            details, from_hook = result_field(supplied, "details"), True
        else:
            model = host.require_model()
            made = await compact(preparation, host.provider_for(model), model, custom_instructions, signal)
            summary, first_kept, tokens_before = made.summary, made.first_kept_entry_id, made.tokens_before
            details, from_hook = made.details, False
        entry_id = await host.append_host_entry(
            lambda sm: sm.append_compaction(summary, first_kept, tokens_before, details, from_hook), "compaction")
        entry = host.session_manager.get_entry(entry_id)
        await host.dispatch(Event(type="session_compact", compactionEntry=entry, fromExtension=from_hook))
        return entry

    async def summarize_branch(self, entries: Sequence[Entry], custom_instructions: str | None) -> str:
        """``/tree``'s summary of the branch left behind (tool results left out, as in pi)."""
        messages = [m for e in entries for m in session_entry_to_context_messages(e) if m.get("role") != "toolResult"]
        if not messages:
            return "No content to summarize"
        model = self._host.require_model()
        prompt = (f"<conversation>\n{serialize_conversation(messages)}\n</conversation>\n\n" + SUMMARIZATION_PROMPT
                  + (f"\n\nAdditional focus: {custom_instructions}" if custom_instructions else ""))
        text = await summarize(self._host.provider_for(model), model, prompt, StreamOptions(max_tokens=2048),
                                "Branch summarization")
        return BRANCH_SUMMARY_PREAMBLE + text

    async def leave_branch(self, new_leaf: Any, preparation: Mapping[str, Any], supplied: Any) -> Entry | None:
        """/tree's move of the leaf to ``new_leaf``, behind a ``branch_summary`` entry (returned) when a
        ``session_before_tree`` handler ``supplied`` one or the user asked for one."""
        sm = self._host.session_manager
        abandoned = preparation["entriesToSummarize"]
        text: str | None = None
        details: Any = None
        if supplied:
            text, details = str(result_field(supplied, "summary", "")), result_field(supplied, "details")
        elif preparation["userWantsSummary"] and abandoned:
            text = await self.summarize_branch(abandoned, preparation["customInstructions"])
        if text:
            return sm.get_entry(sm.branch_with_summary(str(new_leaf) if new_leaf else None, text, details,
                                                       True if supplied else None))
        if new_leaf is None:
            sm.reset_leaf()
        else:
            sm.branch(str(new_leaf))
        return None
