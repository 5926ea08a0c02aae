"""``pi-memory mcp`` on the PostgreSQL backend: two machines, one setting, one memory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPError
from mcp_helpers import mcp_session, validate_output
from storage_fixtures import fresh_namespace

pytestmark = pytest.mark.postgres


def machine(root: Path, settings: dict[str, object]) -> Path:
    """A home directory whose user settings hold ``settings`` under "pi-memory"."""
    agent = root / ".pi" / "agent"
    agent.mkdir(parents=True)
    (agent / "settings.json").write_text(json.dumps({"pi-memory": settings}), encoding="utf-8")
    return root


@pytest.mark.anyio
async def test_two_machines_share_memory_by_changing_one_setting(postgres_dsn: str, tmp_path: Path) -> None:
    shared = {"backend": "postgres", "dsn": postgres_dsn, "namespace": fresh_namespace()}
    first = machine(tmp_path / "first", shared)
    second = machine(tmp_path / "second", shared)

    async with mcp_session(home=first) as a, mcp_session(home=second) as b:
        added = await a.call_tool("memory_add", {"target": "memory", "content": "CI runs on the arm64 pool"})
        assert added.is_error is False
        seen = await b.call_tool("memory_read", {"target": "memory"})
        assert seen.structured_content["entries"] == ["CI runs on the arm64 pool"]  # type: ignore[index]
        await b.call_tool("memory_add", {"target": "memory", "content": "Releases are cut on Tuesdays"})
        both = (await a.read_resource("memory://MEMORY.md")).contents[0]
        assert both.text == "CI runs on the arm64 pool\n§\nReleases are cut on Tuesdays"  # type: ignore[union-attr]
        listed = (await a.list_resources()).resources
        assert f"postgres:{shared['namespace']}/MEMORY.md" in (listed[0].description or "")


@pytest.mark.anyio
async def test_an_unreachable_database_is_an_error_result_saying_what_to_check(tmp_path: Path) -> None:
    async with mcp_session("--dsn", "postgresql://agent@127.0.0.1:1/memory", home=tmp_path) as session:
        result = await session.call_tool("memory_add", {"target": "user", "content": "Prefers short answers"})
        assert result.is_error is True and result.structured_content is not None
        validate_output(result.structured_content)
        error = result.structured_content["error"]
        assert "PostgreSQL at agent@127.0.0.1:1/memory is unreachable" in error and "pi-memory.dsn" in error
        with pytest.raises(MCPError, match="unreachable"):
            await session.read_resource("memory://USER.md")
        with pytest.raises(MCPError, match="unreachable"):
            await session.get_prompt("memory_snapshot")
