"""The real ``anthropic`` SDK against a loopback server speaking Messages SSE."""

from __future__ import annotations

from typing import Any

import pytest
from provider_runs import stream_all

from pi_memory.providers import AnthropicMessagesProvider, Context, Model, ModelCost, StreamOptions, is_context_overflow

KEYS = ["role", "content", "api", "provider", "model", "usage", "stopReason", "timestamp"]


def model(url: str, **kw: Any) -> Model:
    base = {"id": "claude-test", "name": "Claude Test", "api": "anthropic-messages", "provider": "anthropic",
            "base_url": url, "max_tokens": 8000, "cost": ModelCost(3, 15, 0.3, 3.75), "reasoning": True}
    return Model(**{**base, **kw})


async def run(m: Model, context: Context, options: StreamOptions | None = None,
              abort_after: str | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    opts = options or StreamOptions(api_key="sk-ant-test", max_retries=0)
    return await stream_all(AnthropicMessagesProvider(), m, context, opts, abort_after)


def message_start(input_tokens: int = 25, cache_read: int = 0, cache_write: int = 0) -> dict[str, Any]:
    return {"type": "message_start", "message": {
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-test", "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": 1, "cache_read_input_tokens": cache_read,
                  "cache_creation_input_tokens": cache_write}}}


def block_start(index: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def delta(index: int, body: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": body}


def stop(index: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": index}


def message_delta(reason: str, output_tokens: int, **usage: Any) -> dict[str, Any]:
    return {"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": None},
            "usage": {"output_tokens": output_tokens, **usage}}


END = {"type": "message_stop"}
HELLO = Context(system_prompt="You are terse.", messages=[{"role": "user", "content": "hi", "timestamp": 1}])


@pytest.mark.anyio
async def test_thinking_text_and_tool_use_stream(server: Any) -> None:
    server.anthropic_stream([
        message_start(input_tokens=100, cache_read=50, cache_write=20),
        {"type": "ping"},
        block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
        delta(0, {"type": "thinking_delta", "thinking": "The user wants"}),
        delta(0, {"type": "thinking_delta", "thinking": " a memory."}),
        delta(0, {"type": "signature_delta", "signature": "EqQBCkYIARgC"}),
        stop(0),
        block_start(1, {"type": "text", "text": ""}),
        delta(1, {"type": "text_delta", "text": "Saving"}),
        delta(1, {"type": "text_delta", "text": " that."}),
        stop(1),
        block_start(2, {"type": "tool_use", "id": "toolu_01A", "name": "memory_add", "input": {}}),
        delta(2, {"type": "input_json_delta", "partial_json": ""}),
        delta(2, {"type": "input_json_delta", "partial_json": '{"content": "likes'}),
        delta(2, {"type": "input_json_delta", "partial_json": ' tea", "target": "user"}'}),
        stop(2),
        message_delta("tool_use", 42),
        END,
    ])
    events, final = await run(model(server.url), HELLO)
    assert [(e["type"], e.get("contentIndex"), e.get("delta")) for e in events] == [
        ("start", None, None),
        ("thinking_start", 0, None),
        ("thinking_delta", 0, "The user wants"),
        ("thinking_delta", 0, " a memory."),
        ("thinking_end", 0, None),
        ("text_start", 1, None),
        ("text_delta", 1, "Saving"),
        ("text_delta", 1, " that."),
        ("text_end", 1, None),
        ("toolcall_start", 2, None),
        ("toolcall_delta", 2, ""),
        ("toolcall_delta", 2, '{"content": "likes'),
        ("toolcall_delta", 2, ' tea", "target": "user"}'),
        ("toolcall_end", 2, None),
        ("done", None, None),
    ]
    assert events[-1]["reason"] == "toolUse"
    assert events[4]["content"] == "The user wants a memory." and events[8]["content"] == "Saving that."
    assert list(final) == KEYS
    c_in, c_out, c_read, c_write = 3 / 1e6 * 100, 15 / 1e6 * 42, 0.3 / 1e6 * 50, 3.75 / 1e6 * 20
    assert final == {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "The user wants a memory.", "thinkingSignature": "EqQBCkYIARgC"},
            {"type": "text", "text": "Saving that."},
            {"type": "toolCall", "id": "toolu_01A", "name": "memory_add",
             "arguments": {"content": "likes tea", "target": "user"}},
        ],
        "api": "anthropic-messages",
        "provider": "anthropic",
        "model": "claude-test",
        "usage": {"input": 100, "output": 42, "cacheRead": 50, "cacheWrite": 20, "totalTokens": 212,
                  "cost": {"input": c_in, "output": c_out, "cacheRead": c_read, "cacheWrite": c_write,
                           "total": c_in + c_out + c_read + c_write}},
        "stopReason": "toolUse",
        "timestamp": final["timestamp"],
    }
    assert [list(b) for b in final["content"]] == [["type", "thinking", "thinkingSignature"], ["type", "text"],
                                                   ["type", "id", "name", "arguments"]]
    request = server.requests[0]
    assert request.path == "/v1/messages"
    # anthropic 2.x sends the API key as a bearer token (1.x used x-api-key).
    assert request.headers["authorization"] == "Bearer sk-ant-test"
    assert request.headers["anthropic-version"]


