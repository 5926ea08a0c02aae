"""What the framework adapters share: the tool set and its strict-schema form, and a way to run a
tool from synchronous code (where the memory comes from is :mod:`.sources`; the prompt text is
:func:`pi_memory.memory.memory_prompt` over the store's frozen snapshot).

The adapters stay thin: every tool call goes through the same :class:`~pi_memory.memory.tools.ToolBase`
objects the host and the MCP server use, so budgets, the threat scanner, the lock and drift
backups apply unchanged, and recall's ``search_memory`` / ``get_important_memories`` are the
recall extension's own tools over the shared recall service.
"""

from __future__ import annotations

import asyncio
import copy
import threading
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, TypeVar

from pi_memory.base import Tool
from pi_memory.memory import MemoryStore, create_memory_tools
from pi_memory.recall import RecallService

from .sources import user_section

__all__ = ["PiTool", "pi_tools", "run_sync", "strict_parameters", "tool_arguments"]

_T = TypeVar("_T")

#: What an adapter needs from one of our tools: the one tool protocol (the memory, recall and
#: decay tools all satisfy it).
PiTool = Tool


def pi_tools(store: MemoryStore, recall: bool | RecallService = True) -> list[PiTool]:
    """The four memory tools over ``store``, then ``search_memory`` and ``get_important_memories``.

    ``recall`` is ``True`` (the index your ``pi-memory-recall`` settings name, opened on the first
    search), a :class:`RecallService` you own, or ``False`` (memory tools only).
    """
    tools: list[PiTool] = list(create_memory_tools(store))
    if recall is False:
        return tools
    from pi_memory.extensions.decay.tool import ImportantMemoriesTool
    from pi_memory.extensions.recall.settings import SECTION as RECALL_SECTION
    from pi_memory.extensions.recall.standalone import standalone_recall_tools
    from pi_memory.extensions.recall.tool import SearchMemoryTool

    if not isinstance(recall, RecallService):
        return [*tools, *standalone_recall_tools(user_section(RECALL_SECTION))]
    given = recall
    tools.append(SearchMemoryTool(lambda: given))
    tools.append(ImportantMemoriesTool(lambda: given, lambda: given.decay_rate))
    return tools


def strict_parameters(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` in the strict form OpenAI's structured outputs accept.

    Every property becomes required and ``additionalProperties`` false; a property that was
    optional may be ``null`` instead, which :func:`tool_arguments` reads as "not given".
    """
    strict = copy.deepcopy(dict(schema))
    properties: dict[str, Any] = strict.setdefault("properties", {})
    required = set(strict.get("required", []))
    for name, prop in list(properties.items()):
        if name not in required:
            description = prop.pop("description", None)
            nullable: dict[str, Any] = {"anyOf": [prop, {"type": "null"}]}
            if description is not None:
                nullable["description"] = description
            properties[name] = nullable
    strict["required"] = list(properties)
    strict["additionalProperties"] = False
    return strict


def tool_arguments(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Arguments as the tools read them: a ``null`` from a strict schema means "not given"."""
    return {key: value for key, value in arguments.items() if value is not None}


_thread_loops = threading.local()


def _thread_loop() -> asyncio.AbstractEventLoop:
    """This thread's own event loop, kept for its life: ``asyncio.run`` per call would start and
    tear down a loop and its worker thread every time (about 3 ms of a 0.4 ms tool call)."""
    loop: asyncio.AbstractEventLoop | None = getattr(_thread_loops, "loop", None)
    if loop is None or loop.is_closed():
        loop = _thread_loops.loop = asyncio.new_event_loop()
    return loop


def run_sync(make: Callable[[], Coroutine[Any, Any, _T]]) -> _T:
    """Run a coroutine to completion from synchronous code.

    With no event loop running in this thread (LangChain runs sync tools in worker threads) it
    runs on this thread's own loop; inside a running loop it runs on a fresh thread, so a sync
    call never re-enters the caller's loop.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _thread_loop().run_until_complete(make())
    box: dict[str, Any] = {}

    def worker() -> None:
        try:
            box["value"] = asyncio.run(make())  # a one-off thread: its loop is closed with it
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=worker, name="pi-memory-sync-tool")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    value: _T = box["value"]
    return value
