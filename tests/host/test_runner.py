"""Runner semantics: reference §7 items 67 and 69–80 (handler composition, blocking tool calls,
chained prompts, cancellation, errors isolated), checked on the runner itself."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from pi_memory.host import (
    CommandDefinition,
    Event,
    ExtensionError,
    ExtensionRunner,
    ExtensionSource,
    load_extensions,
)
from pi_memory.host.api import EventBus


async def make_runner(*factories: Callable[..., Any]) -> ExtensionRunner:
    runner = ExtensionRunner()
    sources = [ExtensionSource(f"ext{n}", "test", factory=f) for n, f in enumerate(factories, 1)]
    await load_extensions(sources, runner, EventBus())
    return runner


def errors_of(runner: ExtensionRunner) -> list[tuple[str, str, str]]:
    return [(e.extension_path, e.event, e.error) for e in runner.errors]


def tool(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "description": description, "parameters": {"type": "object"}, "execute": lambda a: "ok"}


@pytest.mark.anyio
async def test_first_tool_registration_wins_with_a_warning() -> None:  # §7 67
    runner = await make_runner(lambda pi: pi.register_tool(tool("shared", "first")),
                         lambda pi: pi.register_tool(tool("shared", "second")))
    assert [t.description for t in runner.tools.values()] == ["first"]
    assert runner.tools["shared"].source == "ext1"
    assert any('Tool "shared" conflicts with ext1' in w for w in runner.warnings)


@pytest.mark.anyio
async def test_commands_first_wins_and_builtins_are_skipped() -> None:  # §7 64, 69
    def one(pi: Any) -> None:
        pi.register_command("deploy", {"description": "one", "handler": lambda a, c: None})
        pi.register_command("compact", {"handler": lambda a, c: None})

    runner = await make_runner(one, lambda pi: pi.register_command("deploy", handler=lambda a, c: None,
                                                                   description="two"))
    assert list(runner.commands) == ["deploy"]
    assert runner.commands["deploy"].description == "one"
    assert any('"/compact"' in w and "built-in" in w for w in runner.warnings)
    assert any('Command "/deploy" conflicts' in w for w in runner.warnings)


@pytest.mark.anyio
async def test_context_handler_error_is_reported_once_and_emit_returns() -> None:  # §7 70
    def broken(pi: Any) -> None:
        pi.on("context", lambda e, c: 1 / 0)

    runner = await make_runner(broken)
    seen: list[Any] = []
    runner.on_error(seen.append)
    out = await runner.emit_context([{"role": "user", "content": "x", "timestamp": 1}])
    assert out == [{"role": "user", "content": "x", "timestamp": 1}]
    assert len(seen) == 1 and seen[0].event == "context" and "division by zero" in seen[0].error
    assert seen[0].stack and "ZeroDivisionError" in seen[0].stack


@pytest.mark.anyio
async def test_tool_result_patches_chain() -> None:  # §7 71
    def ext1(pi: Any) -> None:
        pi.on("tool_result", lambda e, c: {"content": [*e.content, {"type": "text", "text": "ext1"}]})

    def ext2(pi: Any) -> None:
        pi.on("tool_result", lambda e, c: {"content": [*e["content"], {"type": "text", "text": "ext2"}]})

    runner = await make_runner(ext1, ext2)
    base = Event(type="tool_result", toolCallId="c", toolName="t", input={}, content=[{"type": "text", "text": "base"}],
                 details=None, isError=False)
    patched = await runner.emit_tool_result(base)
    assert patched is not None
    assert [b["text"] for b in patched["content"]] == ["base", "ext1", "ext2"]

    runner = await make_runner(
        lambda pi: pi.on("tool_result", lambda e, c: {"content": [{"type": "text", "text": "first"}],
                                                      "details": {"source": "ext1"}}),
        lambda pi: pi.on("tool_result", lambda e, c: {"isError": True}))
    patched = await runner.emit_tool_result(base)
    assert patched == {"content": [{"type": "text", "text": "first"}], "details": {"source": "ext1"},
                       "structuredContent": None, "isError": True}
    assert await (await make_runner()).emit_tool_result(base) is None


@pytest.mark.anyio
async def test_input_transforms_chain_and_handled_short_circuits() -> None:  # §7 72
    image = {"type": "image", "data": "AA==", "mimeType": "image/png"}
    assert (await (await make_runner()).emit_input("x", None, "interactive")).action == "continue"
    runner = await make_runner(lambda pi: pi.on("input", lambda e, c: None),
                         lambda pi: pi.on("input", lambda e, c: {"action": "continue"}))
    assert (await runner.emit_input("x", None, "interactive")).action == "continue"

    sources: list[str] = []

    def one(pi: Any) -> None:
        def handler(e: Any, c: Any) -> Any:
            sources.append(e.source)
            return {"action": "transform", "text": e.text + "[1]"}
        pi.on("input", handler)

    runner = await make_runner(one, lambda pi: pi.on("input", lambda e, c: {"action": "transform",
                                                                         "text": e.text + "[2]"}))
    result = await runner.emit_input("X", [image], "rpc")
    assert (result.action, result.text, result.images) == ("transform", "X[1][2]", [image])
    assert sources == ["rpc"]

    other = {"type": "image", "data": "BB==", "mimeType": "image/png"}
    runner = await make_runner(lambda pi: pi.on("input", lambda e, c: {"action": "transform", "text": "y",
                                                                 "images": [other]}))
    assert (await runner.emit_input("x", [image], "interactive")).images == [other]

    later: list[str] = []
    runner = await make_runner(lambda pi: pi.on("input", lambda e, c: {"action": "handled"}),
                         lambda pi: pi.on("input", lambda e, c: later.append("ran")))
    assert (await runner.emit_input("x", None, "interactive")).action == "handled"
    assert later == []

    runner = await make_runner(lambda pi: pi.on("input", lambda e, c: 1 / 0))
    assert (await runner.emit_input("x", None, "interactive")).action == "continue"
    assert errors_of(runner)[0][1] == "input"


@pytest.mark.anyio
async def test_before_agent_start_chains_system_prompt_and_accumulates_messages() -> None:  # §7 73
    message = {"customType": "note", "content": "A", "display": False}

    def a(pi: Any) -> None:
        pi.on("before_agent_start", lambda e, c: {"systemPrompt": e.system_prompt + "+a", "message": message})

    def b(pi: Any) -> None:
        pi.on("before_agent_start", lambda e, c: {"systemPrompt": e["systemPrompt"] + "+b"})

    messages, prompt = await (await make_runner(a, b)).emit_before_agent_start("hi", None, "SYS")
    assert messages == [message]
    assert prompt == "SYS+a+b"
    messages, prompt = await (await make_runner(lambda pi: pi.on(
        "before_agent_start", lambda e, c: {"systemPrompt": ""}))).emit_before_agent_start("hi", None, "SYS")
    assert (messages, prompt) == ([], None)  # "" counts as not set: the base prompt is restored


@pytest.mark.anyio
async def test_session_before_cancel_stops_dispatch() -> None:  # §7 74
    later: list[str] = []
    runner = await make_runner(lambda pi: pi.on("session_before_switch", lambda e, c: {"cancel": True}),
                         lambda pi: pi.on("session_before_switch", lambda e, c: later.append("x")))
    assert await runner.emit(Event(type="session_before_switch", reason="new")) == {"cancel": True}
    assert later == []


@pytest.mark.anyio
async def test_session_before_last_truthy_result_wins() -> None:  # §7 75
    compaction = {"summary": "S", "firstKeptEntryId": "x", "tokensBefore": 1}
    runner = await make_runner(lambda pi: pi.on("session_before_compact", lambda e, c: {"compaction": compaction}),
                         lambda pi: pi.on("session_before_compact", lambda e, c: None),
                         lambda pi: pi.on("session_before_compact", lambda e, c: {"note": "C"}))
    assert await runner.emit(Event(type="session_before_compact")) == {"note": "C"}
    runner = await make_runner(lambda pi: pi.on("session_before_compact", lambda e, c: {"compaction": compaction}),
                         lambda pi: pi.on("session_before_compact", lambda e, c: None))
    assert await runner.emit(Event(type="session_before_compact")) == {"compaction": compaction}


@pytest.mark.anyio
async def test_tool_call_errors_propagate_and_are_not_reported() -> None:  # §7 76
    runner = await make_runner(lambda pi: pi.on("tool_call", lambda e, c: (_ for _ in ()).throw(ValueError("policy"))))
    with pytest.raises(ValueError, match="policy"):
        await runner.emit_tool_call(Event(type="tool_call", toolCallId="1", toolName="t", input={}))
    assert runner.errors == []
    blocked = await make_runner(lambda pi: pi.on("tool_call", lambda e, c: {"block": True, "reason": "no"}),
                          lambda pi: pi.on("tool_call", lambda e, c: pytest.fail("must not run")))
    assert await blocked.emit_tool_call(Event(type="tool_call")) == {"block": True, "reason": "no"}


@pytest.mark.anyio
async def test_context_handlers_get_a_deep_copy() -> None:  # §7 77
    def push(pi: Any) -> None:
        def handler(e: Any, c: Any) -> None:
            e.messages[0]["content"] = "changed"
            e.messages.append({"role": "user", "content": "added", "timestamp": 2})
        pi.on("context", handler)

    original = [{"role": "user", "content": "x", "timestamp": 1}]
    out = await (await make_runner(push)).emit_context(original)
    assert original == [{"role": "user", "content": "x", "timestamp": 1}]
    assert [m["content"] for m in out] == ["changed", "added"]


@pytest.mark.anyio
async def test_has_handlers() -> None:  # §7 80
    runner = await make_runner(lambda pi: pi.on("tool_call", lambda e: None),
                               lambda pi: pi.on("tool:result", lambda e: None))
    assert runner.has_handlers("tool_call")
    assert runner.has_handlers("tool_result") and runner.has_handlers("tool:result")
    assert not runner.has_handlers("agent_end")


@pytest.mark.anyio
async def test_handlers_may_be_async_and_take_one_or_two_arguments() -> None:
    order: list[str] = []

    def ext(pi: Any) -> None:
        async def two(event: Any, ctx: Any) -> None:
            await asyncio.sleep(0)
            order.append(f"two:{event.type}")

        pi.on("agent_start", two)
        pi.on("agent_start", lambda event: order.append("one"))
        pi.on("agent_start", lambda: order.append("zero"))

        @pi.on("agent_start")
        def decorated(event: Any, ctx: Any) -> None:
            order.append("decorated")

    runner = await make_runner(ext, lambda pi: pi.on("agent_start", lambda e, c: order.append("ext2")))
    await runner.emit(Event(type="agent_start"))
    assert order == ["two:agent_start", "one", "zero", "decorated", "ext2"]


@pytest.mark.anyio
async def test_errors_are_isolated_per_handler() -> None:
    ran: list[str] = []
    runner = await make_runner(lambda pi: pi.on("turn_end", lambda e, c: 1 / 0),
                         lambda pi: pi.on("turn_end", lambda e, c: ran.append("second")))
    await runner.emit(Event(type="turn_end"))
    assert ran == ["second"]
    assert errors_of(runner) == [("ext1", "turn_end", "division by zero")]


@pytest.mark.anyio
async def test_broken_extensions_are_reported_and_loading_continues() -> None:  # §7 62
    def raises(pi: Any) -> None:
        pi.register_tool(tool("half", "registered before the failure"))
        raise RuntimeError("boom")

    runner = await make_runner(raises, lambda pi: pi.register_tool(tool("ok", "fine")))
    assert [e.path for e in runner.extensions] == ["ext2"]
    assert list(runner.tools) == ["ok"]
    assert errors_of(runner) == [("ext1", "load", "Failed to load extension: boom")]


@pytest.mark.anyio
async def test_a_handler_error_quoting_a_dsn_is_reported_without_its_password() -> None:
    """A driver error escaping a handler (libpq quotes a malformed DSN whole) reaches the UI and
    the logs through the runner's report: message and stack are scrubbed there."""
    import psycopg

    bad = "postgresql://agent:Hunter2Secret@[::1"

    def leaky(pi: Any) -> None:
        pi.on("session_start", lambda e, c: psycopg.connect(bad))

    runner = await make_runner(leaky)
    seen: list[Any] = []
    runner.on_error(seen.append)
    await runner.emit(Event(type="session_start"))
    (error,) = seen
    assert "IPv6 host address" in error.error and "ProgrammingError" in error.stack
    assert "Hunter2Secret" not in error.error + error.stack


