"""``pi-memory mcp --http``: real HTTP on loopback, bearer token on every request."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp_helpers import SERVER_CMD, server_env, start_http_server, validate_output

from pi_memory.mcp.http import BindError, check_bind, is_loopback, load_token, parse_bind, rebinding_guard

TOKEN = "s3cret-token-for-tests-0123456789"
INITIALIZE = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def start_server(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str]:
    """Start ``pi-memory mcp --http …`` and return it with the URL it printed on stderr."""
    return start_http_server([*SERVER_CMD, "--dir", str(tmp_path / "mem"), *args], server_env(tmp_path, env))


@pytest.fixture
def token_server(tmp_path: Path) -> Iterator[str]:
    proc, url = start_server(tmp_path, "--http", "127.0.0.1:0", env={"PI_MEMORY_MCP_TOKEN": TOKEN})
    try:
        yield url
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def post(url: str, headers: dict[str, str]) -> httpx2.Response:
    return httpx2.post(url, headers={**MCP_HEADERS, **headers}, content=json.dumps(INITIALIZE), timeout=30)


def test_requests_without_or_with_a_wrong_token_are_rejected(token_server: str) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong-token-wrong-token"}, {"Authorization": TOKEN},
                    {"Authorization": f"Basic {TOKEN}"}, {"Authorization": f"Bearer {TOKEN}x"}):
        response = post(token_server, headers)
        assert response.status_code == 401, headers
        assert response.headers["www-authenticate"].startswith("Bearer")
        assert response.json()["error"] == "invalid_token"
    assert post(token_server, {"Authorization": f"bearer {TOKEN}"}).status_code == 200


@pytest.mark.anyio
async def test_the_official_client_works_with_the_token(token_server: str, tmp_path: Path) -> None:
    async def scenario() -> dict[str, Any]:
        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30) as http,
            streamable_http_client(token_server, http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            names = [t.name for t in (await session.list_tools()).tools]
            assert names[:4] == ["memory_add", "memory_replace", "memory_remove", "memory_read"]
            result = await session.call_tool("memory_add", {"target": "user", "content": "Uses the HTTP transport"})
            assert result.is_error is False and result.structured_content is not None
            return result.structured_content

    structured = await scenario()
    validate_output(structured)
    assert (tmp_path / "mem" / "USER.md").read_text(encoding="utf-8") == "Uses the HTTP transport"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("127.0.0.1:8080", ("127.0.0.1", 8080)), (":9000", ("127.0.0.1", 9000)), ("9000", ("127.0.0.1", 9000)),
     ("[::1]:7000", ("::1", 7000)), ("localhost", ("localhost", 8765)), ("0.0.0.0:0", ("0.0.0.0", 0))],
)
def test_parse_bind(value: str, expected: tuple[str, int]) -> None:
    assert parse_bind(value) == expected


@pytest.mark.parametrize("value", ["::1:80", "host:port", "[::1", "1.2.3.4:70000"])
def test_parse_bind_rejects_ambiguous_or_bad_addresses(value: str) -> None:
    with pytest.raises(BindError):
        parse_bind(value)


def test_loopback_rules_and_token_sources(tmp_path: Path) -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("LOCALHOST") and is_loopback("127.8.0.1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4") and not is_loopback("example.com")
    check_bind("127.0.0.1", None)
    check_bind("0.0.0.0", TOKEN)
    with pytest.raises(BindError):
        check_bind("::", None)
    assert load_token(None, {}) is None
    assert load_token(None, {"PI_MEMORY_MCP_TOKEN": f"  {TOKEN}\n"}) == TOKEN
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "-file\n", encoding="utf-8")
    assert load_token(token_file, {"PI_MEMORY_MCP_TOKEN": TOKEN}) == TOKEN + "-file"
    with pytest.raises(BindError, match="--token-file"):
        load_token(tmp_path / "missing", {})


@pytest.mark.parametrize("bind", ["127.0.0.1:0", "LOCALHOST:0", "127.0.0.2:0", "127.1.2.3:0",
                                  "[0:0:0:0:0:0:0:1]:0", "[::0001]:0"])
def test_every_tokenless_loopback_bind_refuses_a_foreign_host_or_origin(tmp_path: Path, bind: str) -> None:
    """DNS rebinding: a web page at evil.example whose name resolves to the loopback address
    must not get an answer, however the loopback address was spelled in ``--http``."""
    proc, url = start_server(tmp_path, "--http", bind)
    try:
        authority = url.split("/")[2]
        assert post(url, {"Host": "evil.example"}).status_code == 421
        assert post(url, {"Host": f"evil.example:{authority.rsplit(':', 1)[1]}"}).status_code == 421
        assert post(url, {"Origin": "http://evil.example"}).status_code == 403
        # The client's own spelling of the address, and localhost, still work.
        assert post(url, {}).status_code == 200
        assert post(url, {"Host": authority}).status_code == 200
        assert post(url, {"Host": f"localhost:{authority.rsplit(':', 1)[1]}"}).status_code == 200
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def test_the_rebinding_guard_names_the_address_as_clients_send_it() -> None:
    guard = rebinding_guard("::0001", 7000)
    assert guard.enable_dns_rebinding_protection
    assert {"[::0001]:7000", "[::1]:7000", "localhost:7000"} <= set(guard.allowed_hosts)
    assert "http://[::1]:7000" in guard.allowed_origins
    assert "[::1]" not in guard.allowed_hosts  # the bare name only on port 80, where clients omit it
    assert {"127.0.0.1", "127.0.0.1:80"} <= set(rebinding_guard("LOCALHOST", 80).allowed_hosts)
