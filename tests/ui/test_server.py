"""``pi-memory ui`` as a process: prints its tokened URL, opens a browser only where one can show,
stops cleanly on Ctrl+C, and refuses a taken port with a next step."""

from __future__ import annotations

import socket
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pi_memory.ui.server import ServeError, bind_loopback, can_open_browser


def _recording_browser(tmp_path: Path) -> tuple[str, Path]:
    """A ``$BROWSER`` that writes the URL it was asked to open to a file (and opens nothing)."""
    record = tmp_path / "opened.txt"
    script = tmp_path / "browser.sh"
    script.write_text(f'#!/bin/sh\nprintf "%s" "$1" > {record}\n', encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return f"{script} %s", record


def test_the_url_carries_a_fresh_token_opens_in_the_browser_and_ctrl_c_stops_it(ui_server: Callable[..., Any],
                                                                 tmp_path: Path) -> None:
    browser, record = _recording_browser(tmp_path)
    first = ui_server(env={"DISPLAY": ":99", "BROWSER": browser}, open_browser=True)
    assert len(first.token) >= 40
    for _ in range(200):  # the browser is started beside the server, not before it answers
        if record.exists() and record.read_text():
            break
        time.sleep(0.05)
    assert record.read_text() == first.url
    second = ui_server()
    assert second.token != first.token and second.port != first.port
    printed = "".join(second.output)
    assert "memory in " in printed and "Ctrl+C" in printed
    # Ctrl+C stops it cleanly: exit 0, no traceback, the port closed
    with second.client() as client:
        assert client.get("/api/memory").status_code == 200
    second.stop()
    assert second.process is not None and second.process.returncode == 0
    assert "Traceback" not in "".join(second.output)
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", second.port), timeout=2):
        pass


def test_no_browser_is_started_without_a_display_or_with_no_browser(ui_server: Callable[..., Any],
                                                                    tmp_path: Path) -> None:
    browser, record = _recording_browser(tmp_path)
    headless = ui_server(env={"BROWSER": browser}, open_browser=True)  # the fixture drops DISPLAY
    told = ui_server(env={"DISPLAY": ":99", "BROWSER": browser})  # --no-browser
    for server in (headless, told):
        with server.client() as client:  # both serve
            assert client.get("/api/memory").status_code == 200
    assert not record.exists()


def test_a_display_is_what_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert can_open_browser() is (not sys.platform.startswith("linux"))
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    assert can_open_browser() is True


def test_a_taken_port_is_a_clear_error() -> None:
    taken = bind_loopback(None)
    try:
        with pytest.raises(ServeError, match=r"is in use: pick another with --port"):
            bind_loopback(taken.getsockname()[1])
    finally:
        taken.close()
    free = bind_loopback(0)
    assert free.getsockname()[0] == "127.0.0.1"
    free.close()
