"""host/types.py: the one "call every listener" rule shared by the runner, ``pi.events`` and the runtime."""

from __future__ import annotations

from collections.abc import Callable

from pi_memory.host import EventBus, ExtensionRunner
from pi_memory.host.types import ExtensionError, call_listeners


def test_a_failing_listener_is_skipped_and_the_rest_still_run() -> None:
    seen: list[str] = []
    listeners: list[Callable[[str], None]] = []

    def broken(value: str) -> None:
        raise RuntimeError("boom")

    def once(value: str) -> None:
        listeners.remove(once)  # unsubscribing while called does not skip the next one
        seen.append("once:" + value)

    listeners += [broken, once, lambda value: seen.append("last:" + value)]
    call_listeners(listeners, "a")
    call_listeners(listeners, "b")
    assert seen == ["once:a", "last:a", "last:b"]


def test_runner_and_bus_listeners_follow_the_rule() -> None:
    runner, bus, seen = ExtensionRunner(), EventBus(), []

    def broken(value: object) -> None:
        raise RuntimeError("listener bug")

    for on in (runner.on_error, runner.on_warning):
        on(broken)
    runner.on_error(lambda error: seen.append(error.error))
    runner.on_warning(seen.append)
    bus.on("ch", broken)
    bus.on("ch", seen.append)
    runner.emit_error(ExtensionError("ext", "load", "failed"))
    runner.warn("careful")
    bus.emit("ch", "data")
    assert seen == ["failed", "careful", "data"]
    assert [e.error for e in runner.errors] == ["failed"] and runner.warnings == ["careful"]
