"""The agent loop through the session runtime, with the scripted provider: tool calls, blocking,
validation, errors, abort, turn limit, steering, persistence."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from host_helpers import kinds, make_runtime, texts

from pi_memory.memory import MemoryStore, create_memory_tools
from pi_memory.providers import Context
from pi_memory.session import SessionManager

ADD = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}


def adder(pi: Any) -> None:
    """A guide-dialect tool: ``execute(args)`` returning a string."""
    pi.register_tool({"name": "add", "description": "Add two numbers", "parameters": ADD,
                      "execute": lambda args: str(args["a"] + args["b"])})


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


@pytest.mark.anyio
async def test_tool_round_trip_is_persisted_in_order(tmp_path: Path) -> None:
    rt, provider, events = await make_runtime(tmp_path, [call("add", a="2", b=3), "It is 5."], adder)
    result = await rt.prompt("2+3?")
    assert result is not None and result.stop == "stop"
    sm = rt.session_manager
    assert kinds(sm.get_entries()) == ["model_change", "message:user", "message:assistant",
                                       "message:toolResult", "message:assistant"]
    tool_result = sm.get_entries()[3]["message"]
    assert list(tool_result) == ["role", "toolCallId", "toolName", "content", "isError", "timestamp"]
    assert tool_result["content"] == [{"type": "text", "text": "5"}]  # "2" was coerced to a number
    assert tool_result["toolCallId"] == "call_1_1" and tool_result["isError"] is False
    # the second model call saw the tool result, rebuilt from the session
    assert [m["role"] for m in provider.requests[1].messages] == ["user", "assistant", "toolResult"]
    assert provider.requests[0].tools[0]["name"] == "add"
    order = [e["type"] for e in events if e["type"] != "message_update"]
    assert order == ["agent_start", "turn_start", "message_start", "message_end", "message_start", "message_end",
                     "tool_execution_start", "tool_execution_end", "message_start", "message_end", "turn_end",
                     "turn_start", "message_start", "message_end", "turn_end", "agent_end"]
    assert any(e["type"] == "message_update" and e["assistantMessageEvent"]["type"] == "text_delta"
               for e in events)
    turn_end = next(e for e in events if e["type"] == "turn_end")
    assert turn_end.turn_index == 0 and turn_end.tool_results[0]["toolName"] == "add"
    file = sm.get_session_file()
    assert file is not None
    lines = Path(file).read_text().splitlines()
    assert json.loads(lines[0])["type"] == "session" and len(lines) == 6
    await rt.shutdown()


@pytest.mark.anyio
async def test_tool_call_block_and_failsafe(tmp_path: Path) -> None:
    executed: list[Any] = []

    def guard(pi: Any) -> None:
        pi.register_tool({"name": "rm", "description": "remove", "parameters": {"type": "object"},
                          "execute": lambda args: executed.append(args)})

        def policy(event: Any, ctx: Any) -> Any:
            if event.input.get("path") == "/":
                return {"block": True, "reason": "Refusing to remove /"}
            if event.input.get("path") == "boom":
                raise RuntimeError("policy crashed")
            if event.input.get("path") == "quiet":
                return {"block": True}
            return None
        pi.on("tool_call", policy)

    script = [{"tool_calls": [{"name": "rm", "arguments": {"path": p}} for p in ("/", "boom", "quiet", "ok")]},
              "done"]
    rt, _, _ = await make_runtime(tmp_path, script, guard)
    await rt.prompt("clean up")
    results = [e["message"] for e in rt.session_manager.get_entries()
               if e["type"] == "message" and e["message"]["role"] == "toolResult"]
    assert [(texts(m), m["isError"]) for m in results] == [
        ("Refusing to remove /", True), ("policy crashed", True), ("Tool execution was blocked", True), ("", False)]
    assert results[0]["details"] == {}
    assert executed == [{"path": "ok"}]


@pytest.mark.anyio
async def test_unknown_tool_invalid_arguments_and_throwing_tools(tmp_path: Path) -> None:
    def tools(pi: Any) -> None:
        adder(pi)

        def explode(tool_call_id: str, params: Any, signal: Any, on_update: Any, ctx: Any) -> Any:
            raise ValueError("disk on fire")
        pi.register_tool({"name": "explode", "description": "x", "parameters": {"type": "object"},
                          "execute": explode})

    script = [{"tool_calls": [{"name": "nope", "arguments": {}}, {"name": "add", "arguments": {"a": "x"}},
                              {"name": "explode", "arguments": {}}]}, "ok"]
    rt, _, _ = await make_runtime(tmp_path, script, tools)
    await rt.prompt("go")
    results = [e["message"] for e in rt.session_manager.get_entries()
               if e["type"] == "message" and e["message"]["role"] == "toolResult"]
    assert texts(results[0]) == "Tool nope not found"
    assert texts(results[1]).startswith('Validation failed for tool "add":\n'
                                        "  - root: must have required property 'b'\n  - /a: must be number\n")
    assert '"a": "x"' in texts(results[1])
    assert texts(results[2]) == "disk on fire" and results[2]["details"] == {}
    assert all(r["isError"] for r in results)


@pytest.mark.anyio
async def test_provider_error_is_an_assistant_message_not_a_crash(tmp_path: Path) -> None:
    rt, _, _ = await make_runtime(tmp_path, [{"text": "partial", "error": "503 upstream unavailable"}])
    result = await rt.prompt("hi")
    assert result is not None and result.stop == "error"
    last = rt.session_manager.get_entries()[-1]["message"]
    assert last["stopReason"] == "error" and last["errorMessage"] == "503 upstream unavailable"
    assert last["content"] == [{"type": "text", "text": "partial"}]


@pytest.mark.anyio
async def test_abort_stops_the_loop(tmp_path: Path) -> None:
    def aborter(pi: Any) -> None:
        def execute(tool_call_id: str, params: Any, signal: Any, on_update: Any, ctx: Any) -> str:
            ctx.abort()
            assert signal.aborted
            return "stopping"
        pi.register_tool({"name": "stop", "description": "", "parameters": {}, "execute": execute})
        pi.register_tool({"name": "after", "description": "", "parameters": {}, "execute": lambda a: "ran"})

    rt, provider, _ = await make_runtime(tmp_path, [{"tool_calls": [{"name": "stop"}, {"name": "after"}]},
                                                    "never"], aborter)
    await rt.prompt("go")
    assert len(provider.requests) == 1
    results = [texts(e["message"]) for e in rt.session_manager.get_entries()
               if e["type"] == "message" and e["message"]["role"] == "toolResult"]
    assert results == ["stopping", "Tool execution was aborted"]
    assert rt.is_idle() and rt.signal is None


@pytest.mark.anyio
async def test_turn_limit(tmp_path: Path) -> None:
    rt, provider, _ = await make_runtime(tmp_path, lambda ctx: call("add", a=1, b=1), adder, max_turns=3)
    result = await rt.prompt("loop forever")
    assert result is not None and result.stop == "turn_limit"
    assert len(provider.requests) == 3


@pytest.mark.anyio
async def test_memory_tools_tool_results_and_on_update(tmp_path: Path) -> None:
    updates: list[Any] = []

    def progress(pi: Any) -> None:
        async def execute(tool_call_id: str, params: Any, signal: Any, on_update: Any, ctx: Any) -> dict[str, Any]:
            await on_update({"content": [{"type": "text", "text": "half"}]})
            return {"content": [{"type": "text", "text": "done"}], "details": {"steps": 2}}
        pi.register_tool({"name": "slow", "description": "", "parameters": {}, "execute": execute})
        pi.on("tool_execution_update", lambda e: updates.append(e.partial_result))

    store = MemoryStore(tmp_path / "mem")
    script = [{"tool_calls": [{"name": "memory_add", "arguments": {"target": "user", "content": "Likes tea"}},
                              {"name": "memory_add", "arguments": {"target": "nobody", "content": "x"}},
                              {"name": "slow"}]}, "Saved."]
    rt, _, _ = await make_runtime(tmp_path, script, progress, tools=create_memory_tools(store))
    assert rt.get_active_tools()[:4] == ["memory_add", "memory_replace", "memory_remove", "memory_read"]
    assert "memory_add:" in rt.base_system_prompt()
    await rt.prompt("I like tea")
    results = [e["message"] for e in rt.session_manager.get_entries()
               if e["type"] == "message" and e["message"]["role"] == "toolResult"]
    assert results[0]["isError"] is False and results[0]["details"]["success"] is True
    assert results[1]["isError"] is True  # a ToolResult's is_error is honoured
    assert results[2]["details"] == {"steps": 2} and texts(results[2]) == "done"
    assert store.read("user")["entries"] == ["Likes tea"]
    assert updates == [{"content": [{"type": "text", "text": "half"}]}]


@pytest.mark.anyio
async def test_steering_skips_remaining_calls_and_follow_up_continues(tmp_path: Path) -> None:
    """Skipping needs one-at-a-time execution: a tool with pi's ``executionMode: "sequential"``."""
    def steer(pi: Any) -> None:
        def interrupt(args: Any) -> str:
            pi.send_message({"customType": "note", "content": "user changed their mind", "display": True},
                            deliver_as="steer")
            return "interrupted"
        pi.register_tool({"name": "first", "description": "", "parameters": {}, "execute": interrupt,
                          "executionMode": "sequential"})
        pi.register_tool({"name": "second", "description": "", "parameters": {}, "execute": lambda a: "ran"})

        def follow(event: Any, ctx: Any) -> None:
            if event.message.get("role") == "assistant" and texts(event.message) == "ok":
                pi.send_message({"customType": "later", "content": "one more thing", "display": False},
                                {"deliverAs": "followUp"})
        pi.on("message_end", follow)

    rt, provider, _ = await make_runtime(tmp_path, [{"tool_calls": [{"name": "first"}, {"name": "second"}]},
                                                    "ok", "final"], steer)
    await rt.prompt("go")
    entries = rt.session_manager.get_entries()
    assert kinds(entries)[1:] == ["message:user", "message:assistant", "message:toolResult", "message:toolResult",
                                  "custom_message", "message:assistant", "custom_message", "message:assistant"]
    assert texts(entries[4]["message"]) == "Skipped due to queued user message."
    assert len(provider.requests) == 3
    assert provider.requests[1].messages[-1]["content"] == "user changed their mind"


