"""A registry's provider as the agent sees it: the API key filled in from the registry, and a
missing key or an unknown api reported as an error message (providers never raise)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from typing import TYPE_CHECKING

from .base import MessageBuilder, Provider, complete
from .types import (
    ANTHROPIC_MESSAGES_API,
    OPENAI_COMPLETIONS_API,
    SCRIPTED_API,
    AssistantMessage,
    AssistantMessageEvent,
    Context,
    Model,
    StreamOptions,
)

if TYPE_CHECKING:
    from .registry import ModelRegistry

__all__ = ["KeyedProvider"]


class KeyedProvider:
    """Adds the registry's key to each request; turns configuration problems into error messages."""

    def __init__(self, registry: ModelRegistry, inner: Provider | None) -> None:
        self._registry = registry
        self._inner = inner

    async def stream(
        self, model: Model, context: Context, options: StreamOptions | None = None
    ) -> AsyncIterator[AssistantMessageEvent]:
        opts = options or StreamOptions()
        if self._inner is None:
            problem: str | None = (f"No provider for api {model.api!r} (model {model.ref}). Supported: "
                                   f"{OPENAI_COMPLETIONS_API}, {ANTHROPIC_MESSAGES_API}, {SCRIPTED_API}.")
        else:
            problem = None if opts.api_key is not None else self._registry.auth_problem(model)
        if self._inner is None or problem is not None:
            events: list[AssistantMessageEvent] = []
            MessageBuilder(model, events.append).fail("error", problem or "")
            for event in events:
                yield event
            return
        if opts.api_key is None:
            opts = replace(opts, api_key=self._registry.get_api_key(model))
        async for event in self._inner.stream(model, context, opts):
            yield event

    async def complete(
        self, model: Model, context: Context, options: StreamOptions | None = None
    ) -> AssistantMessage:
        return await complete(self, model, context, options)
