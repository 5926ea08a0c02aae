"""Typed shapes of pi's session lines, messages and content blocks (pi 1.6.0, format v3).

These are ``TypedDict``s, not classes, on purpose: a session line is held as the very dict it was
parsed into, so keys we do not know (leftovers such as ``partialJson``, fields newer pi versions
add) and the file's key order survive a read/write cycle untouched. The types document the shape
and let mypy check code that builds entries; nothing validates them at run time.

A key that is absent is JavaScript ``undefined`` and is not written; ``None`` is written as
``null``. Key order in each literal below is the order pi writes.
"""

from __future__ import annotations

from typing import Any, Final, Literal, NotRequired, TypeAlias, TypedDict

__all__ = [
    "UNSET",
    "AgentMessage",
    "AssistantMessage",
    "BashExecutionMessage",
    "BranchSummaryEntry",
    "BranchSummaryMessage",
    "CompactionEntry",
    "CompactionSummaryMessage",
    "ContentBlock",
    "ContextEditEntry",
    "CustomEntry",
    "CustomMessage",
    "CustomMessageEntry",
    "Entry",
    "ImageContent",
    "LabelEntry",
    "ModelChangeEntry",
    "SessionEntry",
    "SessionHeader",
    "SessionInfoEntry",
    "SessionMessageEntry",
    "StopReason",
    "SystemMessage",
    "TextContent",
    "ThinkingContent",
    "ThinkingLevelChangeEntry",
    "ToolCall",
    "ToolResultMessage",
    "Usage",
    "UsageCost",
    "UsageEntry",
    "UserMessage",
]

Entry: TypeAlias = dict[str, Any]
"""How entries are held at run time: the parsed dict, unknown keys and key order included."""

CURRENT_SESSION_VERSION = 3


class _Unset:
    """JavaScript ``undefined`` for optional arguments where ``None`` (``null``) is meaningful."""

    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET: Final = _Unset()
"""Default for arguments whose absence leaves a key out of the line (``append_custom_entry`` data)."""

StopReason = Literal["stop", "length", "toolUse", "error", "aborted", "pending", "deferred"]


# --- content blocks --------------------------------------------------------------------------


class TextContent(TypedDict):
    type: Literal["text"]
    text: str
    textSignature: NotRequired[str]


class ImageContent(TypedDict):
    type: Literal["image"]
    data: str  # base64
    mimeType: str


class ThinkingContent(TypedDict):
    type: Literal["thinking"]
    thinking: str
    thinkingSignature: NotRequired[str]
    redacted: NotRequired[bool]


class ToolCall(TypedDict):
    type: Literal["toolCall"]
    id: str
    name: str
    arguments: dict[str, Any]
    thoughtSignature: NotRequired[str]
    namespace: NotRequired[str]


ContentBlock: TypeAlias = TextContent | ImageContent | ThinkingContent | ToolCall


class UsageCost(TypedDict):
    input: float
    output: float
    cacheRead: float
    cacheWrite: float
    total: float


class Usage(TypedDict):
    input: int
    output: int
    cacheRead: int
    cacheWrite: int
    cacheWrite1h: NotRequired[int]
    reasoning: NotRequired[int]
    totalTokens: int  # old files may lack it
    cost: UsageCost


# --- messages (the ``message`` of a ``message`` entry, and context output) -------------------


class SystemMessage(TypedDict):
    role: Literal["system"]
    content: str | list[TextContent]
    sections: NotRequired[dict[str, str | None]]
    toolsAdded: NotRequired[list[dict[str, Any]]]
    toolsRemoved: NotRequired[list[dict[str, Any]]]
    timestamp: int


class UserMessage(TypedDict):
    role: Literal["user"]
    content: str | list[TextContent | ImageContent]
    timestamp: int  # Unix ms


class AssistantMessage(TypedDict):
    role: Literal["assistant"]
    content: list[TextContent | ThinkingContent | ToolCall]
    api: str
    provider: str
    model: str
    usage: Usage
    stopReason: StopReason
    timestamp: int
    errorMessage: NotRequired[str]


class ToolResultMessage(TypedDict):
    role: Literal["toolResult"]
    toolCallId: str
    toolName: str
    content: list[TextContent | ImageContent]
    details: NotRequired[Any]
    isError: bool
    timestamp: int


