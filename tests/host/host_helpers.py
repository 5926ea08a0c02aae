"""Shared builders for the host tests: a runtime on a real session directory with the scripted provider."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pi_memory.host import Event, HeadlessUI, SessionRuntime
from pi_memory.providers import Reply, ScriptedProvider, scripted_model
from pi_memory.session import SessionManager


async def make_runtime(tmp_path: Path, script: Iterable[Reply] | Callable[..., Reply], *factories: Callable[..., Any],
                       session: SessionManager | None = None, context_window: int = 128_000,
                       **kwargs: Any) -> tuple[SessionRuntime, ScriptedProvider, list[Event]]:
    """A runtime whose every event is recorded (front-end listener) and whose model is scripted."""
    provider = ScriptedProvider(script)
    sm = session or SessionManager.create(str(tmp_path), str(tmp_path / "sessions"))
    kwargs.setdefault("ui", HeadlessUI())
    kwargs.setdefault("use_entry_points", False)
    kwargs.setdefault("discover", False)
    runtime = await SessionRuntime.create(cwd=str(tmp_path), session_manager=sm,
                                          model=scripted_model(context_window=context_window), provider=provider,
                                          factories=factories, **kwargs)
    events: list[Event] = []
    runtime.subscribe(events.append)
    return runtime, provider, events


def kinds(entries: list[dict[str, Any]]) -> list[str]:
    """``message:<role>`` for message entries, the entry type otherwise."""
    return [f"message:{e['message']['role']}" if e["type"] == "message" else e["type"] for e in entries]


def texts(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content or [] if b.get("type") == "text")
