"""The provider contract (:mod:`pi_memory.providers.base`): a provider never raises — a failure,
a stream that ends without a result and an abort all end with an ``error`` event the agent loop
can store like any message — and an abort interrupts a provider even while it waits.

The providers here are minimal stand-ins for a model (the only stand-in the suite allows)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from pi_memory.providers import Context, Provider, StreamOptions, scripted_model
from pi_memory.providers.base import ABORTED_MESSAGE, BaseProvider, MessageBuilder

pytestmark = pytest.mark.anyio
MODEL = scripted_model()


class Talking(BaseProvider):
    """Says ``text`` in two pieces, waiting ``pause`` seconds between them, then raises or stops."""

    def __init__(self, *, pause: float = 0.0, fail: BaseException | None = None, finish: bool = True) -> None:
        self.pause, self.fail, self.finish = pause, fail, finish
        self.cancelled = False

    async def _run(self, model: Any, context: Context, options: StreamOptions, out: MessageBuilder) -> None:
        out.start()
        index = out.text_start()
        out.text_delta(index, "Hel")
        try:
            await asyncio.sleep(self.pause)
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        out.text_delta(index, "lo")
        out.end_block(index)
        if self.fail is not None:
            raise self.fail
        if self.finish:
            out.finish("stop")


async def events(provider: BaseProvider, options: StreamOptions | None = None) -> list[dict[str, Any]]:
    return [dict(e) async for e in provider.stream(MODEL, Context(), options)]


async def test_a_finished_stream_ends_with_done() -> None:
    got = await events(Talking())
    assert got[-1]["type"] == "done" and got[-1]["message"]["content"] == [{"type": "text", "text": "Hello"}]
    assert isinstance(Talking(), Provider)


async def test_an_exception_becomes_an_error_message_with_what_was_received() -> None:
    got = await events(Talking(fail=RuntimeError("socket closed")))
    final = got[-1]
    assert final["type"] == "error" and final["reason"] == "error"
    assert final["error"]["stopReason"] == "error" and "socket closed" in final["error"]["errorMessage"]
    assert final["error"]["content"] == [{"type": "text", "text": "Hello"}]


async def test_a_stream_that_ends_without_a_result_says_so() -> None:
    final = (await events(Talking(finish=False)))[-1]
    assert final["error"]["errorMessage"] == "Provider stream ended without a result"


async def test_an_abort_interrupts_a_provider_that_is_waiting() -> None:
    provider = Talking(pause=30)
    signal = asyncio.Event()
    seen: list[str] = []
    async for event in provider.stream(MODEL, Context(), StreamOptions(signal=signal)):
        seen.append(event["type"])
        if event["type"] == "text_delta":
            signal.set()
        if event["type"] == "error":
            final = event["error"]
    assert provider.cancelled and seen[-1] == "error"
    assert final["stopReason"] == "aborted" and final["errorMessage"] == ABORTED_MESSAGE
    assert final["content"] == [{"type": "text", "text": "Hel"}]  # what arrived before the abort


async def test_an_abort_before_the_call_sends_nothing() -> None:
    signal = asyncio.Event()
    signal.set()
    provider = Talking()
    got = await events(provider, StreamOptions(signal=signal))
    assert [e["type"] for e in got] == ["error"] and got[0]["error"]["stopReason"] == "aborted"
