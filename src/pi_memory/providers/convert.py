"""From a session's messages to what a model may be sent (pi's ``convertToLlm`` +
``transformMessages``), before any wire format is involved.

Both SDK providers share these rules, so a session replays the same way whichever provider reads
it: pi-only roles become user text, failed or aborted turns are dropped, every tool call gets a
result (a synthetic error "No result provided" when the session has none, because both APIs
reject an unanswered call), thinking from another model is dropped (its signature is only valid
for the model that wrote it), and images become a placeholder for text-only models.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pi_memory.base import content_text
from pi_memory.session import convert_to_llm, get_current_system_message

from .types import Context, Model

__all__ = ["NO_RESULT_TEXT", "prepare_messages", "system_prompt_text"]

NO_RESULT_TEXT = "No result provided"
_USER_IMAGE_PLACEHOLDER = "(image omitted: model does not support images)"
_TOOL_IMAGE_PLACEHOLDER = "(tool image omitted: model does not support images)"


def system_prompt_text(context: Context) -> str:
    """The system prompt: ``context.system_prompt``, else the replayed ``system`` messages."""
    if context.system_prompt is not None:
        return context.system_prompt
    current = get_current_system_message(context.messages)
    if current is None:
        return ""
    parts = [content_text(current.get("content"))]
    sections = current.get("sections") or {}
    parts += [text for text in sections.values() if isinstance(text, str)]
    return "\n\n".join(p for p in parts if p)


def _replace_images(content: Any, placeholder: str) -> Any:
    if not isinstance(content, list):
        return content
    out: list[Any] = []
    for block in content:
        if isinstance(block, Mapping) and block.get("type") == "image":
            if not (out and out[-1] == {"type": "text", "text": placeholder}):
                out.append({"type": "text", "text": placeholder})
        else:
            out.append(block)
    return out


def _same_model(message: Mapping[str, Any], model: Model) -> bool:
    return (message.get("provider") == model.provider and message.get("api") == model.api
            and message.get("model") == model.id)


def prepare_messages(
    context: Context, model: Model, normalize_id: Callable[[str], str] | None = None
) -> list[dict[str, Any]]:
    """user / assistant / toolResult dicts ready for a wire converter (system messages removed).

    ``normalize_id`` rewrites tool-call ids written by other providers into the form this API
    accepts; the matching tool results follow the rewrite.
    """
    vision = "image" in model.input
    renamed: dict[str, str] = {}
    staged: list[dict[str, Any]] = []
    for message in convert_to_llm(context.messages):
        role = message.get("role")
        if role == "user":
            if not vision:
                message["content"] = _replace_images(message.get("content"), _USER_IMAGE_PLACEHOLDER)
            staged.append(message)
        elif role == "toolResult":
            if not vision:
                message["content"] = _replace_images(message.get("content"), _TOOL_IMAGE_PLACEHOLDER)
            call_id = message.get("toolCallId")
            if isinstance(call_id, str) and call_id in renamed:
                message["toolCallId"] = renamed[call_id]
            staged.append(message)
        elif role == "assistant":
            staged.append(_transform_assistant(message, model, normalize_id, renamed))
    return _close_tool_calls(staged)


def _transform_assistant(
    message: dict[str, Any], model: Model, normalize_id: Callable[[str], str] | None,
    renamed: dict[str, str],
) -> dict[str, Any]:
    same = _same_model(message, model)
    blocks: list[Any] = []
    for block in message.get("content") or []:
        if not isinstance(block, Mapping):
            continue
        kind = block.get("type")
        if kind == "thinking":
            if not same:
                continue
            # Signed or redacted blocks are kept even when empty: the API needs them to replay.
            if block.get("redacted") or block.get("thinkingSignature") or str(block.get("thinking") or "").strip():
                blocks.append(block)
        elif kind == "text":
            blocks.append(block if same else {"type": "text", "text": block.get("text", "")})
        elif kind == "toolCall":
            call = dict(block)
            if not same:
                call.pop("thoughtSignature", None)
                if normalize_id is not None and isinstance(call.get("id"), str):
                    new_id = normalize_id(call["id"])
                    if new_id != call["id"]:
                        renamed[call["id"]] = new_id
                        call["id"] = new_id
            blocks.append(call)
        else:
            blocks.append(block)
    return {**message, "content": blocks}


def _close_tool_calls(messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Drop failed turns and give every tool call a result before the conversation moves on."""
    out: list[dict[str, Any]] = []
    pending: list[Mapping[str, Any]] = []
    answered: set[Any] = set()

    def close() -> None:
        for call in pending:
            if call.get("id") not in answered:
                out.append({
                    "role": "toolResult",
                    "toolCallId": call.get("id"),
                    "toolName": call.get("name"),
                    "content": [{"type": "text", "text": NO_RESULT_TEXT}],
                    "isError": True,
                    "timestamp": int(time.time() * 1000),
                })
        pending.clear()
        answered.clear()

    for message in messages:
        role = message["role"]
        if role == "assistant":
            close()
            if message.get("stopReason") in ("error", "aborted"):
                continue
            pending.extend(b for b in message["content"] if b.get("type") == "toolCall")
            out.append(message)
        elif role == "toolResult":
            answered.add(message.get("toolCallId"))
            out.append(message)
        else:
            close()
            out.append(message)
    close()
    return out
