"""LangChain: the memory tools as ``BaseTool``s, and a ``create_agent`` middleware that adds
them and puts the frozen memory block in the system message.

    from langchain.agents import create_agent
    from pi_memory.integrations.langchain import PiMemoryMiddleware, memory_tools

    agent = create_agent(model, tools=[], middleware=[PiMemoryMiddleware(store)])

Each tool answers with ``response_format="content_and_artifact"``: the model reads the result's
text, and the ``ToolMessage.artifact`` is the structured result itself (``success``, ``entries``,
``usage``, ``error``…), so a program can act on it without parsing text.

Install with ``pip install 'pi-memory[langchain]'`` (``langchain``, which brings ``langchain-core``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal

from langchain.agents.middleware import AgentMiddleware
from langchain_core.messages import SystemMessage
from langchain_core.tools import BaseTool
from pydantic import ConfigDict

from pi_memory.memory import ToolResult, memory_prompt
from pi_memory.recall import RecallService

from .common import PiTool, pi_tools, run_sync, tool_arguments
from .sources import MemorySource, open_memory

__all__ = ["PiMemoryMiddleware", "PiMemoryTool", "memory_tools"]


class PiMemoryTool(BaseTool):
    """One pi-memory tool as a LangChain tool; its artifact is the structured result."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    pi_tool: Any
    """The pi-memory tool this one calls (memory, recall or decay)."""
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"

    def _run(self, **kwargs: Any) -> tuple[str, dict[str, Any]]:
        kwargs.pop("run_manager", None)
        result: ToolResult = run_sync(lambda: self.pi_tool.execute(f"langchain-{self.name}", tool_arguments(kwargs)))
        return result.text, _artifact(result)

    async def _arun(self, **kwargs: Any) -> tuple[str, dict[str, Any]]:
        kwargs.pop("run_manager", None)
        result: ToolResult = await self.pi_tool.execute(f"langchain-{self.name}", tool_arguments(kwargs))
        return result.text, _artifact(result)


def _artifact(result: ToolResult) -> dict[str, Any]:
    return dict(result.structured_content) if result.structured_content is not None else {"text": result.text}


def _as_langchain(tool: PiTool) -> PiMemoryTool:
    return PiMemoryTool(name=tool.name, description=tool.description, args_schema=dict(tool.parameters), pi_tool=tool)


def memory_tools(store: MemorySource = None, recall: bool | RecallService = True) -> list[BaseTool]:
    """LangChain tools for the four memory tools and, with ``recall``, ``search_memory`` and
    ``get_important_memories`` (``store`` defaults to ``$PI_AGENT_HOME/memories``)."""
    return [_as_langchain(tool) for tool in pi_tools(open_memory(store), recall)]


class PiMemoryMiddleware(AgentMiddleware):
    """For ``create_agent(..., middleware=[PiMemoryMiddleware(store)])``: registers the memory
    tools (and recall's, with ``recall``) and appends the memory guidance and the frozen snapshot
    to the system message of every model call.

    The block is rendered once, when the middleware is built, from the store's frozen snapshot,
    so every call of the agent's life sends the same bytes (the provider's prompt cache stays
    warm); what the agent saves shows up in the next middleware built over a reloaded store.
    """

    def __init__(self, store: MemorySource = None, recall: bool | RecallService = True) -> None:
        super().__init__()
        self.store = open_memory(store)
        self.tools = memory_tools(self.store, recall)
        self.prompt = memory_prompt(self.store.frozen_snapshot())

    def _with_memory(self, request: Any) -> Any:
        system = request.system_message
        if system is None:
            content: list[Any] = [{"type": "text", "text": self.prompt}]
        else:
            content = [*system.content_blocks, {"type": "text", "text": f"\n\n{self.prompt}"}]
        return request.override(system_message=SystemMessage(content=content))

    def wrap_model_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        """Add the memory block to the system message, then call the model."""
        return handler(self._with_memory(request))

    async def awrap_model_call(self, request: Any, handler: Callable[[Any], Awaitable[Any]]) -> Any:
        """Async form of :meth:`wrap_model_call`."""
        return await handler(self._with_memory(request))
