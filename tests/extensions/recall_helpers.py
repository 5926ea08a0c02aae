"""What the recall and decay extensions' tests share: a runtime with the scripted provider, a tool
call reply, an earlier session seeded into an index, and reading the tool results a session stored
(tests/extensions is on the path through its conftest)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pi_memory.host import HeadlessUI, SessionRuntime
from pi_memory.providers import Reply, ScriptedProvider, scripted_model
from pi_memory.recall import open_index
from pi_memory.session import SessionManager


async def make_runtime(tmp_path: Path, script: Sequence[Reply], *factories: Callable[..., Any],
                       session: SessionManager | None = None) -> tuple[SessionRuntime, ScriptedProvider]:
    provider = ScriptedProvider(list(script))
    sm = session or SessionManager.create(str(tmp_path), str(tmp_path / "sessions"))
    runtime = await SessionRuntime.create(cwd=str(tmp_path), session_manager=sm, model=scripted_model(),
                                          provider=provider, factories=factories, ui=HeadlessUI(),
                                          use_entry_points=False, discover=False)
    return runtime, provider


def tool_results(sm: SessionManager) -> list[dict[str, Any]]:
    return [e["message"] for e in sm.get_entries() if e["type"] == "message" and e["message"]["role"] == "toolResult"]


def text_of(message: dict[str, Any]) -> str:
    return "".join(b.get("text", "") for b in message["content"] if b.get("type") == "text")


def call(name: str, **args: Any) -> Reply:
    return {"tool_calls": [{"name": name, "arguments": args}]}


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def seed(url: str, days_old: float) -> None:
    """An earlier session's messages, as ``pi-memory recall index`` would have stored them."""
    then = iso(datetime.now(UTC) - timedelta(days=days_old))
    index = open_index(url)
    try:
        index.add([
            {"id": "old:1", "text": "The office wifi password is stored in the team vault.", "role": "user",
             "timestamp": then, "session_id": "old"},
            {"id": "old:2", "text": "My sister's birthday is on the ninth of May.", "role": "user",
             "timestamp": then, "session_id": "old"},
        ])
    finally:
        index.close()
