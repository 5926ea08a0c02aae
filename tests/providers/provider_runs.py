"""Driving an SDK provider against the loopback server the way the agent loop does (the provider
tests import this; tests/providers is on the path through its conftest)."""

from __future__ import annotations

import asyncio
from typing import Any

from pi_memory.providers import Context, Model, Provider, StreamOptions


async def stream_all(provider: Provider, model: Model, context: Context, options: StreamOptions,
                     abort_after: str | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every event of one call and its final message (or error); with ``abort_after``, the call's
    abort signal is set as soon as an event of that type arrives."""
    if abort_after:
        options.signal = asyncio.Event()
    events = []
    async for event in provider.stream(model, context, options):
        events.append(dict(event))
        if event["type"] == abort_after and options.signal is not None:
            options.signal.set()
    return events, events[-1].get("message") or events[-1]["error"]