@pytest.mark.anyio
async def test_reported_returns_the_fallback_once_the_error_is_reported() -> None:
    runner = ExtensionRunner()
    seen: list[ExtensionError] = []
    runner.on_error(seen.append)

    async def fails() -> str:
        raise ValueError("postgresql://u:secret@h/db unreachable")

    async def works() -> str:
        return "fine"

    assert await runner.reported("ext.py", "send_message", works()) == "fine"
    assert await runner.reported("ext.py", "send_message", fails(), "fallback") == "fallback"
    assert [(e.extension_path, e.event) for e in seen] == [("ext.py", "send_message")]
    assert "secret" not in seen[0].error and "unreachable" in seen[0].error  # scrubbed like every handler error


@pytest.mark.anyio
async def test_run_command_reports_a_failing_handler() -> None:
    runner = ExtensionRunner()
    extension = runner.add_extension("cmd.py")
    calls: list[tuple[str, Any]] = []

    async def greet(args: str, ctx: Any) -> None:
        calls.append((args, ctx))

    runner.register_command(extension, CommandDefinition(name="greet", handler=greet))
    runner.register_command(extension, CommandDefinition(name="bad", handler=lambda args, ctx: 1 / 0))
    assert await runner.run_command("greet", "world", lambda: "ctx") is True and calls == [("world", "ctx")]
    assert await runner.run_command("bad", "", lambda: None) is True
    assert [(e.extension_path, e.event) for e in runner.errors] == [("cmd.py", "command")]
    assert await runner.run_command("missing", "", lambda: None) is False
