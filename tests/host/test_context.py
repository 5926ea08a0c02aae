"""What an extension's ``ctx`` is (:mod:`pi_memory.host.context`): the headless UI that answers
dialogs from a queue (or with the safe default), the read-only view of the live session, which
follows /new and /resume, and the runtime's state as a handler sees it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from host_helpers import make_runtime

from pi_memory.host import ExtensionContext, HeadlessUI, ReadonlySessionManager
from pi_memory.session import SessionManager

pytestmark = pytest.mark.anyio


async def test_headless_dialogs_answer_from_the_queue_else_with_the_safe_default() -> None:
    ui = HeadlessUI()
    ui.answers.extend([True, "deep", "not offered", 42])
    assert await ui.confirm("Trust?", "this project") is True
    assert await ui.select("Mode", ["fast", "deep"]) == "deep"
    assert await ui.select("Mode", ["fast", "deep"]) is None  # an answer that was not an option
    assert await ui.input("Count") == "42"
    assert await ui.confirm("Again?", "x") is False and await ui.input("Name") is None  # queue empty
    ui.notify("saved", "info")
    ui.set_status("recall", "indexing")
    ui.set_status("recall", None)
    assert ui.notifications == [("saved", "info")] and ui.statuses == {}


async def test_the_readonly_view_follows_the_live_session(tmp_path: Path) -> None:
    current = [SessionManager.in_memory(str(tmp_path))]
    view = ReadonlySessionManager(lambda: current[0])
    first = current[0].append_message({"role": "user", "content": "hi", "timestamp": 1})
    assert view.get_leaf_id() == first and view.get_entry(first) is not None
    assert not hasattr(view, "append_message")  # the reading half only
    current[0] = SessionManager.in_memory(str(tmp_path))  # what /new does
    assert view.get_leaf_id() is None and view.get_entries() == []


async def test_a_handlers_ctx_sees_the_runtime(tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    def ext(pi: Any) -> None:
        def on_start(event: Any, ctx: ExtensionContext) -> None:
            seen.update(cwd=ctx.cwd, idle=ctx.is_idle(), model=ctx.model is not None, has_ui=ctx.has_ui,
                        trusted=ctx.is_project_trusted(), prompt=ctx.get_system_prompt())
        pi.on("session_start", on_start)

    rt, _, _ = await make_runtime(tmp_path, ["hello"], ext)
    assert seen["cwd"] == str(tmp_path) and seen["idle"] is True and seen["model"] is True
    assert seen["has_ui"] is False and isinstance(seen["prompt"], str) and seen["prompt"]
    await rt.shutdown()