@pytest.mark.anyio
async def test_pi_messages_are_converted_for_messages_api(server: Any) -> None:
    server.anthropic_stream([message_start(), message_delta("end_turn", 3), END])
    same = {"api": "anthropic-messages", "provider": "anthropic", "model": "claude-test"}
    other = {"api": "openai-responses", "provider": "openai", "model": "gpt-5"}
    usage = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
             "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": "what is this?"},
                                     {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}],
         "timestamp": 1},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "an image", "thinkingSignature": "sig-1"},
            {"type": "thinking", "thinking": "unsigned thought"},
            {"type": "thinking", "thinking": "[Reasoning redacted]", "thinkingSignature": "opaque", "redacted": True},
            {"type": "text", "text": "Let me look."},
            {"type": "toolCall", "id": "toolu_1", "name": "inspect", "arguments": {"x": 1}},
            {"type": "toolCall", "id": "toolu_2", "name": "inspect", "arguments": {"x": 2}},
        ], **same, "usage": usage, "stopReason": "toolUse", "timestamp": 2},
        {"role": "toolResult", "toolCallId": "toolu_1", "toolName": "inspect",
         "content": [{"type": "text", "text": "a cat"}], "isError": False, "timestamp": 3},
        {"role": "toolResult", "toolCallId": "toolu_2", "toolName": "inspect",
         "content": [{"type": "text", "text": "failed"}, {"type": "image", "data": "R0lG", "mimeType": "image/gif"}],
         "isError": True, "timestamp": 4},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "other model's thought", "thinkingSignature": "enc"},
            {"type": "toolCall", "id": "call_9|fc_very+long/id", "name": "inspect", "arguments": {},
             "thoughtSignature": "x"}],
         **other, "usage": usage, "stopReason": "toolUse", "timestamp": 5},
        {"role": "toolResult", "toolCallId": "call_9|fc_very+long/id", "toolName": "inspect",
         "content": [{"type": "image", "data": "AAAA", "mimeType": "image/jpeg"}], "isError": False, "timestamp": 6},
        {"role": "custom", "customType": "note", "content": [{"type": "text", "text": "remember tea"}],
         "display": True, "timestamp": 7},
        {"role": "user", "content": "thanks", "timestamp": 8},
    ]
    tools = [{"name": "inspect", "description": "Look closely",
              "parameters": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"],
                             "additionalProperties": False}}]
    _, final = await run(model(server.url), Context(system_prompt="SYS", messages=messages, tools=tools),
                   StreamOptions(api_key="k", max_tokens=1000, temperature=0.5, max_retries=0))
    assert final["stopReason"] == "stop", final.get("errorMessage")
    body = server.requests[0].body
    eph = {"type": "ephemeral"}
    assert body["model"] == "claude-test" and body["stream"] is True
    assert body["max_tokens"] == 1000 and body["temperature"] == 0.5 and "thinking" not in body
    assert body["system"] == [{"type": "text", "text": "SYS", "cache_control": eph}]
    assert body["tools"] == [{"name": "inspect", "description": "Look closely", "input_schema": {
        "type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"],
        "additionalProperties": False}, "cache_control": eph}]
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "what is this?"},
                                     {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                                  "data": "iVBORw0KGgo="}}]},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "an image", "signature": "sig-1"},
            {"type": "text", "text": "unsigned thought"},
            {"type": "redacted_thinking", "data": "opaque"},
            {"type": "text", "text": "Let me look."},
            {"type": "tool_use", "id": "toolu_1", "name": "inspect", "input": {"x": 1}},
            {"type": "tool_use", "id": "toolu_2", "name": "inspect", "input": {"x": 2}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "a cat", "is_error": False},
            {"type": "tool_result", "tool_use_id": "toolu_2",
             "content": "failed\n(image attached after the tool results)", "is_error": True},
            {"type": "text", "text": "Images from the error result of tool call toolu_2 (inspect):"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/gif", "data": "R0lG"}}]},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "call_9_fc_very_long_id", "name": "inspect", "input": {}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "call_9_fc_very_long_id", "is_error": False, "content": [
                {"type": "text", "text": "(see attached image)"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "AAAA"}}]}]},
        {"role": "user", "content": [{"type": "text", "text": "remember tea"}]},
        {"role": "user", "content": [{"type": "text", "text": "thanks", "cache_control": eph}]},
    ]


