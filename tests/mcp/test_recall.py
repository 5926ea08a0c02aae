"""Recall's ``search_memory`` and ``get_important_memories`` through ``pi-memory mcp``, on a real
SQLite recall index named by the user's ``pi-memory-recall`` settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp_helpers import mcp_session, validate_output

from pi_memory.extensions.decay.tool import OUTPUT_SCHEMA as IMPORTANT_OUTPUT
from pi_memory.extensions.recall.tool import OUTPUT_SCHEMA as SEARCH_OUTPUT
from pi_memory.extensions.recall.tool import PARAMETERS as SEARCH_PARAMETERS
from pi_memory.recall import open_index


def home_with_recall(tmp_path: Path, section: dict[str, object]) -> Path:
    agent = tmp_path / ".pi" / "agent"
    agent.mkdir(parents=True)
    (agent / "settings.json").write_text(json.dumps({"pi-memory-recall": section}), encoding="utf-8")
    return tmp_path


@pytest.mark.anyio
async def test_recall_tools_search_the_configured_index(tmp_path: Path) -> None:
    index_path = tmp_path / "recall.db"
    index = open_index(str(index_path))
    index.add([
        {"id": "s1:a", "text": "We moved the staging database to Frankfurt last week.", "role": "user",
         "timestamp": "2025-01-02T10:00:00.000Z", "session_id": "s1"},
        {"id": "s1:b", "text": "The billing service is written in Go.", "role": "assistant",
         "timestamp": "2025-01-02T10:01:00.000Z", "session_id": "s1"},
    ])
    index.close()
    home = home_with_recall(tmp_path, {"url": str(index_path)})

    async with mcp_session("--dir", str(tmp_path / "mem"), home=home) as session:
        listed = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert listed["search_memory"].input_schema == SEARCH_PARAMETERS
        assert listed["search_memory"].output_schema == SEARCH_OUTPUT
        assert listed["get_important_memories"].annotations.read_only_hint is True  # type: ignore[union-attr]

        found = await session.call_tool("search_memory", {"query": "where is the staging database?", "topK": 1})
        assert found.is_error is False and found.structured_content is not None
        validate_output(found.structured_content, SEARCH_OUTPUT)
        assert [hit["id"] for hit in found.structured_content["results"]] == ["s1:a"]
        assert "[s1:a] (similarity:" in found.content[0].text  # type: ignore[union-attr]

        important = await session.call_tool("get_important_memories", {"threshold": 0.0, "limit": 5})
        assert important.is_error is False and important.structured_content is not None
        validate_output(important.structured_content, IMPORTANT_OUTPUT)
        top = important.structured_content["memories"][0]
        assert top["id"] == "s1:a" and top["accessCount"] == 1  # the search above counted as an access

        bad = await session.call_tool("search_memory", {"query": "  "})
        assert bad.is_error is True


@pytest.mark.anyio
async def test_disabled_recall_leaves_only_the_memory_tools(tmp_path: Path) -> None:
    home = home_with_recall(tmp_path, {"enabled": False})

    async with mcp_session("--dir", str(tmp_path / "mem"), home=home) as session:
        names = [tool.name for tool in (await session.list_tools()).tools]
        assert names == ["memory_add", "memory_replace", "memory_remove", "memory_read"]


@pytest.mark.anyio
async def test_an_unusable_recall_index_fails_the_call_not_the_server(tmp_path: Path) -> None:
    home = home_with_recall(tmp_path, {"url": "postgresql://nobody@127.0.0.1:1/recall"})

    async with mcp_session("--dir", str(tmp_path / "mem"), home=home) as session:
        result = await session.call_tool("search_memory", {"query": "anything"})
        assert result.is_error is True
        assert "not available" in result.structured_content["error"]  # type: ignore[index]
        added = await session.call_tool("memory_add", {"target": "memory", "content": "still works"})
        assert added.is_error is False
