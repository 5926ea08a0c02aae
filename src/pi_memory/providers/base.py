"""The provider contract, and the one place that makes every provider keep it.

A provider streams pi's ``AssistantMessageEvent`` sequence and never raises: HTTP errors, refused
connections, malformed streams and aborts all end the stream with an ``error`` event whose
message has ``stopReason`` "error" or "aborted" and an ``errorMessage``. The agent loop can then
persist that message like any other, as pi does.

Concrete providers subclass :class:`BaseProvider` and implement ``_run``, which feeds a
:class:`MessageBuilder`; the base class runs it as a task so an abort signal can interrupt it
even while it waits on the network.
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from typing import Protocol, runtime_checkable

from ._builder import MessageBuilder
from ._errors import ProviderError, describe_error, is_connection_error
from .overflow import is_context_overflow
from .types import AssistantMessage, AssistantMessageEvent, Context, Model, StreamOptions

__all__ = [
    "ABORTED_MESSAGE",
    "BaseProvider",
    "MessageBuilder",
    "Provider",
    "ProviderError",
    "complete",
    "is_connection_error",
    "is_context_overflow",
]

ABORTED_MESSAGE = "Request was aborted"


@runtime_checkable
class Provider(Protocol):
    """Anything that can answer a :class:`Context` with a stream of assistant-message events."""

    def stream(
        self, model: Model, context: Context, options: StreamOptions | None = None
    ) -> AsyncIterator[AssistantMessageEvent]:
        """Yield ``start``, block events, then exactly one ``done`` or ``error``; never raise."""
        ...

    async def complete(
        self, model: Model, context: Context, options: StreamOptions | None = None
    ) -> AssistantMessage:
        """The final message of :meth:`stream` (done or error), for callers that don't stream."""
        ...


async def complete(
    provider: Provider, model: Model, context: Context, options: StreamOptions | None = None
) -> AssistantMessage:
    """Drain ``provider.stream`` and return its final message."""
    final: AssistantMessage | None = None
    async for event in provider.stream(model, context, options):
        if event["type"] == "done":
            final = event["message"]
        elif event["type"] == "error":
            final = event["error"]
    if final is None:  # a third-party provider broke the contract; still never raise
        final = MessageBuilder(model, lambda _e: None).fail("error", "Provider stream ended without a result")
    return final


class BaseProvider(ABC):
    """Runs :meth:`_run` under the never-raise and abort rules."""

    @abstractmethod
    async def _run(self, model: Model, context: Context, options: StreamOptions, out: MessageBuilder) -> None:
        """Call the model and feed ``out``; end with ``out.finish(...)`` or ``out.fail(...)``, or raise."""

    async def complete(
        self, model: Model, context: Context, options: StreamOptions | None = None
    ) -> AssistantMessage:
        return await complete(self, model, context, options)

    async def stream(
        self, model: Model, context: Context, options: StreamOptions | None = None
    ) -> AsyncIterator[AssistantMessageEvent]:
        opts = options or StreamOptions()
        queue: asyncio.Queue[AssistantMessageEvent | None] = asyncio.Queue()
        out = MessageBuilder(model, queue.put_nowait)

        async def produce() -> None:
            try:
                if opts.signal is not None and opts.signal.is_set():
                    out.fail("aborted", ABORTED_MESSAGE)
                    return
                await self._run(model, context, opts, out)
                if not out.ended:
                    out.fail("error", "Provider stream ended without a result")
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the contract: every failure becomes a message
                if not out.ended:
                    out.fail("error", describe_error(exc))
            finally:
                queue.put_nowait(None)

        task = asyncio.create_task(produce())
        abort = asyncio.create_task(opts.signal.wait()) if opts.signal is not None else None
        try:
            while abort is None or not abort.done():
                getter = asyncio.create_task(queue.get())
                waiting = {getter} if abort is None else {getter, abort}
                await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if not getter.done():
                    getter.cancel()
                    break
                event = getter.result()
                if event is None:
                    return
                yield event
            # Aborted: stop the request where it is and end with what was received so far.
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            if not out.ended:
                out.fail("aborted", ABORTED_MESSAGE)
            while not queue.empty():
                pending = queue.get_nowait()
                if pending is not None:
                    yield pending
        finally:
            task.cancel()
            if abort is not None:
                abort.cancel()