@pytest.mark.anyio
async def test_thinking_budget_request(server: Any) -> None:
    server.anthropic_stream([message_start(), message_delta("end_turn", 1), END])
    server.anthropic_stream([message_start(), message_delta("end_turn", 1), END])
    await run(model(server.url), HELLO, StreamOptions(api_key="k", reasoning="medium", temperature=0.3, max_retries=0))
    await run(model(server.url), HELLO, StreamOptions(api_key="k", reasoning="off", max_tokens=500, max_retries=0))
    thinking, off = server.requests[0].body, server.requests[1].body
    assert thinking["thinking"] == {"type": "enabled", "budget_tokens": 6976}  # 8000 ceiling - 1024 for the answer
    assert thinking["max_tokens"] == 8000 and "temperature" not in thinking
    assert off["thinking"] == {"type": "disabled"} and off["max_tokens"] == 500


@pytest.mark.anyio
async def test_max_tokens_and_refusal_stop_reasons(server: Any) -> None:
    server.anthropic_stream([message_start(), block_start(0, {"type": "text", "text": ""}),
                             delta(0, {"type": "text_delta", "text": "cut"}), stop(0),
                             message_delta("max_tokens", 5), END])
    server.anthropic_stream([message_start(), message_delta("refusal", 0), END])
    _, length = await run(model(server.url), HELLO)
    events, refusal = await run(model(server.url), HELLO)
    assert length["stopReason"] == "length" and length["content"] == [{"type": "text", "text": "cut"}]
    assert events[-1]["type"] == "error"
    assert refusal["errorMessage"] == "The model refused to complete the request"


@pytest.mark.anyio
async def test_prompt_too_long_400_is_an_overflow(server: Any) -> None:
    server.json_reply(400, {"type": "error", "error": {
        "type": "invalid_request_error", "message": "prompt is too long: 213462 tokens > 200000 maximum"}})
    events, final = await run(model(server.url), HELLO)
    assert [e["type"] for e in events] == ["error"]
    assert list(final) == [*KEYS, "errorMessage"]
    assert final["errorMessage"] == "400 invalid_request_error: prompt is too long: 213462 tokens > 200000 maximum"
    assert is_context_overflow(final)


@pytest.mark.anyio
async def test_401_is_reported(server: Any) -> None:
    server.json_reply(401, {"type": "error", "error": {"type": "authentication_error",
                                                        "message": "invalid x-api-key"}})
    _, final = await run(model(server.url), HELLO)
    assert final["errorMessage"] == "401 authentication_error: invalid x-api-key"
    assert not is_context_overflow(final)


@pytest.mark.anyio
async def test_error_event_mid_stream(server: Any) -> None:
    server.anthropic_stream([
        message_start(), block_start(0, {"type": "text", "text": ""}), delta(0, {"type": "text_delta", "text": "Hi"}),
        {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
    ])
    events, final = await run(model(server.url), HELLO)
    assert [e["type"] for e in events] == ["start", "text_start", "text_delta", "error"]
    assert final["content"] == [{"type": "text", "text": "Hi"}]
    assert "Overloaded" in final["errorMessage"]
    assert not is_context_overflow(final)


@pytest.mark.anyio
async def test_malformed_json_and_truncated_streams(server: Any) -> None:
    server.anthropic_stream([message_start(), b"event: content_block_start\ndata: {oops\n\n"])
    server.anthropic_stream([message_start(), block_start(0, {"type": "text", "text": ""}),
                             delta(0, {"type": "text_delta", "text": "Hi"})])
    _, bad = await run(model(server.url), HELLO)
    events, cut = await run(model(server.url), HELLO)
    assert bad["stopReason"] == "error" and bad["errorMessage"].startswith("Malformed JSON from provider")
    assert [e["type"] for e in events][-2:] == ["text_end", "error"]
    assert cut["errorMessage"] == "Anthropic stream ended without a stop reason"
    assert cut["usage"]["input"] == 25  # what message_start reported survives the failure


@pytest.mark.anyio
async def test_connection_refused(refused_url: str) -> None:
    _, final = await run(model(refused_url), HELLO)
    assert final["stopReason"] == "error" and final["errorMessage"].startswith("Connection error")


@pytest.mark.anyio
async def test_abort_mid_stream(server: Any) -> None:
    server.anthropic_stream([message_start(), block_start(0, {"type": "text", "text": ""}),
                             delta(0, {"type": "text_delta", "text": "Hello"}),
                             delta(0, {"type": "text_delta", "text": " there"}), stop(0),
                             message_delta("end_turn", 2), END], delay=5.0)
    events, final = await run(model(server.url), HELLO, abort_after="start")
    assert events[-1]["type"] == "error" and events[-1]["reason"] == "aborted"
    assert final["stopReason"] == "aborted" and final["errorMessage"] == "Request was aborted"
