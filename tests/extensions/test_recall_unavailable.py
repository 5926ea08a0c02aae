"""The agent host with an index recall cannot open: it keeps running without recall and says why."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from pi_memory.extensions.recall import recall_extension
from pi_memory.host import HeadlessUI, SessionRuntime
from pi_memory.providers import ScriptedProvider, scripted_model
from pi_memory.session import SessionManager

pytestmark = pytest.mark.anyio


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _run(tmp_path: Path) -> tuple[list[tuple[str, str]], list[str], str]:
    provider = ScriptedProvider(["Still here."])
    runtime = await SessionRuntime.create(
        cwd=str(tmp_path), session_manager=SessionManager.create(str(tmp_path), str(tmp_path / "sessions")),
        model=scripted_model(), provider=provider, factories=[lambda pi: recall_extension(pi)], ui=HeadlessUI(),
        use_entry_points=False, discover=False)
    try:
        await runtime.prompt("are you there?")
        ui = runtime.ui
        assert isinstance(ui, HeadlessUI)
        tools = [tool["name"] if isinstance(tool, dict) else tool.name for tool in provider.requests[0].tools]
        answer = runtime.session_manager.get_entries()[-1]["message"]["content"][0]["text"]
        return list(ui.notifications), tools, answer
    finally:
        await runtime.shutdown()


@pytest.mark.parametrize("kind", ["not a database", "unreachable postgres"])
async def test_the_host_runs_on_without_recall_and_says_why(tmp_path: Path, _isolated_home: Path, kind: str) -> None:
    if kind == "not a database":
        index = tmp_path / "recall.db"
        index.write_text("notes I keep here\n" * 200)
        url, words = str(index), [f"the recall index {index} is not a usable recall database", "move it aside"]
    else:
        pytest.importorskip("psycopg")
        port = _closed_port()
        url, words = f"postgresql://agent@127.0.0.1:{port}/recall", [
            f"the recall index postgresql://agent@127.0.0.1:{port}/recall cannot be used", "pi-memory-recall.url"]
    settings = _isolated_home / ".pi" / "agent" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"pi-memory-recall": {"url": url}}))
    notifications, tools, answer = await _run(tmp_path)
    errors = [text for text, level in notifications if level == "error"]
    assert len(errors) == 1 and errors[0].startswith("pi-memory recall failed to start: "), notifications
    assert all(word in errors[0] for word in words), errors[0]
    assert "search_memory" not in tools and answer == "Still here."
