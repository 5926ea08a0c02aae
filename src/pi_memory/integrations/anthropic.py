"""Anthropic's memory tool (``memory_20250818``) over pi-memory: ``pip install 'pi-memory[anthropic]'``.

:class:`MemoryTool` subclasses the SDK's ``BetaAbstractMemoryTool`` (and :class:`AsyncMemoryTool`
its async twin), so it goes wherever the SDK takes one — ``client.beta.messages.tool_runner(...,
tools=[MemoryTool()])`` runs the model's memory calls against ``MEMORY.md`` and ``USER.md``
through :class:`~pi_memory.memory.MemoryStore` (scanner, budgets, drift backups, the lock)::

    from anthropic import Anthropic
    from pi_memory.integrations.anthropic import MemoryTool, memory_system_prompt

    memory = MemoryTool()                       # the default memory directory and settings
    runner = Anthropic().beta.messages.tool_runner(
        model="claude-sonnet-4-5", max_tokens=1024, tools=[memory],
        system=memory_system_prompt(memory.store),
        messages=[{"role": "user", "content": "I prefer tabs."}],
    )

A refused command raises the SDK's ``ToolError``: the runner sends its text as an ``is_error``
tool result. See ``docs/integrations.md`` and :mod:`pi_memory.integrations.commands`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import anyio.to_thread
from anthropic.lib.tools import ToolError
from anthropic.tools.memory import BetaAbstractMemoryTool, BetaAsyncAbstractMemoryTool
from anthropic.types.beta import (
    BetaCacheControlEphemeralParam,
    BetaMemoryTool20250818Command,
    BetaMemoryTool20250818CreateCommand,
    BetaMemoryTool20250818DeleteCommand,
    BetaMemoryTool20250818InsertCommand,
    BetaMemoryTool20250818RenameCommand,
    BetaMemoryTool20250818StrReplaceCommand,
    BetaMemoryTool20250818ViewCommand,
)

from pi_memory.memory import MemoryStore

from .commands import COMMANDS, CommandError, MemoryCommands, memory_system_prompt
from .sources import MemorySource, open_memory

__all__ = ["AsyncMemoryTool", "MemoryTool", "memory_system_prompt"]

_T = TypeVar("_T")


def _answer(handler: Callable[..., _T], *args: Any) -> _T:
    """Run a command handler; its refusal becomes the SDK's ``ToolError`` (an ``is_error`` tool result)."""
    try:
        return handler(*args)
    except CommandError as exc:
        raise ToolError(str(exc)) from None


class MemoryTool(BetaAbstractMemoryTool):
    """The memory tool over a store, a directory, or (nothing) the user's default memory.

    ``cache_control`` is passed to the tool definition as the SDK's own tool takes it.
    """

    def __init__(self, store: MemorySource = None, *,
                 cache_control: BetaCacheControlEphemeralParam | None = None) -> None:
        super().__init__(cache_control=cache_control)
        self.store: MemoryStore = open_memory(store)
        self.commands = MemoryCommands(self.store)

    def execute(self, command: BetaMemoryTool20250818Command) -> str:
        """The SDK's dispatch, with an unknown command refused like ``delete`` rather than raised."""
        if command.command not in COMMANDS:
            return _answer(self.commands.refuse, str(command.command))
        return str(super().execute(command))

    def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        return _answer(self.commands.view, command.path, command.view_range)

    def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        return _answer(self.commands.create, command.path, command.file_text)

    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        return _answer(self.commands.str_replace, command.path, command.old_str, command.new_str)

    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        return _answer(self.commands.insert, command.path, command.insert_text)

    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        return _answer(self.commands.refuse, "delete")

    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        return _answer(self.commands.refuse, "rename")


class AsyncMemoryTool(BetaAsyncAbstractMemoryTool):
    """:class:`MemoryTool` for ``AsyncAnthropic``: each command runs in a worker thread, so a store
    waiting on another process's lock never stalls the event loop."""

    def __init__(self, store: MemorySource = None, *,
                 cache_control: BetaCacheControlEphemeralParam | None = None) -> None:
        super().__init__(cache_control=cache_control)
        self.store: MemoryStore = open_memory(store)
        self.commands = MemoryCommands(self.store)

    async def _run(self, handler: Callable[..., str], *args: Any) -> str:
        return await anyio.to_thread.run_sync(_answer, handler, *args)

    async def execute(self, command: BetaMemoryTool20250818Command) -> str:
        if command.command not in COMMANDS:
            return await self._run(self.commands.refuse, str(command.command))
        return str(await super().execute(command))

    async def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        return await self._run(self.commands.view, command.path, command.view_range)

    async def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        return await self._run(self.commands.create, command.path, command.file_text)

    async def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        return await self._run(self.commands.str_replace, command.path, command.old_str, command.new_str)

    async def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        return await self._run(self.commands.insert, command.path, command.insert_text)

    async def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        return await self._run(self.commands.refuse, "delete")

    async def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        return await self._run(self.commands.refuse, "rename")
