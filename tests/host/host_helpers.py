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


# --- messages as the agent loop stores them

USAGE = {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 15,
         "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1}


def asst(text: str = "", calls: list[dict[str, Any]] | None = None, usage: dict[str, Any] | None = None,
         stop: str = "stop") -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    content += [{"type": "toolCall", "id": c["id"], "name": c["name"], "arguments": c.get("arguments", {})}
                for c in calls or []]
    return {"role": "assistant", "content": content, "api": "scripted", "provider": "scripted", "model": "echo",
            "usage": usage or USAGE, "stopReason": stop, "timestamp": 2}


def result(call_id: str, text: str) -> dict[str, Any]:
    return {"role": "toolResult", "toolCallId": call_id, "toolName": "read",
            "content": [{"type": "text", "text": text}], "isError": False, "timestamp": 3}