@pytest.mark.anyio
async def test_context_and_before_agent_start_reach_the_provider(tmp_path: Path) -> None:
    def ext(pi: Any) -> None:
        pi.on("before_agent_start", lambda e, c: {"systemPrompt": e.system_prompt + "\nBe terse.",
                                                  "message": {"customType": "recall", "content": "You met Ada.",
                                                              "display": False}})
        pi.on("context", lambda e: {"messages": [m for m in e.messages if m.get("customType") != "hidden"]})

    rt, provider, _ = await make_runtime(tmp_path, ["Hi Ada"], ext)
    rt.send_custom_message({"customType": "hidden", "content": "secret", "display": False}, False, None, "t")
    rt.send_custom_message({"customType": "queued", "content": "queued", "display": False}, False, "nextTurn", "t")
    await rt.prompt("hello")
    request: Context = provider.requests[0]
    assert request.system_prompt is not None and request.system_prompt.endswith("\nBe terse.")
    assert [(m["role"], m.get("customType")) for m in request.messages] == [
        ("user", None), ("custom", "queued"), ("custom", "recall")]
    assert kinds(rt.session_manager.get_entries()) == [
        "custom_message", "model_change", "message:user", "custom_message", "custom_message", "message:assistant"]


@pytest.mark.anyio
async def test_commands_and_input_handling(tmp_path: Path) -> None:
    calls: list[Any] = []

    def ext(pi: Any) -> None:
        async def hello(args: str, ctx: Any) -> None:
            calls.append(("hello", args, ctx.cwd))
            ctx.ui.notify(f"hello {args}")
        pi.register_command("hello", {"description": "Say hello", "handler": hello})
        pi.register_command("bad", handler=lambda args, ctx: 1 / 0)
        pi.on("input", lambda e: {"action": "handled"} if e.text == "skip" else
              {"action": "transform", "text": e.text.upper()})

    rt, provider, _ = await make_runtime(tmp_path, ["OK"], ext)
    assert await rt.prompt("/hello world") is None
    assert await rt.prompt("/bad") is None
    assert await rt.prompt("skip") is None
    assert provider.requests == []
    await rt.prompt("shout")
    assert provider.requests[0].messages[0]["content"] == [{"type": "text", "text": "SHOUT"}]
    assert calls == [("hello", "world", str(tmp_path))]
    ui = rt.ui
    assert ("hello world", "info") in ui.notifications  # type: ignore[attr-defined]
    assert any(level == "error" and "(command)" in text and "division by zero" in text
               for text, level in ui.notifications)  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_session_context_is_what_the_model_sees_after_resume(tmp_path: Path) -> None:
    rt, _, _ = await make_runtime(tmp_path, ["first answer"])
    await rt.prompt("first question")
    path = rt.session_manager.get_session_file()
    assert path is not None
    reopened = SessionManager.open(path)
    rt2, provider2, _ = await make_runtime(tmp_path, ["second answer"], session=reopened)
    await rt2.prompt("second question")
    assert [texts(m) for m in provider2.requests[0].messages] == ["first question", "first answer",
                                                                  "second question"]


