"""A registry's provider as the agent sees it (:mod:`pi_memory.providers.keyed`): the key filled in
from the registry, and a missing key or an unknown api coming back as an error message, never
an exception. The requests go over TCP to the loopback server (tests/loopback.py)."""

from __future__ import annotations

from typing import Any

import pytest

from pi_memory.providers import Context, Model, ModelRegistry, StreamOptions


async def complete(registry: ModelRegistry, ref: str, text: str = "hi") -> dict[str, Any]:
    model = registry.resolve(ref)
    context = Context(messages=[{"role": "user", "content": text, "timestamp": 1}])
    return dict(await registry.get_provider(model).complete(model, context))


@pytest.mark.anyio
async def test_missing_key_is_an_error_message_that_says_what_to_set() -> None:
    registry = ModelRegistry({"providers": {"corp": {"baseUrl": "http://x/v1", "apiKey": "!exit 1"}}}, env={})
    message = await complete(registry, "openai/gpt-4.1")
    assert message["stopReason"] == "error"
    assert message["errorMessage"] == ("No API key for provider 'openai': set the OPENAI_API_KEY environment "
                                       "variable or providers.openai.apiKey in settings.json.")
    failed = await complete(registry, "corp/m")
    assert "the command 'exit 1' from providers.corp.apiKey failed" in failed["errorMessage"]
    assert "ANTHROPIC_API_KEY" in str(registry.auth_problem(registry.resolve("anthropic/claude-opus-4-5")))


@pytest.mark.anyio
async def test_registry_provider_sends_the_resolved_key(server: Any, oa_chunk: Any) -> None:
    server.openai_stream([oa_chunk({"content": "pong"}, "stop")])
    registry = ModelRegistry({"providers": {"loop": {"baseUrl": server.url + "/v1", "apiKey": "!printf sk-cmd"}}},
                             env={})
    message = await complete(registry, "loop/tiny")
    assert message["content"] == [{"type": "text", "text": "pong"}] and message["provider"] == "loop"
    assert server.requests[0].headers["authorization"] == "Bearer sk-cmd"
    assert server.requests[0].body["model"] == "tiny"


@pytest.mark.anyio
async def test_a_key_given_with_the_request_wins_and_needs_no_settings(server: Any, oa_chunk: Any) -> None:
    server.openai_stream([oa_chunk({"content": "pong"}, "stop")])
    registry = ModelRegistry({"providers": {"loop": {"baseUrl": server.url + "/v1", "apiKey": "!exit 1"}}}, env={})
    model = registry.resolve("loop/tiny")
    context = Context(messages=[{"role": "user", "content": "hi", "timestamp": 1}])
    message = await registry.get_provider(model).complete(model, context, StreamOptions(api_key="sk-given"))
    assert message["stopReason"] == "stop"
    assert server.requests[0].headers["authorization"] == "Bearer sk-given"


@pytest.mark.anyio
async def test_an_unknown_api_is_an_error_message_naming_the_supported_ones() -> None:
    model = Model(id="m", name="m", api="telepathy", provider="mind", base_url="http://x")
    events = [dict(e) async for e in ModelRegistry(env={}).get_provider(model).stream(model, Context())]
    assert [e["type"] for e in events] == ["error"]
    assert events[0]["error"]["errorMessage"].startswith("No provider for api 'telepathy' (model mind/m). Supported:")
