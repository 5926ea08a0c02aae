"""Every client setup snippet in ``docs/mcp.md`` works when copied into that client's config.

Each snippet is read with its client's own format and key rules (``doc_snippets``), then exactly the
command and arguments it names are launched — ``pi-memory`` found on ``PATH`` as a user's client
would find it, only ``HOME`` pointed at a temporary directory — and driven by the official MCP
client over stdio: the tools are listed (recall's included) and called. The HTTP snippets are sent,
URL and headers as the client would send them, to the server the docs start.
"""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
import sys
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit

import httpx2
import pytest
from doc_snippets import Launch, Snippet, http_server_snippet, http_snippets, launch_of, remote_of, setup_snippets
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_helpers import start_http_server, validate_output

BIN = Path(sys.executable).parent
ALL_TOOLS = ["memory_add", "memory_replace", "memory_remove", "memory_read", "search_memory",
             "get_important_memories"]


def user_env(home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A user's environment: this checkout's ``pi-memory`` first on PATH, a fresh HOME, nothing else."""
    return {"HOME": str(home), "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", **(extra or {})}


def test_every_client_in_the_docs_has_its_snippets() -> None:
    found = {(s.client, s.lang) for s in setup_snippets()}
    assert found == {
        ("Claude Desktop", "json"), ("Claude Code", "bash"), ("Claude Code", "json"), ("Cursor", "json"),
        ("Codex", "bash"), ("Codex", "toml"), ("Goose", "yaml"), ("Goose", "shell"),
    }
    assert {s.lang for s in http_snippets()} == {"bash", "json", "toml"}  # Claude Code, Cursor, Codex


@pytest.mark.parametrize("snippet", setup_snippets(), ids=lambda s: s.id)
def test_snippet_is_valid_for_its_client_and_names_pi_memory(snippet: Snippet, tmp_path: Path) -> None:
    launch = launch_of(snippet)
    resolved = shutil.which(launch.command, path=user_env(tmp_path)["PATH"])
    assert resolved == str(BIN / "pi-memory"), f"{launch.command!r} does not start this pi-memory"
    assert launch.args[:1] == ("mcp",)


def _launches() -> dict[Launch, list[str]]:
    """Each distinct command line the snippets name, with the snippets that name it."""
    named: dict[Launch, list[str]] = defaultdict(list)
    for snippet in setup_snippets():
        named[launch_of(snippet)].append(snippet.id)
    return dict(named)


@pytest.mark.anyio
@pytest.mark.parametrize("launch", list(_launches()), ids=lambda launch: "+".join(_launches()[launch]))
async def test_the_command_a_snippet_names_serves_and_runs_the_tools(launch: Launch, tmp_path: Path) -> None:
    params = StdioServerParameters(command=launch.command, args=list(launch.args),
                                   env=user_env(tmp_path, launch.env))

    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        assert [tool.name for tool in (await session.list_tools()).tools] == ALL_TOOLS
        added = await session.call_tool("memory_add", {"target": "user", "content": "Prefers tabs"})
        assert added.is_error is False and added.structured_content is not None
        validate_output(added.structured_content)
        read_back = await session.call_tool("memory_read", {"target": "user"})
        assert read_back.structured_content is not None
        assert read_back.structured_content["entries"] == ["Prefers tabs"]
        important = await session.call_tool("get_important_memories", {"threshold": 0.0})
        assert important.is_error is False, important.content  # the default recall index opens
    assert (tmp_path / ".pi" / "agent" / "memories" / "USER.md").read_text(encoding="utf-8") == "Prefers tabs"


@pytest.mark.anyio
async def test_the_http_snippets_reach_the_server_the_docs_start(tmp_path: Path) -> None:
    token = secrets.token_urlsafe(32)  # what the docs' export line generates
    start = next(line for line in http_server_snippet().text.splitlines() if line.startswith("pi-memory mcp"))
    words = shlex.split(start, comments=True)
    bind = words.index("--http") + 1
    documented = words[bind]
    words[bind] = documented.rsplit(":", 1)[0] + ":0"  # the only change: a free port instead of 8765
    proc, served = start_http_server(words, user_env(tmp_path, {"PI_MEMORY_MCP_TOKEN": token}))
    try:
        for snippet in http_snippets():
            remote = remote_of(snippet, {"PI_MEMORY_MCP_TOKEN": token})
            assert urlsplit(remote.url).netloc == documented, f"{snippet.id} points elsewhere: {remote.url}"
            url = remote.url.replace(documented, urlsplit(served).netloc)

            async def scenario(url: str = url, headers: dict[str, str] = remote.headers) -> None:
                async with (
                    httpx2.AsyncClient(headers=headers, timeout=30) as http,
                    streamable_http_client(url, http_client=http) as (read, write),
                    ClientSession(read, write) as session,
                ):
                    await session.initialize()
                    assert [tool.name for tool in (await session.list_tools()).tools] == ALL_TOOLS
                    result = await session.call_tool("memory_read", {"target": "memory"})
                    assert result.is_error is False

            await scenario()
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