@pytest.mark.anyio
async def test_parallel_calls_run_concurrently_and_finish_in_call_order(tmp_path: Path) -> None:
    """pi's default "parallel" mode. ``slow`` waits for ``fast`` to have run, so a one-at-a-time
    loop would never finish; ``tool_execution_end`` and the results still follow the call order,
    and an unknown tool in between gets its error in place."""
    def tools(pi: Any) -> None:
        fast_done = asyncio.Event()

        async def slow(call_id: str, params: Any, *rest: Any) -> str:
            await asyncio.wait_for(fast_done.wait(), 30)
            return "slow done"

        async def fast(call_id: str, params: Any, *rest: Any) -> str:
            fast_done.set()
            return "fast done"
        pi.register_tool({"name": "slow", "description": "", "parameters": {}, "execute": slow})
        pi.register_tool({"name": "fast", "description": "", "parameters": {}, "execute": fast})

    batch = {"tool_calls": [{"name": "slow"}, {"name": "nope"}, {"name": "fast"}]}
    rt, provider, events = await make_runtime(tmp_path, [batch, "both done"], tools)
    await rt.prompt("go")
    lifecycle = [(e.type, e.toolName) for e in events if e.type.startswith("tool_execution_")]
    assert lifecycle == [("tool_execution_start", "slow"), ("tool_execution_start", "nope"),
                         ("tool_execution_end", "nope"), ("tool_execution_start", "fast"),
                         ("tool_execution_end", "slow"), ("tool_execution_end", "fast")]
    results = [e["message"] for e in rt.session_manager.get_entries()
               if e["type"] == "message" and e["message"]["role"] == "toolResult"]
    assert [(m["toolName"], texts(m), m["isError"]) for m in results] == [
        ("slow", "slow done", False), ("nope", "Tool nope not found", True), ("fast", "fast done", False)]
    assert [m.get("toolCallId") for m in provider.requests[1].messages[-3:]] == ["call_1_1", "call_1_2", "call_1_3"]


