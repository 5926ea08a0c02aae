"""What the recall extension's tests share: a runtime with the scripted provider, and reading the
tool results a session stored (tests/extensions is on the path through its conftest)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pi_memory.host import HeadlessUI, SessionRuntime
from pi_memory.providers import Reply, ScriptedProvider, scripted_model
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
