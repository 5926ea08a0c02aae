"""End to end: ``pi-memory chat -p`` as a real subprocess, the real ``openai`` and ``anthropic`` SDK
clients against a loopback server speaking their wire formats (streaming, tool calls), an
extension loaded with ``-e`` providing the tool; then the session file it wrote is opened by the
real pi (1.6.0, under Node) and must give the same ``buildSessionContext`` and bytes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import loopback
from peer_modules import load_test_module
from pi_memory.session import SessionManager, jsjson

TESTS = Path(__file__).resolve().parents[1]
PI_MEMORY = str(Path(sys.executable).parent / "pi-memory")


interop = load_test_module("interop/conftest.py")

EXTENSION = '''
def extension(pi, config=None):
    pi.register_tool({
        "name": "get_weather",
        "description": "Current weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        "execute": lambda args: f"Sunny, 21°C in {args['city']}",
    })
'''


@pytest.fixture
def setup(tmp_path: Path, _isolated_home: Path, server: Any) -> dict[str, Any]:
    settings = {"providers": {
        "loop-oa": {"api": "openai-completions", "baseUrl": server.url + "/v1", "apiKey": "sk-test",
                    "models": [{"id": "gpt-loop", "contextWindow": 100000, "cost": {"input": 1, "output": 2}}]},
        "loop-an": {"api": "anthropic-messages", "baseUrl": server.url, "apiKey": "sk-ant-test",
                    "models": [{"id": "claude-loop", "contextWindow": 200000}]}}}
    agent = _isolated_home / ".pi" / "agent"
    agent.mkdir(parents=True, exist_ok=True)
    (agent / "settings.json").write_text(json.dumps(settings))
    ext = tmp_path / "weather.py"
    ext.write_text(EXTENSION)
    project = tmp_path / "project"
    project.mkdir()
    return {"ext": str(ext), "cwd": project, "session": str(tmp_path / "run.jsonl")}


def chat(setup: dict[str, Any], model: str, prompt: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PI_MEMORY, "chat", "-p", prompt, "--model", model, "-e", setup["ext"],
                           "--session", setup["session"]], cwd=setup["cwd"], env=os.environ.copy(),
                          capture_output=True, text=True, timeout=60)


def openai_tool_then_text(server: Any) -> None:
    chunk = loopback.chunk
    server.openai_stream([
        chunk({"role": "assistant", "content": "Let me check."}),
        chunk({"tool_calls": [{"index": 0, "id": "call_w1", "type": "function",
                               "function": {"name": "get_weather", "arguments": ""}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"city":'}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": ' "Paris"}'}}]}),
        chunk({}, "tool_calls"),
        chunk(usage={"prompt_tokens": 50, "completion_tokens": 12, "total_tokens": 62}, choices=False),
    ])
    server.openai_stream([
        chunk({"role": "assistant", "content": "It is sunny"}),
        chunk({"content": " in Paris."}),
        chunk({}, "stop"),
        chunk(usage={"prompt_tokens": 80, "completion_tokens": 6, "total_tokens": 86}, choices=False),
    ])


def anthropic_events(*blocks: dict[str, Any], reason: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [{"type": "message_start", "message": {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-loop", "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 40, "output_tokens": 1, "cache_read_input_tokens": 0,
                  "cache_creation_input_tokens": 0}}}]
    for index, (start, deltas) in enumerate((b["start"], b["deltas"]) for b in blocks):
        events.append({"type": "content_block_start", "index": index, "content_block": start})
        events += [{"type": "content_block_delta", "index": index, "delta": d} for d in deltas]
        events.append({"type": "content_block_stop", "index": index})
    events.append({"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": None},
                   "usage": {"output_tokens": 9}})
    events.append({"type": "message_stop"})
    return events


def anthropic_tool_then_text(server: Any) -> None:
    server.anthropic_stream(anthropic_events(
        {"start": {"type": "text", "text": ""}, "deltas": [{"type": "text_delta", "text": "Let me check."}]},
        {"start": {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {}},
         "deltas": [{"type": "input_json_delta", "partial_json": '{"city": '},
                    {"type": "input_json_delta", "partial_json": '"Paris"}'}]},
        reason="tool_use"))
    server.anthropic_stream(anthropic_events(
        {"start": {"type": "text", "text": ""}, "deltas": [{"type": "text_delta", "text": "It is sunny"},
                                                           {"type": "text_delta", "text": " in Paris."}]},
        reason="end_turn"))


def check_session(path: str, provider: str) -> SessionManager:
    sm = SessionManager.open(path)
    roles = [e["message"]["role"] if e["type"] == "message" else e["type"] for e in sm.get_entries()]
    # the memory extension (installed, so always loaded) saves its prompt snapshot first
    assert roles == ["custom", "model_change", "user", "assistant", "toolResult", "assistant"]
    entries = sm.get_entries()[1:]
    call = entries[2]["message"]
    assert call["provider"] == provider and call["stopReason"] == "toolUse"
    assert call["content"][-1]["name"] == "get_weather" and call["content"][-1]["arguments"] == {"city": "Paris"}
    assert entries[3]["message"]["content"] == [{"type": "text", "text": "Sunny, 21°C in Paris"}]
    assert entries[4]["message"]["usage"]["totalTokens"] > 0
    return sm


def test_openai_sdk_end_to_end(setup: dict[str, Any], server: Any) -> None:
    openai_tool_then_text(server)
    proc = chat(setup, "loop-oa/gpt-loop", "Weather in Paris?")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "It is sunny in Paris.\n"
    first, second = (r.body for r in server.requests)
    assert first["stream"] is True and first["model"] == "gpt-loop"
    assert next(t["function"]["name"] for t in first["tools"]) == "get_weather"
    assert first["messages"][-1] == {"role": "user", "content": "Weather in Paris?"} or \
        first["messages"][-1]["content"] == [{"type": "text", "text": "Weather in Paris?"}]
    tool_message = second["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == "call_w1"
    assert "Sunny, 21°C in Paris" in json.dumps(tool_message, ensure_ascii=False)
    sm = check_session(setup["session"], "loop-oa")
    assert sm.get_entries()[5]["message"]["usage"]["cost"]["total"] > 0


def test_anthropic_sdk_end_to_end(setup: dict[str, Any], server: Any) -> None:
    anthropic_tool_then_text(server)
    proc = chat(setup, "loop-an/claude-loop", "Weather in Paris?")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "It is sunny in Paris.\n"
    first, second = (r.body for r in server.requests)
    assert server.requests[0].path == "/v1/messages" and first["stream"] is True
    assert next(t["name"] for t in first["tools"]) == "get_weather"
    result = second["messages"][-1]["content"][0]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_01"
    check_session(setup["session"], "loop-an")


def test_provider_error_exits_non_zero(setup: dict[str, Any], server: Any) -> None:
    server.json_reply(400, {"error": {"message": "model 'gpt-loop' is not available", "type": "invalid_request_error"}})
    proc = chat(setup, "loop-oa/gpt-loop", "hi")
    assert proc.returncode == 1
    assert "not available" in proc.stderr
    last = SessionManager.open(setup["session"]).get_entries()[-1]["message"]
    assert last["stopReason"] == "error"  # persisted, as pi does


def test_unknown_model_is_a_usage_error(setup: dict[str, Any]) -> None:
    proc = chat(setup, "nowhere/model", "hi")
    assert proc.returncode == 2 and "Unknown provider 'nowhere'" in proc.stderr


@pytest.mark.interop
@pytest.mark.slow
def test_pi_opens_the_session_with_the_same_context(setup: dict[str, Any], server: Any) -> None:
    peer = interop.find_node_peer()
    openai_tool_then_text(server)
    assert chat(setup, "loop-oa/gpt-loop", "Weather in Paris?").returncode == 0
    anthropic_tool_then_text(server)
    proc = chat(setup, "loop-an/claude-loop", "And tomorrow?")  # the same file, continued with another provider
    assert proc.returncode == 0, proc.stderr
    path = setup["session"]
    (dump,) = peer.run_json("pi_session.mjs", "dump", path)
    ours = SessionManager.open(path)
    assert dump["leafContext"] == jsjson.dumps(ours.build_session_context().to_dict())
    assert dump["serialized"] == Path(path).read_text(encoding="utf-8")
    assert dump["ids"] == [e["id"] for e in ours.get_entries()]
    context = json.loads(dump["leafContext"])
    assert [m["role"] for m in context["messages"]] == ["user", "assistant", "toolResult", "assistant"] * 2
    assert context["model"] == {"provider": "loop-an", "modelId": "claude-loop"}
