"""``pi-memory mcp``: the memory tools for any MCP client (Claude, Cursor, Codex, Goose, …).

>>> import tempfile
>>> from pi_memory.memory import MemoryStore
>>> from pi_memory.mcp import create_server
>>> server = create_server(MemoryStore(tempfile.mkdtemp()))
>>> server.name
'pi-memory'

Run it with :func:`serve_stdio` (what MCP clients launch) or :func:`~pi_memory.mcp.http.serve_http`.
See ``docs/mcp.md``.
"""

from __future__ import annotations

from pi_memory.mcp.server import PROMPT_NAME, RESOURCE_URIS, create_server, serve_stdio, snapshot_prompt_text
from pi_memory.mcp.tools import TOOL_PROVIDER_GROUP, McpTool, ToolContext, ToolProvider, discover_providers

__all__ = [
    "PROMPT_NAME",
    "RESOURCE_URIS",
    "TOOL_PROVIDER_GROUP",
    "McpTool",
    "ToolContext",
    "ToolProvider",
    "create_server",
    "discover_providers",
    "serve_stdio",
    "snapshot_prompt_text",
]
