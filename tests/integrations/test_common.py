"""What the framework adapters share (:mod:`pi_memory.integrations.common`): the tool set, the
strict schema form OpenAI's structured outputs need (and reading its ``null`` back as "not
given"), and running a tool from synchronous code inside or outside an event loop."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from pi_memory.integrations.common import pi_tools, run_sync, strict_parameters, tool_arguments
from pi_memory.memory import MemoryStore

SCHEMA = {
    "type": "object",
    "properties": {"target": {"type": "string", "description": "Which file"}, "limit": {"type": "integer"}},
    "required": ["target"],
}


def test_the_strict_form_requires_every_property_and_lets_optional_ones_be_null() -> None:
    strict = strict_parameters(SCHEMA)
    assert strict["required"] == ["target", "limit"] and strict["additionalProperties"] is False
    assert strict["properties"]["target"] == {"type": "string", "description": "Which file"}
    assert strict["properties"]["limit"] == {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    assert SCHEMA["required"] == ["target"] and "additionalProperties" not in SCHEMA  # the tool's own is untouched
    assert tool_arguments({"target": "memory", "limit": None}) == {"target": "memory"}


def test_run_sync_outside_a_loop_reuses_this_threads_loop(tmp_path: Path) -> None:
    add = pi_tools(MemoryStore(tmp_path), recall=False)[0]
    loops: list[asyncio.AbstractEventLoop] = []

    async def call(text: str) -> bool:
        loops.append(asyncio.get_running_loop())
        result = await add.execute("c", {"target": "memory", "content": text})
        return result.is_error

    assert run_sync(lambda: call("first")) is False and run_sync(lambda: call("second")) is False
    assert loops[0] is loops[1]
    assert MemoryStore(tmp_path).read("memory")["entries"] == ["first", "second"]


@pytest.mark.anyio
async def test_run_sync_inside_a_running_loop_never_reenters_it() -> None:
    outer = asyncio.get_running_loop()

    async def where() -> tuple[asyncio.AbstractEventLoop, str]:
        return asyncio.get_running_loop(), threading.current_thread().name

    loop, thread = run_sync(where)
    assert loop is not outer and thread == "pi-memory-sync-tool"

    async def broken() -> None:
        raise ValueError("from the tool")

    with pytest.raises(ValueError, match="from the tool"):
        run_sync(broken)
