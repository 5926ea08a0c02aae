"""Compaction (reference §4): when the context nears the model's window, the older part of the
branch is replaced by a provider-written summary in a ``compaction`` entry; the entries stay in
the file, only the context changes.

Token estimates count characters the way JavaScript does (UTF-16 code units) and divide by 4, so
a session compacts at the same point here as in pi. The cut never lands on a tool result (it must
follow its call); cutting inside a turn summarises the turn's beginning separately.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from pi_memory.providers import Context, Model, Provider, StreamOptions
from pi_memory.providers.convert import content_text
from pi_memory.session import build_session_projection, convert_to_llm, get_current_system_message
from pi_memory.session.context import ProjectedEntry, session_entry_to_context_messages
from pi_memory.session.entries import Entry

__all__ = [
    "CompactionError",
    "CompactionPreparation",
    "CompactionResult",
    "CompactionSettings",
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

IMAGE_CHARS: Final = 4800
TOOL_RESULT_MAX_CHARS: Final = 2000

SUMMARIZATION_SYSTEM_PROMPT: Final = (
    "You are a context summarization assistant. Your task is to read a conversation between a user and an AI "
    "assistant, then produce a structured summary following the exact format specified.\n\n"
    "Do NOT continue the conversation. Do NOT respond to any questions in the conversation. ONLY output the "
    "structured summary."
)

_FORMAT: Final = """## Goal
[What is the user trying to accomplish? Can be multiple items if the session covers different tasks.]

## Constraints & Preferences
- [Any constraints, preferences, or requirements mentioned by user]
- [Or "(none)" if none were mentioned]

## Progress
### Done
- [x] [Completed tasks/changes]

### In Progress
- [ ] [Current work]

### Blocked
- [Issues preventing progress, if any]

## Key Decisions
- **[Decision]**: [Brief rationale]

## Next Steps
1. [Ordered list of what should happen next]

## Critical Context
- [Any data, examples, or references needed to continue]
- [Or "(none)" if not applicable]

Keep each section concise. Preserve exact file paths, function names, and error messages."""

SUMMARIZATION_PROMPT: Final = (
    "The messages above are a conversation to summarize. Create a structured context checkpoint summary that "
    "another LLM will use to continue the work.\n\nUse this EXACT format:\n\n" + _FORMAT
)

UPDATE_SUMMARIZATION_PROMPT: Final = (
    "The messages above are NEW conversation messages to incorporate into the existing summary provided in "
    "<previous-summary> tags.\n\nUpdate the existing structured summary with new information. RULES:\n"
    "- PRESERVE all existing information from the previous summary\n"
    "- ADD new progress, decisions, and context from the new messages\n"
    '- UPDATE the Progress section: move items from "In Progress" to "Done" when completed\n'
    '- UPDATE "Next Steps" based on what was accomplished\n'
    "- PRESERVE exact file paths, function names, and error messages\n"
    "- If something is no longer relevant, you may remove it\n\nUse this EXACT format:\n\n" + _FORMAT
)

TURN_PREFIX_PROMPT: Final = """The messages above are earlier context from an ongoing conversation. Later messages are \
stored separately and do not need to be reconstructed.

Create a concise checkpoint of the user's request and the progress shown above. This checkpoint will be placed \
before the later messages so the conversation can continue with the necessary context.

## Original Request
[What did the user ask for?]

## Progress So Far
- [Key decisions and work completed in these messages]

## Context Needed to Continue
- [Information from these messages needed to understand the later work]

Only summarize information explicitly present above. Do not infer or recreate later messages."""

SPLIT_TURN_JOINER: Final = "\n\n---\n\n**Turn Context (split turn):**\n\n"


class CompactionError(Exception):
    """A compaction that could not be made (nothing to compact, summary failed, cancelled)."""


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


def js_len(text: str) -> int:
    """JavaScript's ``.length``: UTF-16 code units (an emoji counts 2)."""
    return len(text.encode("utf-16-le")) // 2


def _content_chars(content: Any) -> int:
    if isinstance(content, str):
        return js_len(content)
    chars = 0
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, Mapping):
            continue
        if block.get("type") == "text" and block.get("text"):
            chars += js_len(str(block["text"]))
        elif block.get("type") == "image":
            chars += IMAGE_CHARS
    return chars


def _js_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def estimate_tokens(message: Mapping[str, Any]) -> int:
    """pi's ``estimateTokens``: ``ceil(chars / 4)`` over what the model would read."""
    role = message.get("role")
    chars = 0
    if role == "system":
        chars = _content_chars(message.get("content"))
        sections = message.get("sections")
        if isinstance(sections, Mapping):
            chars += sum(js_len(s) for s in sections.values() if isinstance(s, str) and s)
        if message.get("toolsAdded"):
            chars += js_len(_js_json(message["toolsAdded"]))
    elif role in ("user", "custom", "toolResult"):
        chars = _content_chars(message.get("content"))
    elif role == "assistant":
        for block in message.get("content") or []:
            if not isinstance(block, Mapping):
                continue
            kind = block.get("type")
            if kind == "text":
                chars += js_len(str(block.get("text") or ""))
            elif kind == "thinking":
                chars += js_len(str(block.get("thinking") or ""))
            elif kind == "toolCall":
                chars += js_len(str(block.get("name") or "")) + js_len(_js_json(block.get("arguments", {})))
    elif role == "bashExecution":
        chars = js_len(str(message.get("command") or "")) + js_len(str(message.get("output") or ""))
    elif role in ("branchSummary", "compactionSummary"):
        chars = js_len(str(message.get("summary") or ""))
    return math.ceil(chars / 4)