class BashExecutionMessage(TypedDict):
    role: Literal["bashExecution"]
    command: str
    output: str
    exitCode: int | None
    cancelled: bool
    truncated: bool
    fullOutputPath: NotRequired[str]
    timestamp: int
    excludeFromContext: NotRequired[bool]


class CustomMessage(TypedDict):
    role: Literal["custom"]
    customType: str
    content: str | list[TextContent | ImageContent]
    display: bool
    details: NotRequired[Any]
    timestamp: int


class BranchSummaryMessage(TypedDict):
    """Only produced by context building; never stored as a ``message`` entry."""

    role: Literal["branchSummary"]
    summary: str
    fromId: str
    timestamp: int


class CompactionSummaryMessage(TypedDict):
    """Only produced by context building; never stored as a ``message`` entry."""

    role: Literal["compactionSummary"]
    summary: str
    tokensBefore: int
    timestamp: int


AgentMessage: TypeAlias = (
    SystemMessage
    | UserMessage
    | AssistantMessage
    | ToolResultMessage
    | BashExecutionMessage
    | CustomMessage
    | BranchSummaryMessage
    | CompactionSummaryMessage
)


# --- file lines ------------------------------------------------------------------------------


class SessionHeader(TypedDict):
    type: Literal["session"]
    version: NotRequired[int]  # absent means 1
    id: str
    timestamp: str  # ISO-8601, also part of the file name
    cwd: str
    parentSession: NotRequired[str]


class SessionMessageEntry(TypedDict):
    type: Literal["message"]
    id: str
    parentId: str | None
    timestamp: str
    message: AgentMessage


class ThinkingLevelChangeEntry(TypedDict):
    type: Literal["thinking_level_change"]
    id: str
    parentId: str | None
    timestamp: str
    thinkingLevel: str


class ModelChangeEntry(TypedDict):
    type: Literal["model_change"]
    id: str
    parentId: str | None
    timestamp: str
    provider: str
    modelId: str


class UsageEntry(TypedDict):
    type: Literal["usage"]
    id: str
    parentId: str | None
    timestamp: str
    kind: str
    provider: str
    model: str
    usage: Usage
    note: NotRequired[str]


class CompactionEntry(TypedDict):
    type: Literal["compaction"]
    id: str
    parentId: str | None
    timestamp: str
    summary: str
    firstKeptEntryId: str
    tokensBefore: int
    details: NotRequired[Any]
    usage: NotRequired[Usage]
    fromHook: NotRequired[bool]
    systemMessage: NotRequired[SystemMessage]


class BranchSummaryEntry(TypedDict):
    type: Literal["branch_summary"]
    id: str
    parentId: str | None
    timestamp: str
    fromId: str
    summary: str
    details: NotRequired[Any]
    usage: NotRequired[Usage]
    fromHook: NotRequired[bool]


class CustomEntry(TypedDict):
    type: Literal["custom"]
    customType: str
    data: NotRequired[Any]
    id: str
    parentId: str | None
    timestamp: str


class CustomMessageEntry(TypedDict):
    type: Literal["custom_message"]
    customType: str
    content: str | list[TextContent | ImageContent]
    display: bool
    details: NotRequired[Any]
    id: str
    parentId: str | None
    timestamp: str


class ContextEditEntry(TypedDict):
    type: Literal["context_edit"]
    id: str
    parentId: str | None
    timestamp: str
    targetId: str
    replacement: dict[str, Any] | None  # {"content": ...} or null (omit the target)


class LabelEntry(TypedDict):
    type: Literal["label"]
    id: str
    parentId: str | None
    timestamp: str
    targetId: str
    label: NotRequired[str]


class SessionInfoEntry(TypedDict):
    type: Literal["session_info"]
    id: str
    parentId: str | None
    timestamp: str
    name: NotRequired[str]


SessionEntry: TypeAlias = (
    SessionMessageEntry
    | ThinkingLevelChangeEntry
    | ModelChangeEntry
    | UsageEntry
    | CompactionEntry
    | BranchSummaryEntry
    | CustomEntry
    | CustomMessageEntry
    | ContextEditEntry
    | LabelEntry
    | SessionInfoEntry
)
