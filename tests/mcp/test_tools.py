"""The registration point for more tools (how recall's tools, and third parties', join the server).

The provider here is a small real tool — it searches the store's live entries by substring; the
server treats it exactly as it treats recall's ``search_memory`` (see test_recall.py).
"""

from __future__ import annotations

import logging
import textwrap
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from mcp import Client
from mcp_helpers import mcp_session, validate_output

from pi_memory.base.tools import tool_result
from pi_memory.mcp import McpTool, ToolContext, create_server
from pi_memory.memory import MemoryStore, ToolResult

SEARCH_OUTPUT = {
    "type": "object",
    "properties": {
        "success": {"type": "boolean"},
        "results": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"},
                                                                                "text": {"type": "string"}}}},
        "error": {"type": "string"},
    },
    "required": ["success"],
}


class EntrySearch:
    """``search_memory(query)`` over the live entries of both targets."""

    name = "search_memory"
    description = "Search saved memory entries for a phrase."
    parameters: dict[str, Any] = {  # noqa: RUF012 (read as a plain attribute, like MemoryTool's)
        "type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"],
    }
    output_schema = SEARCH_OUTPUT

    def __init__(self, store: MemoryStore, fail: bool = False) -> None:
        self.store = store
        self.fail = fail

    async def execute(self, tool_call_id: str, params: Mapping[str, Any] | None, signal: Any = None,
                      on_update: Callable[..., Any] | None = None, ctx: Any = None) -> ToolResult:
        if self.fail:
            raise RuntimeError("index is corrupt")
        query = str((params or {}).get("query", "")).lower()
        hits = [{"id": f"{target}:{i}", "text": entry}
                for target in ("memory", "user")
                for i, entry in enumerate(self.store.read(target)["entries"]) if query in entry.lower()]
        return tool_result({"success": True, "results": hits})


def provide(context: ToolContext) -> list[McpTool]:
    return [EntrySearch(context.store)]


@pytest.mark.anyio
async def test_provider_tools_are_listed_after_the_memory_tools_and_callable(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    store.add("user", "Lives in Lisbon")
    server = create_server(store, providers=[provide])

    async with Client(server) as client:
        listed = (await client.list_tools()).tools
        assert [tool.name for tool in listed][-1] == "search_memory"
        assert len(listed) == 5 and listed[-1].output_schema == SEARCH_OUTPUT
        assert listed[-1].annotations is not None and listed[-1].annotations.read_only_hint is True
        result = await client.call_tool("search_memory", {"query": "lisbon"})
        assert result.is_error is False
        assert result.structured_content == {"success": True, "results": [{"id": "user:0",
                                                                            "text": "Lives in Lisbon"}]}
        validate_output(result.structured_content, SEARCH_OUTPUT)


@pytest.mark.anyio
async def test_bad_providers_are_skipped_and_names_never_shadowed(tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    store = MemoryStore(tmp_path)

    def broken(context: ToolContext) -> list[McpTool]:
        raise ImportError("recall index not configured")

    def shadowing(context: ToolContext) -> list[Any]:
        fake_add = EntrySearch(context.store)
        fake_add.name = "memory_add"
        return [fake_add, "not a tool"]

    with caplog.at_level(logging.WARNING, logger="pi_memory.mcp.tools"):
        server = create_server(store, providers=[broken, shadowing, provide])

    async with Client(server) as client:
        names = [tool.name for tool in (await client.list_tools()).tools]
        assert names == ["memory_add", "memory_replace", "memory_remove", "memory_read", "search_memory"]
        added = await client.call_tool("memory_add", {"target": "memory", "content": "real add"})
        assert added.structured_content["entries"] == ["real add"]  # type: ignore[index]
    assert "recall index not configured" in caplog.text
    assert "already registered" in caplog.text and "not a tool" in caplog.text


@pytest.mark.anyio
async def test_a_tool_that_raises_is_a_failed_call_not_a_dead_session(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    server = create_server(store, providers=[lambda context: [EntrySearch(context.store, fail=True)]])

    async with Client(server) as client:
        result = await client.call_tool("search_memory", {"query": "x"})
        assert result.is_error is True
        assert "index is corrupt" in result.structured_content["error"]  # type: ignore[index]
        assert (await client.call_tool("memory_read", {"target": "memory"})).is_error is False


@pytest.mark.anyio
async def test_installed_entry_points_are_served_by_pi_memory_mcp(tmp_path: Path) -> None:
    """A package that declares ``[project.entry-points."pi_memory.mcp_tools"]`` adds its tools."""
    site = tmp_path / "site"
    (site / "fake_recall-0.1.dist-info").mkdir(parents=True)
    (site / "fake_recall-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-recall\n"
                                                                 "Version: 0.1\n", encoding="utf-8")
    (site / "fake_recall-0.1.dist-info" / "entry_points.txt").write_text(
        "[pi_memory.mcp_tools]\nrecall = fake_recall:provide\n", encoding="utf-8")
    (site / "fake_recall.py").write_text(textwrap.dedent('''
        from pi_memory.base.tools import tool_result

        class Important:
            name = "list_recent_entries"
            description = "Entries that matter most."
            parameters = {"type": "object", "properties": {"limit": {"type": "integer"}}}
            output_schema = {"type": "object", "properties": {"success": {"type": "boolean"}}}

            def __init__(self, store):
                self.store = store

            async def execute(self, tool_call_id, params, signal=None, on_update=None, ctx=None):
                entries = self.store.read("memory")["entries"][: int((params or {}).get("limit", 10))]
                return tool_result({"success": True, "memories": entries, "namespace": ctx})

        def provide(context):
            return [Important(context.store)]
    '''), encoding="utf-8")

    async with mcp_session("--dir", str(tmp_path / "mem"), home=tmp_path,
                           env={"PYTHONPATH": str(site)}) as session:
        names = [tool.name for tool in (await session.list_tools()).tools]
        assert names[-1] == "list_recent_entries"
        await session.call_tool("memory_add", {"target": "memory", "content": "first"})
        result = await session.call_tool("list_recent_entries", {"limit": 1})
        assert result.structured_content == {"success": True, "memories": ["first"], "namespace": None}


def test_one_tool_protocol_serves_the_host_the_mcp_server_and_the_adapters(tmp_path: Any) -> None:
    """The MCP server and the framework adapters take the same :class:`Tool`; the memory,
    recall and decay tools satisfy it, and an object missing ``output_schema`` does not."""
    from pi_memory.base import Tool
    from pi_memory.integrations.common import PiTool, pi_tools
    from pi_memory.mcp import McpTool
    from pi_memory.memory import MemoryStore

    assert McpTool is Tool and PiTool is Tool
    tools = pi_tools(MemoryStore(tmp_path), recall=False)
    assert [tool.name for tool in tools] == ["memory_add", "memory_replace", "memory_remove", "memory_read"]
    assert all(isinstance(tool, Tool) for tool in tools)

    class NoOutputSchema:
        name = "x"
        description = "x"
        parameters: ClassVar[dict[str, Any]] = {"type": "object"}

        async def execute(self, tool_call_id: str, params: Any, signal: Any = None,
                          on_update: Any = None, ctx: Any = None) -> Any:
            return None

    assert not isinstance(NoOutputSchema(), Tool)
