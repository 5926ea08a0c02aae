"""LLM providers: pi-ai's streaming model in Python.

A provider turns a :class:`Context` (system prompt, pi messages, tools) into a stream of pi's
assistant-message events ending in ``done`` or ``error``; the final message is a plain dict in
pi's exact shape, ready to be written to a session file. Providers never raise for anything the
network or the model does. See ``docs/providers.md``.

>>> import asyncio
>>> from pi_memory.providers import Context, ScriptedProvider, scripted_model
>>> reply = asyncio.run(ScriptedProvider(["Hello!"]).complete(scripted_model(), Context(messages=[])))
>>> reply["content"], reply["stopReason"]
([{'type': 'text', 'text': 'Hello!'}], 'stop')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_memory._lazy import lazy_package

if TYPE_CHECKING:  # imported on first use (pi_memory._lazy): a settings check loads no provider
    from ._errors import ProviderError, is_connection_error
    from .anthropic_msgs import AnthropicMessagesProvider
    from .base import ABORTED_MESSAGE, BaseProvider, MessageBuilder, Provider, complete
    from .convert import prepare_messages, system_prompt_text
    from .openai_compat import OpenAICompletionsProvider
    from .overflow import is_context_overflow
    from .registry import (
        ModelNotFoundError,
        ModelRegistry,
        ProviderConfig,
        clear_command_cache,
        parse_model_ref,
        resolve_config_value,
    )
    from .scripted import Reply, ScriptedProvider, scripted_model
    from .types import (
        ANTHROPIC_MESSAGES_API,
        OPENAI_COMPLETIONS_API,
        SCRIPTED_API,
        AssistantMessage,
        AssistantMessageEvent,
        Context,
        Model,
        ModelCost,
        StreamOptions,
        ThinkingLevel,
        Tool,
        Usage,
    )

__all__ = [
    "ABORTED_MESSAGE",
    "ANTHROPIC_MESSAGES_API",
    "OPENAI_COMPLETIONS_API",
    "SCRIPTED_API",
    "AnthropicMessagesProvider",
    "AssistantMessage",
    "AssistantMessageEvent",
    "BaseProvider",
    "Context",
    "MessageBuilder",
    "Model",
    "ModelCost",
    "ModelNotFoundError",
    "ModelRegistry",
    "OpenAICompletionsProvider",
    "Provider",
    "ProviderConfig",
    "ProviderError",
    "Reply",
    "ScriptedProvider",
    "StreamOptions",
    "ThinkingLevel",
    "Tool",
    "Usage",
    "clear_command_cache",
    "complete",
    "is_connection_error",
    "is_context_overflow",
    "parse_model_ref",
    "prepare_messages",
    "resolve_config_value",
    "scripted_model",
    "system_prompt_text",
]

lazy_package(__name__)
