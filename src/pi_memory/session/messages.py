"""What a session's messages become for the LLM: pi's ``convertToLlm`` and ``bashExecutionToText``
(pi-coding-agent) and ``getCurrentSystemMessage`` (pi-ai), in Python.

The output must equal pi's as JSON, so JavaScript's string conversions (template literals,
``Array.join``) are mirrored for the odd values a file may hold, not approximated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from pi_memory.base import text_values
from pi_memory.base.js import js_truthy

from .ids import index_key

__all__ = [
    "BRANCH_SUMMARY_PREFIX",
    "BRANCH_SUMMARY_SUFFIX",
    "COMPACTION_SUMMARY_PREFIX",
    "COMPACTION_SUMMARY_SUFFIX",
    "bash_execution_to_text",
    "convert_to_llm",
    "get_current_system_message",
    "js_content_text",
]

COMPACTION_SUMMARY_PREFIX: Final = (
    "The conversation history before this point was compacted into the following summary:\n\n<summary>\n"
)
COMPACTION_SUMMARY_SUFFIX: Final = "\n</summary>"
BRANCH_SUMMARY_PREFIX: Final = (
    "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
)
BRANCH_SUMMARY_SUFFIX: Final = "</summary>"


def js_content_text(content: Any, separator: str = "\n") -> str:
    """A string, or the text blocks' ``text`` joined as pi joins them (``Array.join``: a missing
    text is ``""``, numbers and booleans print as JavaScript prints them)."""
    if isinstance(content, str):
        return content
    return separator.join([_js_string(text) for text in text_values(content)])


def _js_string(value: Any) -> str:
    """``Array.prototype.join`` element conversion for the values text blocks hold."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    from pi_memory.base.js import js_number  # local: only odd files reach this

    if isinstance(value, (bool, int, float)):
        return js_number(value)
    return str(value)


def get_current_system_message(messages: Iterable[Mapping[str, Any]]) -> dict[str, Any] | None:
    """Replay every ``system`` message into one (pi-ai's ``getCurrentSystemMessage``).

    Later content is appended, ``sections`` are patched by name (``None`` removes one), and tools
    are added and removed by name. None when there is no system message and no tool.
    """
    content: list[str] = []
    sections: dict[Any, Any] = {}
    tools: dict[Any, Any] = {}
    timestamp: Any = None
    for message in messages:
        if message.get("role") != "system":
            continue
        if timestamp is None:
            timestamp = message.get("timestamp")
        text = js_content_text(message.get("content"))
        if text:
            content.append(text)
        raw_sections = message.get("sections")
        if isinstance(raw_sections, dict):
            for name in _js_key_order(raw_sections):
                value = raw_sections[name]
                if value is None:
                    sections.pop(name, None)
                else:
                    sections[name] = value
        removed = message.get("toolsRemoved")
        for tool in removed if isinstance(removed, list) else []:
            if isinstance(tool, dict):
                tools.pop(index_key(tool.get("name")), None)
        added = message.get("toolsAdded")
        for tool in added if isinstance(added, list) else []:
            if isinstance(tool, dict):
                tools[index_key(tool.get("name"))] = tool
    if timestamp is None and not tools:
        return None
    result: dict[str, Any] = {"role": "system", "content": "\n\n".join(content)}
    if sections:
        result["sections"] = sections
    if tools:
        result["toolsAdded"] = list(tools.values())
    result["timestamp"] = 0 if timestamp is None else timestamp
    return result


def _js_key_order(obj: Mapping[str, Any]) -> list[str]:
    """Object.keys order: array-index keys ascending first, then the rest in insertion order."""
    keys = list(obj)
    index_keys = [k for k in keys if k.isdigit() and k.isascii() and (k == "0" or k[0] != "0")]
    if not index_keys:
        return keys
    index_keys = [k for k in index_keys if int(k) <= 2**32 - 2]
    index_set = set(index_keys)
    return sorted(index_keys, key=int) + [k for k in keys if k not in index_set]


def _template(message: Mapping[str, Any], key: str) -> str:
    """A value as a JavaScript template literal prints it (``undefined``/``null`` included)."""
    if key not in message:
        return "undefined"
    value = message[key]
    return "null" if value is None else _js_string(value)


def bash_execution_to_text(message: Mapping[str, Any]) -> str:
    """The user text a ``bashExecution`` message becomes for the LLM (pi's ``bashExecutionToText``)."""
    text = f"Ran `{_template(message, 'command')}`\n"
    output = message.get("output")
    if js_truthy(output):
        text += f"```\n{_template(message, 'output')}\n```"
    else:
        text += "(no output)"
    exit_code = message.get("exitCode")
    if js_truthy(message.get("cancelled")):
        text += "\n\n(command cancelled)"
    elif exit_code is not None and exit_code != 0:
        text += f"\n\nCommand exited with code {_template(message, 'exitCode')}"
    if js_truthy(message.get("truncated")) and js_truthy(message.get("fullOutputPath")):
        text += f"\n\n[Output truncated. Full output: {_template(message, 'fullOutputPath')}]"
    return text


def convert_to_llm(messages: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """pi's ``convertToLlm``: custom, bash, branch and compaction messages become user messages.

    Hidden custom messages (``display: false``) are still sent; ``details`` never is.
    """
    out: list[dict[str, Any]] = []
    for message in messages:
        role = message.get("role")
        if role == "bashExecution":
            if js_truthy(message.get("excludeFromContext")):
                continue
            text = bash_execution_to_text(message)
            out.append(_user([{"type": "text", "text": text}], message))
        elif role == "custom":
            content = message.get("content")
            if isinstance(content, str):
                out.append(_user([{"type": "text", "text": content}], message))
            elif "content" in message:
                out.append(_user(content, message))
            else:  # content undefined stays undefined
                user = _user(None, message)
                del user["content"]
                out.append(user)
        elif role == "branchSummary":
            text = BRANCH_SUMMARY_PREFIX + _template(message, "summary") + BRANCH_SUMMARY_SUFFIX
            out.append(_user([{"type": "text", "text": text}], message))
        elif role == "compactionSummary":
            text = COMPACTION_SUMMARY_PREFIX + _template(message, "summary") + COMPACTION_SUMMARY_SUFFIX
            out.append(_user([{"type": "text", "text": text}], message))
        elif role in ("system", "user", "assistant", "toolResult"):
            out.append(dict(message))
    return out


def _user(content: Any, source: Mapping[str, Any]) -> dict[str, Any]:
    user: dict[str, Any] = {"role": "user", "content": content}
    if "timestamp" in source:
        user["timestamp"] = source["timestamp"]
    return user
