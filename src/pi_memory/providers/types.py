"""The provider layer's vocabulary: models, request context, options, and streamed events.

Messages stay plain dicts in pi's shapes (the TypedDicts of :mod:`pi_memory.session.entries`), so
whatever a provider returns can be appended to a session file unchanged. Only the things pi keeps
in code rather than in files (models, options) are dataclasses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias, TypedDict

from pi_memory.session.entries import (
    AssistantMessage,
    ContentBlock,
    ImageContent,
    StopReason,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    Usage,
    UsageCost,
    UserMessage,
)

if TYPE_CHECKING:
    import asyncio

__all__ = [
    "ANTHROPIC_MESSAGES_API",
    "OPENAI_COMPLETIONS_API",
    "SCRIPTED_API",
    "AssistantMessage",
    "AssistantMessageEvent",
    "ContentBlock",
    "Context",
    "DoneEvent",
    "ErrorEvent",
    "ImageContent",
    "Message",
    "Model",
    "ModelCost",
    "StartEvent",
    "StopReason",
    "StreamOptions",
    "TextContent",
    "TextDeltaEvent",
    "TextEndEvent",
    "TextStartEvent",
    "ThinkingContent",
    "ThinkingDeltaEvent",
    "ThinkingEndEvent",
    "ThinkingLevel",
    "ThinkingStartEvent",
    "Tool",
    "ToolCall",
    "ToolCallDeltaEvent",
    "ToolCallEndEvent",
    "ToolCallStartEvent",
    "ToolResultMessage",
    "Usage",
    "UsageCost",
    "UserMessage",
]

#: The wire formats a :class:`Model`'s ``api`` names; each is served by one provider class, which
#: the registry creates only when a model of that api is used (so a settings check stays light).
ANTHROPIC_MESSAGES_API: Final = "anthropic-messages"
OPENAI_COMPLETIONS_API: Final = "openai-completions"
SCRIPTED_API: Final = "scripted"

Message: TypeAlias = Mapping[str, Any]
"""A pi message as found in a session: user, assistant, toolResult, system, custom, bashExecution,
compactionSummary or branchSummary. Unknown keys are allowed and ignored."""

ThinkingLevel = Literal["off", "minimal", "low", "medium", "high", "xhigh"]


@dataclass(frozen=True, slots=True)
class ModelCost:
    """Dollars per million tokens, as in pi's model catalog (``cacheRead``/``cacheWrite``)."""

    input: float = 0.0
    output: float = 0.0
    cache_read: float = 0.0
    cache_write: float = 0.0


@dataclass(frozen=True, slots=True)
class Model:
    """One chat model on one provider: where to send requests and what it costs.

    ``api`` picks the wire protocol ("openai-completions", "anthropic-messages", "scripted");
    ``provider`` is the name recorded on assistant messages and used to look up the API key.
    ``compat`` holds per-model switches for OpenAI-compatible servers that differ from OpenAI
    (``maxTokensField``, ``supportsDeveloperRole``, ``supportsUsageInStreaming``).
    ``note`` explains defaults the registry had to assume (an unknown model id, for example).
    """

    id: str
    name: str
    api: str
    provider: str
    base_url: str
    context_window: int = 128_000
    max_tokens: int = 16_384
    cost: ModelCost = field(default_factory=ModelCost)
    reasoning: bool = False
    input: tuple[str, ...] = ("text", "image")
    headers: Mapping[str, str] = field(default_factory=dict, hash=False)
    compat: Mapping[str, Any] = field(default_factory=dict, hash=False)
    note: str | None = None

    @property
    def ref(self) -> str:
        """``provider/model-id``, the spelling ``--model`` and settings use."""
        return f"{self.provider}/{self.id}"


class Tool(TypedDict):
    """A tool the model may call; ``parameters`` is a JSON Schema object."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(slots=True)
class Context:
    """Everything one model call sees.

    ``messages`` may hold any pi message, including ``custom``, ``bashExecution``,
    ``compactionSummary`` and ``branchSummary``; providers convert them to user text the way pi's
    ``convertToLlm`` does. ``system_prompt`` wins over ``system`` messages in the list.
    """

    system_prompt: str | None = None
    messages: Sequence[Message] = field(default_factory=list)
    tools: Sequence[Tool] = field(default_factory=list)


@dataclass(slots=True)
class StreamOptions:
    """Per-request knobs. ``signal`` aborts the request when set (the message ends "aborted").

    ``timeout`` is in seconds. ``max_retries`` is passed to the SDK client, which retries
    connection errors, 408/409/429 and 5xx with backoff. ``reasoning`` asks reasoning models to
    think ("off" or None disables it).
    """

    api_key: str | None = None
    headers: Mapping[str, str] | None = None
    max_tokens: int | None = None
    temperature: float | None = None
    signal: asyncio.Event | None = None
    reasoning: ThinkingLevel | None = None
    timeout: float | None = None
    max_retries: int = 2


# --- events (pi-ai's AssistantMessageEvent) --------------------------------------------------
# ``partial`` is the live message being built, not a snapshot: copy it if you keep it.


class StartEvent(TypedDict):
    type: Literal["start"]
    partial: AssistantMessage


class TextStartEvent(TypedDict):
    type: Literal["text_start"]
    contentIndex: int
    partial: AssistantMessage


class TextDeltaEvent(TypedDict):
    type: Literal["text_delta"]
    contentIndex: int
    delta: str
    partial: AssistantMessage


class TextEndEvent(TypedDict):
    type: Literal["text_end"]
    contentIndex: int
    content: str
    partial: AssistantMessage


class ThinkingStartEvent(TypedDict):
    type: Literal["thinking_start"]
    contentIndex: int
    partial: AssistantMessage


class ThinkingDeltaEvent(TypedDict):
    type: Literal["thinking_delta"]
    contentIndex: int
    delta: str
    partial: AssistantMessage


class ThinkingEndEvent(TypedDict):
    type: Literal["thinking_end"]
    contentIndex: int
    content: str
    partial: AssistantMessage


class ToolCallStartEvent(TypedDict):
    type: Literal["toolcall_start"]
    contentIndex: int
    partial: AssistantMessage


class ToolCallDeltaEvent(TypedDict):
    type: Literal["toolcall_delta"]
    contentIndex: int
    delta: str
    partial: AssistantMessage


class ToolCallEndEvent(TypedDict):
    type: Literal["toolcall_end"]
    contentIndex: int
    toolCall: ToolCall
    partial: AssistantMessage


class DoneEvent(TypedDict):
    type: Literal["done"]
    reason: Literal["stop", "length", "toolUse"]
    message: AssistantMessage


class ErrorEvent(TypedDict):
    type: Literal["error"]
    reason: Literal["error", "aborted"]
    error: AssistantMessage


AssistantMessageEvent: TypeAlias = (
    StartEvent
    | TextStartEvent
    | TextDeltaEvent
    | TextEndEvent
    | ThinkingStartEvent
    | ThinkingDeltaEvent
    | ThinkingEndEvent
    | ToolCallStartEvent
    | ToolCallDeltaEvent
    | ToolCallEndEvent
    | DoneEvent
    | ErrorEvent
)
