"""Shared pieces of the MCP tests: launching ``pi-memory mcp`` and checking results.

The server always runs as a real subprocess (``python -m pi_memory.cli mcp …``) and is driven
by the official SDK's ``ClientSession``; only the provider tests use the SDK's in-memory
transport, which runs the same server object in-process.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import jsonschema
from mcp import ClientSession, StdioServerParameters, stdio_client

from pi_memory.memory.tools import OUTPUT_SCHEMA

SERVER_CMD = [sys.executable, "-m", "pi_memory.cli", "mcp"]


def server_env(home: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The subprocess environment: an isolated HOME / agent dir, nothing from the real user."""
    env = {
        "HOME": str(home),
        "PI_AGENT_HOME": str(home / ".pi" / "agent"),
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
    }
    env.update(extra or {})
    return env


@contextlib.asynccontextmanager
async def mcp_session(
    *args: str, home: Path, env: Mapping[str, str] | None = None, errlog: Any = None, cwd: Path | None = None
) -> AsyncIterator[ClientSession]:
    """An initialized client session with ``pi-memory mcp ARGS`` over stdio (started in ``cwd``)."""
    params = StdioServerParameters(command=SERVER_CMD[0], args=[*SERVER_CMD[1:], *args], env=server_env(home, env),
                                   cwd=cwd)
    log = errlog if errlog is not None else sys.stderr
    async with stdio_client(params, errlog=log) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def start_http_server(command: Sequence[str], env: Mapping[str, str]) -> tuple[subprocess.Popen[str], str]:
    """Start ``pi-memory mcp --http …`` (``command``) and return it with the URL it printed on stderr."""
    proc = subprocess.Popen(list(command), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=dict(env))
    assert proc.stderr is not None
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    try:
        seen = []
        for line in proc.stderr:
            seen.append(line)
            if found := re.search(r"listening on (http://\S+/mcp)", line):
                return proc, found.group(1)
        raise AssertionError(f"server exited before listening:\n{''.join(seen)}")
    finally:
        watchdog.cancel()


def validate_output(structured: Any, schema: Mapping[str, Any] = OUTPUT_SCHEMA) -> None:
    """Raise unless ``structured`` is valid under ``schema`` (JSON Schema 2020-12)."""
    jsonschema.Draft202012Validator(dict(schema)).validate(structured)
