"""The scripted provider: deterministic replies through the real event protocol."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from pi_memory.providers import Context, ModelCost, Provider, ScriptedProvider, StreamOptions, scripted_model

MODEL = scripted_model()
KEYS = ["role", "content", "api", "provider", "model", "usage", "stopReason", "timestamp"]


async def events_of(provider: ScriptedProvider, context: Context | None = None,
                    options: StreamOptions | None = None) -> list[dict[str, Any]]:
    return [dict(e) async for e in provider.stream(MODEL, context or Context(), options)]


def final(events: list[dict[str, Any]]) -> dict[str, Any]:
    return events[-1].get("message") or events[-1]["error"]


def test_it_is_a_provider() -> None:
    assert isinstance(ScriptedProvider([]), Provider)


@pytest.mark.anyio
async def test_text_streams_word_by_word() -> None:
    events = await events_of(ScriptedProvider(["Hello there, world."]))
    assert [(e["type"], e.get("delta")) for e in events] == [
        ("start", None), ("text_start", None), ("text_delta", "Hello "), ("text_delta", "there, "),
        ("text_delta", "world."), ("text_end", None), ("done", None)]
    message = final(events)
    assert list(message) == KEYS
    assert message["api"] == "scripted" and message["provider"] == "scripted" and message["model"] == "echo"
    assert message["content"] == [{"type": "text", "text": "Hello there, world."}]
    assert message["stopReason"] == "stop"


@pytest.mark.anyio
async def test_replies_are_consumed_in_order_and_then_run_out_with_a_clear_error() -> None:
    provider = ScriptedProvider(["one", {"text": "two"}])
    texts = [final(await events_of(provider))["content"][0]["text"] for _ in range(2)]
    assert texts == ["one", "two"] and provider.remaining == 0
    events = await events_of(provider)
    assert [e["type"] for e in events] == ["error"]
    message = final(events)
    assert message["stopReason"] == "error" and list(message) == [*KEYS, "errorMessage"]
    assert message["errorMessage"].startswith("The scripted provider has no reply left: its script held 2 replies")


@pytest.mark.anyio
async def test_thinking_and_tool_calls_with_deterministic_ids() -> None:
    provider = ScriptedProvider([
        {"thinking": "Need to save.", "text": "Saving.",
         "tool_calls": [{"name": "memory_add", "arguments": {"content": "likes tea and long argument text"}},
                        {"name": "memory_read", "arguments": {}}]},
        {"tool_calls": [{"name": "memory_read", "arguments": {}, "id": "custom-id"}]},
    ])
    first = await events_of(provider)
    types = [e["type"] for e in first]
    assert types[:6] == ["start", "thinking_start", "thinking_delta", "thinking_delta", "thinking_delta",
                         "thinking_end"]
    assert types.count("toolcall_start") == 2 and types[-1] == "done" and first[-1]["reason"] == "toolUse"
    assert types.count("toolcall_delta") > 3  # arguments arrive in pieces
    assert final(first)["content"] == [
        {"type": "thinking", "thinking": "Need to save."},
        {"type": "text", "text": "Saving."},
        {"type": "toolCall", "id": "call_1_1", "name": "memory_add",
         "arguments": {"content": "likes tea and long argument text"}},
        {"type": "toolCall", "id": "call_1_2", "name": "memory_read", "arguments": {}},
    ]
    assert final(await events_of(provider))["content"][0]["id"] == "custom-id"


@pytest.mark.anyio
async def test_raw_invalid_arguments_reach_the_message_as_arguments_error() -> None:
    message = final(await events_of(ScriptedProvider([{"tool_calls": [{"name": "f", "arguments": '{"a": '}]}])))
    assert message["content"][0]["arguments"] == {}
    assert "Received arguments:\n{\"a\": " in message["content"][0]["argumentsError"]


@pytest.mark.anyio
async def test_function_scripts_see_the_context_and_may_be_async() -> None:
    seen: list[int] = []

    def sync(context: Context) -> str:
        seen.append(len(context.messages))
        return f"{len(context.messages)} messages"

    async def slow(context: Context) -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"text": context.system_prompt or "", "stop_reason": "length"}

    context = Context(system_prompt="sys", messages=[{"role": "user", "content": "a", "timestamp": 1}] * 3)
    assert final(await events_of(ScriptedProvider(sync), context))["content"][0]["text"] == "3 messages"
    message = final(await events_of(ScriptedProvider(slow), context))
    assert message["content"][0]["text"] == "sys" and message["stopReason"] == "length"
    assert seen == [3]


@pytest.mark.anyio
async def test_requests_are_recorded_as_snapshots() -> None:
    provider = ScriptedProvider(["a", "b"])
    messages: list[dict[str, Any]] = [{"role": "user", "content": "first", "timestamp": 1}]
    await events_of(provider, Context(messages=messages))
    messages.append({"role": "user", "content": "second", "timestamp": 2})
    await events_of(provider, Context(messages=messages))
    assert [len(c.messages) for c in provider.requests] == [1, 2]


@pytest.mark.anyio
async def test_error_replies_and_bad_scripts_are_messages_not_exceptions() -> None:
    provider = ScriptedProvider([
        {"text": "partial", "error": "prompt is too long: 300000 tokens > 200000 maximum"},
        {"txt": "typo"},
        {"text": "x", "stop_reason": "aborted"},
    ])
    overflow = final(await events_of(provider))
    assert overflow["stopReason"] == "error" and overflow["content"] == [{"type": "text", "text": "partial"}]
    assert overflow["errorMessage"] == "prompt is too long: 300000 tokens > 200000 maximum"
    assert "unknown keys ['txt']" in final(await events_of(provider))["errorMessage"]
    assert "stop_reason must be" in final(await events_of(provider))["errorMessage"]


@pytest.mark.anyio
async def test_usage_estimated_or_given_and_priced_by_the_model() -> None:
    estimated = final(await events_of(ScriptedProvider(["12345678"]), Context(system_prompt="x" * 40)))
    assert estimated["usage"]["input"] == 10 and estimated["usage"]["output"] == 2
    assert estimated["usage"]["totalTokens"] == 12 and estimated["usage"]["cost"]["total"] == 0

    priced = dataclasses.replace(scripted_model("priced"), cost=ModelCost(1, 2, 0.5, 4))

    async def go() -> dict[str, Any]:
        reply = {"text": "ok", "usage": {"input": 1000, "output": 10, "cacheRead": 100, "cacheWrite": 5}}
        return dict(await ScriptedProvider([reply]).complete(priced, Context()))

    usage = (await go())["usage"]
    assert usage["totalTokens"] == 1115
    assert usage["cost"] == {"input": 1 / 1e6 * 1000, "output": 2 / 1e6 * 10, "cacheRead": 0.5 / 1e6 * 100,
                             "cacheWrite": 4 / 1e6 * 5,
                             "total": 1 / 1e6 * 1000 + 2 / 1e6 * 10 + 0.5 / 1e6 * 100 + 4 / 1e6 * 5}


@pytest.mark.anyio
async def test_abort_stops_a_slow_script() -> None:
    provider = ScriptedProvider(["one two three four five six"], delay=0.05)

    async def go() -> list[dict[str, Any]]:
        signal = asyncio.Event()
        out = []
        async for event in provider.stream(MODEL, Context(), StreamOptions(signal=signal)):
            out.append(dict(event))
            if event["type"] == "text_delta":
                signal.set()
        return out

    events = await go()
    assert [e["type"] for e in events] == ["start", "text_start", "text_delta", "error"]
    assert final(events)["stopReason"] == "aborted"
    assert final(events)["content"] == [{"type": "text", "text": "one "}]


@pytest.mark.anyio
async def test_echo_answers_the_last_user_message() -> None:
    context = Context(messages=[{"role": "user", "content": [{"type": "text", "text": "hi"},
                                                             {"type": "text", "text": "there"}], "timestamp": 1}])
    assert final(await events_of(ScriptedProvider.echo(), context))["content"][0]["text"] == "You said: hi there"


@pytest.mark.anyio
async def test_breaking_out_of_the_stream_early_is_clean() -> None:
    async def go() -> str:
        async for event in ScriptedProvider(["a b c"]).stream(MODEL, Context()):
            if event["type"] == "text_delta":
                break
        await asyncio.sleep(0)
        return "ok"

    assert await go() == "ok"


@pytest.mark.anyio
async def test_messages_go_into_a_session_and_come_back_as_context() -> None:
    from pi_memory.session import SessionManager, jsjson

    provider = ScriptedProvider([{"tool_calls": [{"name": "memory_read", "arguments": {"target": "user"}}]},
                                 "You like tea."])
    session = SessionManager.in_memory("/tmp/project")
    user = {"role": "user", "content": [{"type": "text", "text": "What do I like?"}], "timestamp": 1}
    session.append_message(user)
    first = await provider.complete(MODEL, Context(messages=session.build_session_context().messages))
    session.append_message(first)
    call = first["content"][0]
    session.append_message({"role": "toolResult", "toolCallId": call["id"], "toolName": call["name"],
                            "content": [{"type": "text", "text": "tea"}], "isError": False, "timestamp": 2})
    context = Context(messages=session.build_session_context().messages)
    second = await provider.complete(MODEL, context)
    assert second["content"] == [{"type": "text", "text": "You like tea."}]
    assert [m["role"] for m in provider.requests[1].messages] == ["user", "assistant", "toolResult"]
    line = jsjson.dumps(first)
    assert line.startswith('{"role":"assistant","content":[{"type":"toolCall","id":"call_1_1"')
    assert '"usage":{"input":' in line and line.endswith(f'"stopReason":"toolUse","timestamp":{first["timestamp"]}}}')
