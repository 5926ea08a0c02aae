"""Which tools the MCP server offers, and how more are plugged in.

The server speaks for any object shaped like :class:`McpTool` — the memory tools from
:func:`~pi_memory.memory.create_memory_tools` already are — so a tool keeps one definition for
every host: its JSON Schema, its ``output_schema`` and its :class:`~pi_memory.memory.ToolResult`
travel to MCP unchanged (``structuredContent`` and ``isError`` included).

Tools beyond memory (recall's ``search_memory`` and ``get_important_memories``) arrive through a
*tool provider*: a callable taking a :class:`ToolContext` and returning tools. Providers are
passed to :func:`~pi_memory.mcp.create_server` or found through the entry-point group
:data:`TOOL_PROVIDER_GROUP`, so a package adds tools to ``pi-memory mcp`` with one line of
``pyproject.toml`` and no change here::

    [project.entry-points."pi_memory.mcp_tools"]
    recall = "pi_memory.extensions.recall.mcp:recall_tools"
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

from pi_memory.base import Tool
from pi_memory.memory import MemoryStore

__all__ = ["TOOL_PROVIDER_GROUP", "McpTool", "ToolContext", "ToolProvider", "collect_tools", "discover_providers"]

log = logging.getLogger(__name__)

TOOL_PROVIDER_GROUP = "pi_memory.mcp_tools"

#: Tools that change nothing; MCP clients may call them without asking the user.
READ_ONLY_TOOLS = frozenset({"memory_read", "search_memory", "get_important_memories"})


#: What the server needs from a tool: the one tool protocol (:class:`pi_memory.base.tools.Tool`).
McpTool = Tool


def _no_section(name: str) -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class ToolContext:
    """What a provider may build its tools from: the server's store, its ``pi-memory`` settings
    section, and ``section(name)`` for any other section of the user's settings."""

    store: MemoryStore
    settings: Mapping[str, Any] = field(default_factory=dict)
    section: Callable[[str], Mapping[str, Any]] = _no_section


ToolProvider = Callable[[ToolContext], Iterable[McpTool]]


def discover_providers(group: str = TOOL_PROVIDER_GROUP) -> list[ToolProvider]:
    """Providers registered by installed packages; a broken one is logged and skipped."""
    found: list[ToolProvider] = []
    for point in sorted(entry_points(group=group), key=lambda p: p.name):
        try:
            found.append(point.load())
        except Exception as exc:  # a third-party plugin must not take the server down
            log.warning("skipping MCP tool provider %r (%s): %s", point.name, point.value, exc)
    return found


def collect_tools(base: Sequence[McpTool], providers: Iterable[ToolProvider], context: ToolContext) -> list[McpTool]:
    """``base`` then every provider's tools, in order; a later tool never shadows an earlier name."""
    tools = list(base)
    names = {tool.name for tool in tools}
    for provider in providers:
        try:
            offered = list(provider(context))
        except Exception as exc:
            log.warning("MCP tool provider %r failed; its tools are not offered: %s", provider, exc)
            continue
        for tool in offered:
            if not isinstance(tool, McpTool):
                log.warning("MCP tool provider %r returned %r, which is not a tool; skipped", provider, tool)
            elif tool.name in names:
                log.warning("MCP tool %r is already registered; the duplicate is skipped", tool.name)
            else:
                tools.append(tool)
                names.add(tool.name)
    return tools