@pytest.mark.anyio
async def test_steering_in_parallel_mode_waits_for_the_batch(tmp_path: Path) -> None:
    def steer(pi: Any) -> None:
        def interrupt(args: Any) -> str:
            pi.send_message({"customType": "note", "content": "user changed their mind", "display": True},
                            deliver_as="steer")
            return "interrupted"
        pi.register_tool({"name": "first", "description": "", "parameters": {}, "execute": interrupt})
        pi.register_tool({"name": "second", "description": "", "parameters": {}, "execute": lambda a: "ran"})

    rt, provider, _ = await make_runtime(tmp_path, [{"tool_calls": [{"name": "first"}, {"name": "second"}]},
                                                    "ok"], steer)
    await rt.prompt("go")
    entries = rt.session_manager.get_entries()
    assert kinds(entries)[1:] == ["message:user", "message:assistant", "message:toolResult", "message:toolResult",
                                  "custom_message", "message:assistant"]
    assert [texts(e["message"]) for e in entries[3:5]] == ["interrupted", "ran"]
    assert provider.requests[1].messages[-1]["content"] == "user changed their mind"


@pytest.mark.anyio
async def test_memory_writes_in_one_message_land_in_call_order(tmp_path: Path) -> None:
    """The memory tools declare ``executionMode: "sequential"``: their store calls run in worker
    threads, and concurrent execution could otherwise reorder the model's writes."""
    store = MemoryStore(tmp_path / "memories")
    facts = [f"Fact number {n} about the deploy pipeline." for n in range(6)]
    batch = {"tool_calls": [{"name": "memory_add", "arguments": {"target": "memory", "content": f}} for f in facts]}

    rt, _, _ = await make_runtime(tmp_path, [batch, "saved"], tools=create_memory_tools(store))
    await rt.prompt("remember these")
    assert store.read("memory")["entries"] == facts
