"""host/turns.py: what happens to messages extensions send — while the agent runs, when idle, or
as a turn of their own — and how a failure in a background turn is reported."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from host_helpers import kinds, make_runtime

from pi_memory.host.agent import custom_message, user_message

pytestmark = pytest.mark.anyio


def test_message_builders() -> None:
    built = custom_message({"custom_type": "note", "content": "hi"})
    assert (built["role"], built["customType"], built["content"], built["display"]) == ("custom", "note", "hi", True)
    assert "details" not in built and isinstance(built["timestamp"], int)
    with_details = custom_message({"customType": "n", "content": "", "display": False, "details": {"k": 1}})
    assert with_details["details"] == {"k": 1} and with_details["display"] is False
    assert user_message("look", [{"type": "image", "data": "x", "mimeType": "image/png"}])["content"] == [
        {"type": "text", "text": "look"}, {"type": "image", "data": "x", "mimeType": "image/png"}]
    assert user_message([{"type": "text", "text": "blocks"}])["content"] == [{"type": "text", "text": "blocks"}]


async def test_idle_messages_are_written_or_start_a_turn(tmp_path: Path) -> None:
    apis: list[Any] = []
    rt, provider, events = await make_runtime(tmp_path, ["triggered reply"], apis.append)
    (pi,) = apis
    pi.send_message({"customType": "note", "content": "quiet"})
    assert kinds(rt.session_manager.get_entries()) == ["custom_message"] and provider.requests == []
    assert [e["type"] for e in events[-2:]] == ["message_start", "message_end"]  # front ends still see it
    pi.send_message({"customType": "note", "content": "go"}, trigger_turn=True)
    assert not rt.is_idle()
    await rt.wait_for_idle()
    assert rt.is_idle() and len(provider.requests) == 1
    assert kinds(rt.session_manager.get_entries())[-2:] == ["custom_message", "message:assistant"]
    await rt.shutdown()


async def test_while_running_a_user_message_needs_steer_or_follow_up(tmp_path: Path) -> None:
    apis: list[Any] = []
    started, release = asyncio.Event(), asyncio.Event()

    async def slow_tool(call_id: str, params: Any) -> str:
        started.set()
        await release.wait()
        return "done"

    def ext(pi: Any) -> None:
        apis.append(pi)
        pi.register_tool({"name": "slow", "description": "d", "parameters": {"type": "object"}, "execute": slow_tool})

    rt, provider, _ = await make_runtime(tmp_path, [{"tool_calls": [{"name": "slow", "arguments": {}}]}, "first",
                                                    "after follow-up"], ext)
    run = asyncio.ensure_future(rt.prompt("work"))
    await started.wait()
    apis[0].send_user_message("no mode given")
    assert [(e.event, e.error) for e in rt.runner.errors] == [
        ("send_user_message", "Agent is streaming: pass deliver_as 'steer' or 'followUp'")]
    apis[0].send_user_message("and then this", deliver_as="followUp")
    assert rt.has_pending_messages()
    release.set()
    await run
    assert not rt.has_pending_messages() and len(provider.requests) == 3
    assert provider.requests[2].messages[-1]["content"] == [{"type": "text", "text": "and then this"}]
    await rt.shutdown()


async def test_a_failing_triggered_turn_is_reported_not_raised(tmp_path: Path) -> None:
    apis: list[Any] = []
    rt, _, _ = await make_runtime(tmp_path, [], apis.append)
    rt.model = None  # the background turn cannot start: no model
    apis[0].send_message({"customType": "note", "content": "go"}, trigger_turn=True)
    await rt.wait_for_idle()
    (error,) = rt.runner.errors
    assert error.event == "send_message" and "No model configured" in error.error
    notices = rt.ui.notifications  # type: ignore[attr-defined]
    assert any("No model configured" in text for text, level in notices if level == "error")
    await rt.shutdown()
