"""The real ``openai`` SDK against a loopback server speaking Chat Completions SSE."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from provider_runs import stream_all

from pi_memory.providers import (
    Context,
    Model,
    ModelCost,
    OpenAICompletionsProvider,
    StreamOptions,
    is_context_overflow,
)

KEYS = ["role", "content", "api", "provider", "model", "usage", "stopReason", "timestamp"]
USAGE_KEYS = ["input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost"]
COST_KEYS = ["input", "output", "cacheRead", "cacheWrite", "total"]


def model(url: str, **kw: Any) -> Model:
    base = {"id": "test-model", "name": "Test", "api": "openai-completions", "provider": "local",
            "base_url": url + "/v1", "cost": ModelCost(1, 2, 0.5, 0)}
    return Model(**{**base, **kw})


async def run(m: Model, context: Context, options: StreamOptions | None = None,
              abort_after: str | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    opts = options or StreamOptions(api_key="sk-test", max_retries=0)
    return await stream_all(OpenAICompletionsProvider(), m, context, opts, abort_after)


def summary(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for e in events:
        extra = e.get("delta", e.get("content", e.get("reason")))
        if e["type"] == "toolcall_end":
            extra = e["toolCall"]["arguments"]
        out.append((e["type"], e.get("contentIndex"), extra) if extra is not None or "contentIndex" in e
                   else (e["type"],))
    return out


HELLO = Context(system_prompt="Be brief.", messages=[{"role": "user", "content": "hi", "timestamp": 1}])


@pytest.mark.anyio
async def test_text_stream_events_final_message_and_usage(server: Any, oa_chunk: Any) -> None:
    server.openai_stream([
        oa_chunk({"role": "assistant", "content": ""}),
        oa_chunk({"content": "Hello"}),
        oa_chunk({"content": " world"}),
        oa_chunk({}, "stop"),
        oa_chunk(usage={"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15,
                        "prompt_tokens_details": {"cached_tokens": 4}}, choices=False),
    ])
    events, final = await run(model(server.url), HELLO)
    assert summary(events) == [
        ("start",),
        ("text_start", 0, None),
        ("text_delta", 0, "Hello"),
        ("text_delta", 0, " world"),
        ("text_end", 0, "Hello world"),
        ("done", None, "stop"),
    ]
    assert list(final) == KEYS
    assert list(final["usage"]) == USAGE_KEYS and list(final["usage"]["cost"]) == COST_KEYS
    cost_in, cost_out, cost_cached = 1 / 1_000_000 * 6, 2 / 1_000_000 * 5, 0.5 / 1_000_000 * 4
    assert final == {
        "role": "assistant",
        "content": [{"type": "text", "text": "Hello world"}],
        "api": "openai-completions",
        "provider": "local",
        "model": "test-model",
        "usage": {"input": 6, "output": 5, "cacheRead": 4, "cacheWrite": 0, "totalTokens": 15,
                  "cost": {"input": cost_in, "output": cost_out, "cacheRead": cost_cached, "cacheWrite": 0.0,
                           "total": cost_in + cost_out + cost_cached + 0.0}},
        "stopReason": "stop",
        "timestamp": final["timestamp"],
    }
    assert isinstance(final["timestamp"], int) and final["timestamp"] > 1_600_000_000_000
    request = server.requests[0]
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-test"
    assert request.body["stream"] is True
    assert request.body["stream_options"] == {"include_usage": True}
    assert request.body["messages"] == [{"role": "system", "content": "Be brief."},
                                        {"role": "user", "content": "hi"}]
    assert "store" not in request.body and "max_tokens" not in request.body


@pytest.mark.anyio
async def test_pi_messages_are_converted_for_chat_completions(server: Any, oa_chunk: Any) -> None:
    server.openai_stream([oa_chunk({"content": "ok"}, "stop")])
    m = model(server.url)
    same = {"api": "openai-completions", "provider": "local", "model": "test-model"}
    usage = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
             "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": "look"},
                                     {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
                                     {"type": "text", "text": ""}], "timestamp": 1},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "let me see", "thinkingSignature": "reasoning_content"},
            {"type": "text", "text": "Saving it."},
            {"type": "toolCall", "id": "call_a", "name": "memory_add", "arguments": {"content": "é", "n": 1}},
            {"type": "toolCall", "id": "call_b", "name": "memory_read", "arguments": {}},
        ], **same, "usage": usage, "stopReason": "toolUse", "timestamp": 2},
        {"role": "toolResult", "toolCallId": "call_a", "toolName": "memory_add",
         "content": [{"type": "text", "text": "added"}, {"type": "text", "text": "2 entries"}],
         "details": {"x": 1}, "isError": False, "timestamp": 3},
        {"role": "toolResult", "toolCallId": "call_b", "toolName": "memory_read",
         "content": [{"type": "image", "data": "R0lGOD==", "mimeType": "image/gif"}], "isError": False,
         "timestamp": 4},
        {"role": "custom", "customType": "memory-snapshot", "content": "MEMORY: likes tea", "display": False,
         "details": {"secret": True}, "timestamp": 5},
        {"role": "bashExecution", "command": "ls", "output": "a.txt", "exitCode": 2, "cancelled": False,
         "truncated": False, "timestamp": 6},
        {"role": "bashExecution", "command": "secret", "output": "x", "exitCode": 0, "cancelled": False,
         "truncated": False, "timestamp": 7, "excludeFromContext": True},
        {"role": "assistant", "content": [{"type": "text", "text": "partial"}], **same, "usage": usage,
         "stopReason": "aborted", "timestamp": 8, "errorMessage": "Request was aborted"},
        {"role": "compactionSummary", "summary": "We talked.", "tokensBefore": 100, "timestamp": 9},
        {"role": "branchSummary", "summary": "Tried X.", "fromId": "abcd1234", "timestamp": 10},
        {"role": "assistant", "content": [
            {"type": "toolCall", "id": "call_orphan", "name": "memory_read", "arguments": {"q": "tea"}}],
         **same, "usage": usage, "stopReason": "toolUse", "timestamp": 11},
        {"role": "user", "content": "and now?", "timestamp": 12},
    ]
    tools = [{"name": "memory_add", "description": "Add a memory",
              "parameters": {"type": "object", "properties": {"content": {"type": "string"}},
                             "required": ["content"]}}]
    await run(m, Context(system_prompt="SYS", messages=messages, tools=tools),
        StreamOptions(api_key="k", max_tokens=321, temperature=0.2, max_retries=0))
    body = server.requests[0].body
    assert body["max_tokens"] == 321 and body["temperature"] == 0.2
    assert body["tools"] == [{"type": "function", "function": tools[0]}]
    assert body["messages"] == [
        {"role": "system", "content": "SYS"},
        {"role": "user", "content": [
            {"type": "text", "text": "look"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}]},
        {"role": "assistant", "content": "Saving it.", "reasoning_content": "let me see", "tool_calls": [
            {"id": "call_a", "type": "function",
             "function": {"name": "memory_add", "arguments": '{"content":"é","n":1}'}},
            {"id": "call_b", "type": "function", "function": {"name": "memory_read", "arguments": "{}"}}]},
        {"role": "tool", "content": "added\n2 entries", "tool_call_id": "call_a"},
        {"role": "tool", "content": "(see attached image)", "tool_call_id": "call_b"},
        {"role": "user", "content": [{"type": "text", "text": "Attached image(s) from tool result:"},
                                     {"type": "image_url", "image_url": {"url": "data:image/gif;base64,R0lGOD=="}}]},
        {"role": "user", "content": [{"type": "text", "text": "MEMORY: likes tea"}]},
        {"role": "user", "content": [{"type": "text",
                                      "text": "Ran `ls`\n```\na.txt\n```\n\nCommand exited with code 2"}]},
        {"role": "user", "content": [{"type": "text", "text":
            "The conversation history before this point was compacted into the following summary:\n\n"
            "<summary>\nWe talked.\n</summary>"}]},
        {"role": "user", "content": [{"type": "text", "text":
            "The following is a summary of a branch that this conversation came back from:\n\n"
            "<summary>\nTried X.</summary>"}]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_orphan", "type": "function",
             "function": {"name": "memory_read", "arguments": '{"q":"tea"}'}}]},
        {"role": "tool", "content": "No result provided", "tool_call_id": "call_orphan"},
        {"role": "user", "content": "and now?"},
    ]


@pytest.mark.anyio
async def test_tool_call_deltas_split_across_chunks(server: Any, oa_chunk: Any) -> None:
    def tc(index: int, args: str, **kw: Any) -> dict[str, Any]:
        return {"tool_calls": [{"index": index, **kw, "function": {**kw.pop("function", {}), "arguments": args}}]}

    server.openai_stream([
        oa_chunk({"role": "assistant", "content": "Let me check."}),
        oa_chunk(tc(0, "", id="call_1", type="function", function={"name": "memory_read"})),
        oa_chunk(tc(0, '{"tar')),
        oa_chunk(tc(1, "", id="call_2", type="function", function={"name": "memory_add"})),
        oa_chunk(tc(0, 'get": "us')),
        oa_chunk(tc(1, '{"content": "likes \\u00e9')),
        oa_chunk(tc(0, 'er"}')),
        oa_chunk(tc(1, 'clairs"}')),
        oa_chunk({}, "tool_calls"),
        oa_chunk(usage={"prompt_tokens": 20, "completion_tokens": 7}, choices=False),
    ])
    events, final = await run(model(server.url), HELLO)
    assert summary(events) == [
        ("start",),
        ("text_start", 0, None),
        ("text_delta", 0, "Let me check."),
        ("toolcall_start", 1, None),
        ("toolcall_delta", 1, ""),
        ("toolcall_delta", 1, '{"tar'),
        ("toolcall_start", 2, None),
        ("toolcall_delta", 2, ""),
        ("toolcall_delta", 1, 'get": "us'),
        ("toolcall_delta", 2, '{"content": "likes \\u00e9'),
        ("toolcall_delta", 1, 'er"}'),
        ("toolcall_delta", 2, 'clairs"}'),
        ("text_end", 0, "Let me check."),
        ("toolcall_end", 1, {"target": "user"}),
        ("toolcall_end", 2, {"content": "likes éclairs"}),
        ("done", None, "toolUse"),
    ]
    assert final["content"] == [
        {"type": "text", "text": "Let me check."},
        {"type": "toolCall", "id": "call_1", "name": "memory_read", "arguments": {"target": "user"}},
        {"type": "toolCall", "id": "call_2", "name": "memory_add", "arguments": {"content": "likes éclairs"}},
    ]
    assert final["stopReason"] == "toolUse" and final["usage"]["totalTokens"] == 27
    # While streaming, the partial arguments grew as far as the text allowed.
    partial_args = [e["partial"]["content"][1]["arguments"] for e in events
                    if e["type"] == "toolcall_delta" and e["contentIndex"] == 1]
    assert partial_args[-1] == {"target": "user"}


@pytest.mark.anyio
async def test_invalid_tool_json_is_kept_as_arguments_error(server: Any, oa_chunk: Any) -> None:
    server.openai_stream([
        oa_chunk({"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "f", "arguments": '{"a": 1,,'}}]}),
        oa_chunk({}, "tool_calls"),
    ])
    _, final = await run(model(server.url), HELLO)
    call = final["content"][0]
    assert list(call) == ["type", "id", "name", "arguments", "argumentsError"]
    assert call["arguments"] == {}
    assert call["argumentsError"].endswith('\n\nReceived arguments:\n{"a": 1,,')


@pytest.mark.anyio
async def test_reasoning_content_becomes_thinking_and_stop_without_usage(server: Any, oa_chunk: Any) -> None:
    server.openai_stream([
        oa_chunk({"role": "assistant", "reasoning_content": "Think"}),
        oa_chunk({"reasoning_content": "ing."}),
        oa_chunk({"content": "Done."}),
        oa_chunk({}, "stop"),
    ])
    events, final = await run(model(server.url), HELLO)
    assert [e["type"] for e in events] == ["start", "thinking_start", "thinking_delta", "thinking_delta",
                                           "text_start", "text_delta", "thinking_end", "text_end", "done"]
    assert final["content"] == [{"type": "thinking", "thinking": "Thinking.", "thinkingSignature": "reasoning_content"},
                                {"type": "text", "text": "Done."}]
    assert final["usage"]["totalTokens"] == 0 and final["usage"]["cost"]["total"] == 0


@pytest.mark.anyio
async def test_stop_with_tool_calls_counts_as_tool_use(server: Any, oa_chunk: Any) -> None:
    server.openai_stream([
        oa_chunk({"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "f", "arguments": "{}"}}]}, "stop"),
    ])
    _, final = await run(model(server.url), HELLO)
    assert final["stopReason"] == "toolUse"


@pytest.mark.anyio
async def test_length_and_content_filter_finish_reasons(server: Any, oa_chunk: Any) -> None:
    server.openai_stream([oa_chunk({"content": "trunc"}, "length")])
    server.openai_stream([oa_chunk({"content": "bad"}, "content_filter")])
    _, first = await run(model(server.url), HELLO)
    events, second = await run(model(server.url), HELLO)
    assert first["stopReason"] == "length"
    assert events[-1]["type"] == "error" and events[-1]["reason"] == "error"
    assert second["stopReason"] == "error"
    assert second["errorMessage"] == "Provider finish_reason: content_filter"
    assert list(second) == [*KEYS, "errorMessage"]


@pytest.mark.anyio
async def test_http_400_context_overflow_is_an_error_message(server: Any) -> None:
    server.json_reply(400, {"error": {
        "message": "This model's maximum context length is 8192 tokens. However, your messages resulted in "
                   "9000 tokens. Please reduce the length of the messages.",
        "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}})
    events, final = await run(model(server.url), HELLO)
    assert [e["type"] for e in events] == ["error"]
    assert list(final) == [*KEYS, "errorMessage"]
    assert final["content"] == [] and final["stopReason"] == "error"
    assert final["errorMessage"] == (
        "400 invalid_request_error: This model's maximum context length is 8192 tokens. However, your messages "
        "resulted in 9000 tokens. Please reduce the length of the messages. [context_length_exceeded]")
    assert is_context_overflow(final)


@pytest.mark.anyio
async def test_llama_cpp_overflow_wording(server: Any) -> None:
    server.json_reply(400, {"error": {"code": 400, "message": "the request exceeds the available context size, "
                                      "try increasing it", "type": "exceed_context_size_error"}})
    _, final = await run(model(server.url), HELLO)
    assert is_context_overflow(final)


@pytest.mark.anyio
async def test_http_401_is_an_error_not_an_overflow(server: Any) -> None:
    server.json_reply(401, {"error": {"message": "Incorrect API key provided: sk-test.",
                                      "type": "invalid_request_error", "code": "invalid_api_key"}})
    events, final = await run(model(server.url), HELLO)
    assert [e["type"] for e in events] == ["error"]
    assert final["errorMessage"].startswith("401 invalid_request_error: Incorrect API key provided")
    assert not is_context_overflow(final)


@pytest.mark.anyio
async def test_connection_refused_is_an_error_message(refused_url: str) -> None:
    events, final = await run(model(refused_url), HELLO)
    assert [e["type"] for e in events] == ["error"]
    assert final["stopReason"] == "error"
    assert final["errorMessage"].startswith("Connection error")
    assert not is_context_overflow(final)


@pytest.mark.anyio
async def test_malformed_json_in_stream_keeps_what_arrived(server: Any, oa_chunk: Any) -> None:
    server.openai_stream([oa_chunk({"content": "Hel"}), b"data: {not json\n\n"], done=False)
    events, final = await run(model(server.url), HELLO)
    assert [e["type"] for e in events] == ["start", "text_start", "text_delta", "error"]
    assert final["content"] == [{"type": "text", "text": "Hel"}]
    assert final["stopReason"] == "error"
    assert final["errorMessage"].startswith("Malformed JSON from provider: ")


@pytest.mark.anyio
async def test_stream_without_finish_reason_is_an_error(server: Any, oa_chunk: Any) -> None:
    server.openai_stream([oa_chunk({"content": "cut"})])
    events, final = await run(model(server.url), HELLO)
    assert [e["type"] for e in events][-2:] == ["text_end", "error"]
    assert final["errorMessage"] == "Stream ended without finish_reason"


@pytest.mark.anyio
async def test_abort_mid_stream_ends_aborted_with_partial_content(server: Any, oa_chunk: Any) -> None:
    server.openai_stream([oa_chunk({"content": "one "}), oa_chunk({"content": "two"}), oa_chunk({}, "stop")],
                         delay=5.0)
    events, final = await run(model(server.url), HELLO, abort_after="text_delta")
    assert [e["type"] for e in events] == ["start", "text_start", "text_delta", "error"]
    assert events[-1]["reason"] == "aborted"
    assert final["stopReason"] == "aborted" and final["errorMessage"] == "Request was aborted"
    assert final["content"] == [{"type": "text", "text": "one "}]
    assert list(final) == [*KEYS, "errorMessage"]


@pytest.mark.anyio
async def test_abort_before_the_request_sends_nothing(server: Any) -> None:
    async def go() -> list[dict[str, Any]]:
        signal = asyncio.Event()
        signal.set()
        return [dict(e) async for e in OpenAICompletionsProvider().stream(
            model(server.url), HELLO, StreamOptions(signal=signal))]

    events = await go()
    assert [(e["type"], e["reason"]) for e in events] == [("error", "aborted")]
    assert server.requests == []


@pytest.mark.anyio
async def test_keyless_server_never_gets_the_openai_env_key(server: Any, oa_chunk: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-real-secret")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://example.invalid/v1")
    server.openai_stream([oa_chunk({"content": "hi"}, "stop")])
    _, final = await run(model(server.url, provider="ollama"), HELLO, StreamOptions(max_retries=0))
    assert final["stopReason"] == "stop"
    assert server.requests[0].headers["authorization"] == "Bearer no-key"


@pytest.mark.anyio
async def test_openai_reasoning_model_request_shape(server: Any, oa_chunk: Any) -> None:
    server.openai_stream([oa_chunk({"content": "ok"}, "stop")])
    m = model(server.url, provider="openai", id="o4-mini", reasoning=True, headers={"x-team": "a"})
    await run(m, HELLO, StreamOptions(api_key="k", max_tokens=100, reasoning="high", headers={"x-trace": "1"},
                                max_retries=0))
    request = server.requests[0]
    assert request.body["messages"][0] == {"role": "developer", "content": "Be brief."}
    assert request.body["max_completion_tokens"] == 100 and "max_tokens" not in request.body
    assert request.body["reasoning_effort"] == "high" and request.body["store"] is False
    assert request.headers["x-team"] == "a" and request.headers["x-trace"] == "1"


@pytest.mark.anyio
async def test_openrouter_reasoning_and_compat_switches(server: Any, oa_chunk: Any) -> None:
    server.openai_stream([oa_chunk({"content": "ok"}, "stop")])
    m = model(server.url, provider="openrouter", reasoning=True,
              compat={"supportsUsageInStreaming": False, "maxTokensField": "max_completion_tokens"})
    await run(m, HELLO, StreamOptions(api_key="k", max_tokens=50, reasoning="low", max_retries=0))
    body = server.requests[0].body
    assert body["reasoning"] == {"effort": "low"} and "reasoning_effort" not in body
    assert "stream_options" not in body and body["max_completion_tokens"] == 50
    assert json.dumps(body["messages"][0]) == '{"role": "system", "content": "Be brief."}'
