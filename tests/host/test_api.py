"""The ``pi`` object an extension gets (:mod:`pi_memory.host.api`): registering handlers, tools and
commands in pi's forms, the shared event bus, and actions refused while the extension loads."""

from __future__ import annotations

from typing import Any

import pytest

from pi_memory.host import ExtensionRunner, ExtensionSource, load_extensions
from pi_memory.host.api import EventBus, ExtensionAPI, RuntimeNotReadyError


async def make_runner(*factories: Any) -> ExtensionRunner:
    runner = ExtensionRunner()
    sources = [ExtensionSource(f"ext{n}", "test", factory=f) for n, f in enumerate(factories, 1)]
    await load_extensions(sources, runner, EventBus())
    return runner


@pytest.mark.anyio
async def test_action_methods_refuse_while_loading() -> None:
    def early(pi: Any) -> None:
        pi.append_entry("state", {"a": 1})

    runner = await make_runner(early)
    assert "Extension runtime not initialized" in runner.errors[0].error
    unbound = ExtensionAPI(ExtensionRunner(), ExtensionRunner().add_extension("p"), EventBus())
    with pytest.raises(RuntimeNotReadyError):
        unbound.get_entries()


def test_the_event_bus_reaches_every_listener_even_after_one_fails() -> None:
    bus = EventBus()
    got: list[Any] = []

    def broken(data: Any) -> None:
        raise RuntimeError("listener bug")

    bus.on("indexed", broken)
    stop = bus.on("indexed", got.append)
    bus.emit("indexed", {"n": 1})
    stop()
    bus.emit("indexed", {"n": 2})
    bus.emit("nobody-listens")
    assert got == [{"n": 1}]


@pytest.mark.anyio
async def test_commands_register_in_pis_forms_and_unknown_events_warn() -> None:
    def ext(pi: Any) -> None:
        pi.register_command("deploy", {"description": "Ship it", "handler": lambda args, ctx: None})
        pi.register_command("/status", lambda args, ctx: None)

        @pi.on("session_start")
        def started(event: Any, ctx: Any) -> None:
            return None

        pi.on("sesion_start", lambda e: None)  # a typo: never fires

    runner = await make_runner(ext)
    assert runner.commands["deploy"].description == "Ship it" and "status" in runner.commands
    assert runner.has_handlers("session_start")
    warnings: list[str] = []
    runner.on_warning(warnings.append)

    def bad(pi: Any) -> None:
        pi.on("nope", lambda e: None)

    await load_extensions([ExtensionSource("ext9", "test", factory=bad)], runner, EventBus())
    assert any("unknown event 'nope'" in text for text in warnings)
    with pytest.raises(ValueError, match="needs a callable handler"):
        ExtensionAPI(runner, runner.add_extension("p"), EventBus()).register_command("x", {"description": "d"})
