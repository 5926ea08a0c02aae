"""With a bad DSN in settings, no MCP answer carries its password to the model — no tool result,
resource or prompt error — and the server's log on stderr does not either (``--verbose``).

The DSNs fail before connecting (libpq's parser rejects them, quoting the URI or the bad token)
or connect to a closed port; the server is a real ``pi-memory mcp`` subprocess on stdio."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError
from mcp_helpers import mcp_session

PW = "Hunter2Secret"
DSNS = [
    f"postgresql://agent:{PW}@[::1",
    f"postgresql://agent:{PW}%zz@localhost/memory",
    f"postgresql://agent@localhost/memory?password={PW}&bogus=1",
    f"host=localhost password='{PW}",
    f"postgresql://agent:{PW}@127.0.0.1:1/memory",
]
ARGUMENTS: dict[str, dict[str, Any]] = {
    "memory_add": {"target": "memory", "content": "CI runs on arm64"},
    "memory_replace": {"target": "memory", "oldText": "arm64", "newContent": "CI runs on x86"},
    "memory_remove": {"target": "user", "oldText": "tabs"},
    "memory_read": {"target": "memory"},
    "search_memory": {"query": "where does CI run"},
    "get_important_memories": {},
}


def home_with(root: Path, dsn: str) -> Path:
    agent = root / ".pi" / "agent"
    agent.mkdir(parents=True)
    recall_url = dsn if "://" in dsn else f"postgresql://agent:{PW}@[::1"  # recall takes URLs only
    settings = {"pi-memory": {"backend": "postgres", "dsn": dsn}, "pi-memory-recall": {"url": recall_url}}
    (agent / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    return root


async def everything_the_model_can_see(*args: str, home: Path, errlog: Any) -> list[str]:
    """Every tool's result (text and structured), and the resource and prompt errors."""
    seen: list[str] = []
    async with mcp_session(*args, home=home, errlog=errlog) as session:
        names = [tool.name for tool in (await session.list_tools()).tools]
        assert sorted(names) == sorted(ARGUMENTS)
        for name in names:
            result = await session.call_tool(name, ARGUMENTS[name])
            assert result.is_error is True or name not in ("memory_add", "memory_read"), (name, result)
            seen += [block.text for block in result.content if hasattr(block, "text")]
            seen.append(json.dumps(result.structured_content))
        for uri in ("memory://MEMORY.md", "memory://USER.md"):
            with pytest.raises(MCPError) as failed:
                await session.read_resource(uri)
            seen.append(str(failed.value))
        with pytest.raises(MCPError) as failed:
            await session.get_prompt("memory_snapshot")
        seen.append(str(failed.value))
    return seen


@pytest.mark.anyio
@pytest.mark.parametrize("dsn", DSNS)
async def test_no_tool_resource_prompt_or_log_line_holds_the_password(tmp_path: Path, dsn: str) -> None:
    home = home_with(tmp_path / "home", dsn)
    log = tmp_path / "stderr.txt"
    with log.open("w", encoding="utf-8") as errlog:
        seen = await everything_the_model_can_see("--verbose", home=home, errlog=errlog)
    memory_error = json.loads(seen[1])["error"]  # memory_add's structured result
    assert "PostgreSQL" in memory_error and ("not valid" in memory_error or "unreachable" in memory_error)
    assert all(PW not in text for text in seen), [text for text in seen if PW in text]
    assert PW not in log.read_text(encoding="utf-8")


@pytest.mark.anyio
async def test_a_dsn_given_on_the_command_line_is_scrubbed_too(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".pi" / "agent").mkdir(parents=True)
    log = tmp_path / "stderr.txt"
    with log.open("w", encoding="utf-8") as errlog:
        seen = await everything_the_model_can_see("--dsn", DSNS[1], "--verbose", home=home,
                                                              errlog=errlog)
    assert "the PostgreSQL DSN is not valid (invalid percent-encoded token" in seen[0]
    assert all(PW not in text for text in seen) and PW not in log.read_text(encoding="utf-8")
