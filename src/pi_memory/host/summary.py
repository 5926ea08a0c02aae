"""What the summarising model is sent, and how its reply is checked: pi 1.6.0's prompts word for
word (a summary written here reads like one written by pi, and the next compaction updates it the
same way), and the transcript the conversation is turned into so the model summarises it instead
of continuing it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from pi_memory.base import content_text
from pi_memory.providers import Context, Model, Provider, StreamOptions
from pi_memory.session import convert_to_llm

from .tokens import compact_json, js_len

__all__ = [
    "BRANCH_SUMMARY_PREAMBLE",
    "SPLIT_TURN_JOINER",
    "SUMMARIZATION_PROMPT",
    "SUMMARIZATION_SYSTEM_PROMPT",
    "TOOL_RESULT_MAX_CHARS",
    "TURN_PREFIX_PROMPT",
    "UPDATE_SUMMARIZATION_PROMPT",
    "CompactionError",
    "serialize_conversation",
    "summarize",
]

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

BRANCH_SUMMARY_PREAMBLE: Final = (
    "The user explored a different conversation branch before returning here.\n"
    "Summary of that exploration:\n\n"
)


class CompactionError(Exception):
    """A compaction that could not be made (nothing to compact, summary failed, cancelled)."""


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
                    calls.append(f"{b.get('name')}({', '.join(f'{k}={compact_json(v)}' for k, v in args.items())})")
            if any(b.get("type") == "text" for b in blocks):
                parts.append(f"[Assistant]: {content_text(blocks)}")
            if calls:
                parts.append(f"[Assistant tool calls]: {'; '.join(calls)}")
        elif role == "toolResult":
            text = content_text(content, "")
            if text:
                parts.append(f"[Tool result]: {_truncate(text, TOOL_RESULT_MAX_CHARS)}")
    return "\n\n".join(parts)


async def summarize(provider: Provider, model: Model, prompt: str, options: StreamOptions, label: str) -> str:
    """The model's summary of ``prompt``; :class:`CompactionError` (naming ``label``) when the reply
    failed, was cut off by the token cap, or called a tool — an incomplete summary is never stored."""
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
