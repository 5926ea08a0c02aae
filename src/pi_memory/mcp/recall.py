"""Recall for MCP clients: ``search_memory`` and ``get_important_memories``.

The recall and decay extensions define these tools for the pi host; this provider serves the same
tool objects over MCP (:func:`~pi_memory.extensions.recall.standalone.standalone_recall_tools`: the
index opened on the first call, in a worker thread), on the index the user's ``pi-memory-recall``
settings name (``url``, else ``$PI_MEMORY_RECALL_URL``, else ``<agentDir>/recall.db``). The server
indexes nothing itself, so an MCP client searches every past pi session; its searches count as
accesses, which is what ``get_important_memories`` weighs. Set ``"pi-memory-recall": {"enabled":
false}`` to leave the tools out.
"""

from __future__ import annotations

from pi_memory.extensions.recall.standalone import standalone_recall_tools

from .tools import McpTool, ToolContext

__all__ = ["RECALL_SECTION", "recall_tools"]

RECALL_SECTION = "pi-memory-recall"


def recall_tools(context: ToolContext) -> list[McpTool]:
    """The recall provider (built into ``pi-memory mcp``); ``[]`` when recall is disabled."""
    return list(standalone_recall_tools(context.section(RECALL_SECTION)))
