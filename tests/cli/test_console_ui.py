"""``console_ui``: what ``pi-memory chat`` prints on a terminal, and its dialogs answered on stdin."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

from pi_memory.base.tools import ToolResult
from pi_memory.cli.console_ui import ConsoleUI, Renderer, clip
from pi_memory.host import Event


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200, color_system=None, force_terminal=False), out


def test_clip() -> None:
    assert clip("short", 10) == "short"
    assert clip("0123456789abc", 10) == "012345678…"
    assert len(clip("x" * 500, 200)) == 200


def test_notices_and_statuses_print_text_verbatim_even_with_markup() -> None:
    console, out = _console()
    ui = ConsoleUI(console)
    ui.notify("[bold]not markup[/]", "warning")
    ui.set_status("memory", "2 entries")
    ui.set_status("memory", None)
    assert out.getvalue().splitlines() == ["[bold]not markup[/]", "memory: 2 entries"]
    assert ui.statuses == {}


@pytest.mark.anyio
@pytest.mark.parametrize(("typed", "confirmed", "chosen"), [("y\n2\nAda\n", True, "b"), ("no\n9\n\n", False, None)])
async def test_dialogs_read_stdin(monkeypatch: pytest.MonkeyPatch, typed: str, confirmed: bool,
                                  chosen: str | None) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    console, out = _console()
    ui = ConsoleUI(console)
    assert await ui.confirm("Delete?", "the entry") is confirmed
    assert await ui.select("Pick", ["a", "b"]) == chosen
    assert await ui.input("Name", "first name") == typed.splitlines()[2]
    assert await ui.input("More") is None  # stdin ended
    assert "Delete? the entry" in out.getvalue() and "  2. b" in out.getvalue()


def _events() -> list[Event]:
    result = ToolResult(content=[{"type": "text", "text": "Entry added.\nUsage 1%"}])
    raw: list[dict[str, Any]] = [
        {"type": "message_update", "assistantMessageEvent": {"type": "text_delta", "delta": "Saving"}},
        {"type": "message_end", "message": {"role": "assistant"}},
        {"type": "tool_execution_start", "toolCallId": "c1", "toolName": "memory_add", "args": {"content": "Ada"}},
        {"type": "tool_execution_end", "toolCallId": "c1", "toolName": "memory_add", "result": result},
        {"type": "message_end", "message": {"role": "assistant", "stopReason": "error", "errorMessage": "quota"}},
    ]
    return [Event(e) for e in raw]


def test_the_renderer_streams_text_and_shows_tool_calls_and_errors() -> None:
    console, out = _console()
    err, errors = _console()
    render = Renderer(console, err, stream=True)
    for event in _events():
        render(event)
    assert out.getvalue().splitlines() == ["Saving", '→ memory_add({"content": "Ada"})', "← Entry added. Usage 1%"]
    assert errors.getvalue() == "quota\n"


def test_without_streaming_only_errors_are_shown() -> None:
    console, out = _console()
    err, errors = _console()
    render = Renderer(console, err, stream=False)
    for event in _events():
        render(event)
    assert out.getvalue() == "" and errors.getvalue() == "quota\n"