def calculate_context_tokens(usage: Mapping[str, Any]) -> int:
    """``totalTokens``, else the sum of its parts (old files lack totalTokens)."""
    total = usage.get("totalTokens")
    if total:
        return int(total)
    return sum(int(usage.get(k) or 0) for k in ("input", "output", "cacheRead", "cacheWrite"))


def _usage(message: Mapping[str, Any]) -> Mapping[str, Any] | None:
    usage = message.get("usage")
    if (message.get("role") == "assistant" and message.get("stopReason") not in ("aborted", "error")
            and isinstance(usage, Mapping) and calculate_context_tokens(usage) > 0):
        return usage
    return None


@dataclass(frozen=True, slots=True)
class ContextEstimate:
    tokens: int
    usage_tokens: int
    trailing_tokens: int
    last_usage_index: int | None


def estimate_context_tokens(messages: Sequence[Mapping[str, Any]]) -> ContextEstimate:
    """The last good assistant usage plus estimates for the messages after it."""
    for i in range(len(messages) - 1, -1, -1):
        usage = _usage(messages[i])
        if usage is not None:
            used = calculate_context_tokens(usage)
            trailing = sum(estimate_tokens(m) for m in messages[i + 1:])
            return ContextEstimate(used + trailing, used, trailing, i)
    estimated = sum(estimate_tokens(m) for m in messages)
    return ContextEstimate(estimated, 0, estimated, None)


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


def _truncate(text: str, limit: int) -> str:
    if js_len(text) <= limit:
        return text
    kept = text.encode("utf-16-le")[: limit * 2].decode("utf-16-le", errors="ignore")
    return f"{kept}\n\n[... {js_len(text) - limit} more characters truncated]"


def serialize_conversation(messages: Sequence[Mapping[str, Any]]) -> str:
    """``[User]:`` / ``[Assistant]:`` / ``[Assistant tool calls]:`` / ``[Tool result]:`` text, so the
    summarising model reads a transcript instead of continuing a conversation."""
    parts: list[str] = []
    for message in convert_to_llm(messages):
        role = message.get("role")
        content = message.get("content")
        if role == "user":
            text = content_text(content, "")
            if text:
                parts.append(f"[User]: {text}")
        elif role == "assistant":
            blocks = [b for b in content or [] if isinstance(b, Mapping)]
            calls = []
            for b in blocks:
                if b.get("type") == "toolCall":
                    raw = b.get("arguments")
                    args: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
                    calls.append(f"{b.get('name')}({', '.join(f'{k}={_js_json(v)}' for k, v in args.items())})")
            if any(b.get("type") == "text" for b in blocks):
                parts.append(f"[Assistant]: {content_text(blocks)}")
            if calls:
                parts.append(f"[Assistant tool calls]: {'; '.join(calls)}")
        elif role == "toolResult":
            text = content_text(content, "")
            if text:
                parts.append(f"[Tool result]: {_truncate(text, TOOL_RESULT_MAX_CHARS)}")
    return "\n\n".join(parts)


async def _summarize(provider: Provider, model: Model, prompt: str, options: StreamOptions, label: str) -> str:
    context = Context(system_prompt=SUMMARIZATION_SYSTEM_PROMPT,
                      messages=[{"role": "user", "content": [{"type": "text", "text": prompt}], "timestamp": 0}])
    reply = await provider.complete(model, context, options)
    if reply.get("stopReason") in ("error", "aborted"):
        raise CompactionError(f"{label} failed: {reply.get('errorMessage') or 'Unknown error'}")
    if reply.get("stopReason") == "length":
        raise CompactionError(f"{label} failed: generation hit the token cap and the summary is incomplete")
    if any(isinstance(b, Mapping) and b.get("type") == "toolCall" for b in reply.get("content") or []):
        raise CompactionError(f"{label} attempted to call a tool")
    return content_text(reply.get("content"))


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
        return await _summarize(provider, model, prompt, options, "Summarization")

    if preparation.is_split_turn and preparation.turn_prefix_messages:
        prefix_prompt = (f"# Conversation\n{serialize_conversation(preparation.turn_prefix_messages)}\n\n"
                         f"# Instructions\n{TURN_PREFIX_PROMPT}{focus}")
        history_text, prefix_text = await asyncio.gather(
            history(), _summarize(provider, model, prefix_prompt, options, "Turn prefix summarization"))
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


def context_messages_of(entry: Entry) -> list[dict[str, Any]]:
    """The messages an entry contributes to the context (re-exported for the runtime)."""
    return session_entry_to_context_messages(entry)
