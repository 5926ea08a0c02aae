"""pi-memory as a Pydantic AI toolset: ``pip install 'pi-memory[pydantic-ai]'``.

:class:`MemoryToolset` is a ``FunctionToolset`` (Pydantic AI's own class), so it goes wherever a
toolset does — ``Agent(model, toolsets=[MemoryToolset()])``. It brings:

* **instructions**: the memory guidance and the store's frozen snapshot, as a static instruction
  part (``get_instructions`` returns the same text for every request of every run of this toolset,
  so the prompt prefix stays cacheable; a new toolset shows what earlier runs saved);
* **the memory tools** ``memory_add``, ``memory_replace``, ``memory_remove``, ``memory_read`` and
  recall's ``search_memory`` and ``get_important_memories`` (the same objects ``pi-memory mcp``
  serves, with their JSON Schemas);
* **a ``memory`` tool** with Anthropic's ``memory_20250818`` command set, so Pydantic AI's
  ``MemoryTool`` native-tool capability can swap in Anthropic's native memory tool on Anthropic
  models and still land every write in the same store.

A refused write raises Pydantic AI's ``ToolFailed``: the model sees why, without spending its retry
budget on a call that cannot succeed unchanged.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from pydantic_ai import Tool
from pydantic_ai.exceptions import ToolFailed
from pydantic_ai.toolsets import FunctionToolset

from pi_memory.extensions.recall.standalone import standalone_recall_tools
from pi_memory.extensions.recall.tool import RecallTool
from pi_memory.memory import MemoryStore, ToolResult, create_memory_tools
from pi_memory.memory.tools import MemoryTool

from .commands import (
    MEMORY_COMMAND_DESCRIPTION,
    MEMORY_COMMAND_SCHEMA,
    CommandError,
    MemoryCommands,
    memory_system_prompt,
)
from .sources import MemorySource, open_memory, user_section

__all__ = ["MemoryToolset"]

RECALL_SECTION = "pi-memory-recall"


def _outcome(result: ToolResult) -> Any:
    """A tool result as Pydantic AI takes it: the structured object, or ``ToolFailed`` with its text."""
    if result.is_error:
        raise ToolFailed(result.text)
    return result.structured_content if result.structured_content is not None else result.text


def _function_tool(tool: MemoryTool | RecallTool, *, sequential: bool) -> Tool[Any]:
    """One of our tools as a Pydantic AI ``Tool`` with its own JSON Schema (no re-derived schema)."""

    async def call(**arguments: Any) -> Any:
        return _outcome(await tool.execute(f"pydantic-ai-{tool.name}", arguments))

    call.__name__ = tool.name
    return Tool.from_schema(call, name=tool.name, description=tool.description, json_schema=tool.parameters,
                            sequential=sequential)


class MemoryToolset(FunctionToolset[Any]):
    """Memory, recall and the ``memory`` command tool over one store, with the frozen snapshot as instructions.

    ``store``: a :class:`~pi_memory.memory.MemoryStore`, a directory, or ``None`` for the user's
    default memory. ``recall``: ``True`` reads the user's ``pi-memory-recall`` settings, a mapping
    is such a section, ``False`` leaves the recall tools out.
    """

    def __init__(self, store: MemorySource = None, *, recall: bool | Mapping[str, Any] = True,
                 id: str | None = "pi-memory", max_retries: int | None = None) -> None:
        self.store: MemoryStore = open_memory(store)
        self.commands = MemoryCommands(self.store)
        #: The instructions every request of this toolset carries (frozen at construction).
        self.instructions_text = memory_system_prompt(self.store)
        section = user_section(RECALL_SECTION) if recall is True else recall or None
        recall_tools = standalone_recall_tools(section) if recall is not False else []
        tools: list[Tool[Any]] = [_function_tool(t, sequential=True) for t in create_memory_tools(self.store)]
        tools += [_function_tool(t, sequential=False) for t in recall_tools]
        tools.append(Tool.from_schema(self._memory_command, name="memory", description=MEMORY_COMMAND_DESCRIPTION,
                                      json_schema=MEMORY_COMMAND_SCHEMA, sequential=True))
        super().__init__(tools, id=id, max_retries=max_retries, instructions=self.instructions_text)

    async def _memory_command(self, **command: Any) -> str:
        try:
            return await asyncio.to_thread(self.commands.run, command)
        except CommandError as exc:
            raise ToolFailed(str(exc)) from None

