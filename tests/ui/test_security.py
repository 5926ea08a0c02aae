"""The UI's guard over real HTTP against a running ``pi-memory ui``: token and cookie, Host
allow-list (DNS rebinding), same-origin writes (CSRF), loopback-only binding, security headers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from pi_memory.ui.security import CSP

ADD = {"target": "memory", "content": "a fact that must not be written"}


@pytest.fixture
def server(shared_ui_server: Any) -> Any:
    return shared_ui_server


def _written(server: Any) -> str:
    return server.memory_file.read_text() if server.memory_file.exists() else ""


def test_without_the_token_every_path_is_401_and_says_how_to_get_the_url(server: Any) -> None:
    with httpx.Client(base_url=server.base) as client:
        for path in ("/", "/api/memory", "/static/app.js", "/static/pages/memory.js"):
            answer = client.get(path)
            assert answer.status_code == 401, path
            assert "pi-memory ui" in answer.text and "?token=" in answer.text, path
        assert client.get("/api/memory").json()["success"] is False
        assert client.post("/api/memory/add", json=ADD, headers={"X-Pi-Memory": "1"}).status_code == 401
    assert ADD["content"] not in _written(server)


def test_the_token_sets_a_strict_httponly_cookie_and_leaves_the_url(server: Any) -> None:
    with httpx.Client(base_url=server.base) as client:
        answer = client.get(f"/?token={server.token}&keep=1")
        assert answer.status_code == 303
        assert answer.headers["location"] == "/?keep=1"  # the token is gone, the rest stays
        cookie = answer.headers["set-cookie"]
        assert cookie.startswith(f"pi-memory-ui-{server.port}={server.token};")
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
        page = client.get("/")
        assert page.status_code == 200 and '<script type="module" src="/static/app.js">' in page.text
        assert client.get("/api/memory").json()["success"] is True


def test_a_wrong_token_or_cookie_is_refused(server: Any) -> None:
    with httpx.Client(base_url=server.base) as client:
        answer = client.get("/?token=" + "x" * len(server.token))
        assert answer.status_code == 401 and "set-cookie" not in answer.headers
        wrong_last = "B" if server.token.endswith("A") else "A"  # always one character off (it was "A": 1 run in 64)
        client.cookies.set(f"pi-memory-ui-{server.port}", server.token[:-1] + wrong_last)
        assert client.get("/api/memory").status_code == 401
        client.cookies.clear()
        client.cookies.set(f"pi-memory-ui-{server.port + 1}", server.token)  # another port's cookie name
        assert client.get("/api/memory").status_code == 401


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1", "127.0.0.1:1",
                                  "localhost.evil.example:{port}", "[::1]:{port}"])
def test_a_foreign_host_header_is_421(server: Any, host: str) -> None:
    with server.client() as client:
        answer = client.get("/api/memory", headers={"Host": host.format(port=server.port)})
        assert answer.status_code == 421
        assert "not this server" in answer.json()["error"]
        write = client.post("/api/memory/add", json=ADD, headers={"Host": host.format(port=server.port)})
        assert write.status_code == 421
        # the token login is guarded too: a rebinding page cannot get a cookie set for its name
        login = client.get(f"/?token={server.token}", headers={"Host": host.format(port=server.port)})
        assert login.status_code == 421
    assert ADD["content"] not in _written(server)


def test_localhost_is_this_server_too(server: Any) -> None:
    with server.client() as client:
        assert client.get("/api/memory", headers={"Host": f"localhost:{server.port}"}).status_code == 200


@pytest.mark.parametrize(("headers", "why"), [
    ({}, "header"),
    ({"X-Pi-Memory": "0"}, "header"),
    ({"X-Pi-Memory": "1", "Origin": "http://evil.example"}, "origin"),
    ({"X-Pi-Memory": "1", "Origin": "null"}, "origin"),
    ({"X-Pi-Memory": "1", "Origin": "http://localhost:1"}, "origin"),
    ({"X-Pi-Memory": "1", "Sec-Fetch-Site": "cross-site"}, "origin"),
    ({"X-Pi-Memory": "1", "Sec-Fetch-Site": "same-site"}, "origin"),
])
def test_a_write_needs_the_same_origin_header_and_no_foreign_origin(
        server: Any, headers: dict[str, str], why: str) -> None:
    with server.client(same_origin=False) as client:
        for method, path, body in (("POST", "/api/memory/add", ADD),
                                   ("POST", "/api/memory/remove", {"target": "memory", "old": "a"}),
                                   ("POST", "/api/drift/recover", {"target": "memory", "entries": ["a"]}),
                                   ("PUT", "/api/memory/add", ADD), ("DELETE", "/api/memory", None)):
            answer = client.request(method, path, json=body, headers=headers)
            assert answer.status_code == 403, (method, path)
            assert ("header" if why == "header" else "another origin") in answer.json()["error"]
    assert ADD["content"] not in _written(server)


def test_a_same_origin_write_goes_through(server: Any) -> None:
    with server.client(same_origin=False) as client:
        answer = client.post("/api/memory/add", json={"target": "memory", "content": "a same-origin fact"},
                             headers={"X-Pi-Memory": "1", "Origin": server.base, "Sec-Fetch-Site": "same-origin"})
        assert answer.status_code == 200, answer.text
    assert "a same-origin fact" in _written(server).split("\n§\n")


def test_every_answer_carries_the_security_headers(server: Any) -> None:
    with server.client() as client:
        answers = [client.get("/"), client.get("/static/app.js"), client.get("/api/memory"),
                   client.get("/static/nothing.js"), httpx.get(server.base + "/api/memory"),
                   client.get("/", headers={"Host": "evil.example"})]
        for answer in answers:
            assert answer.headers["content-security-policy"] == CSP, answer.url
            assert answer.headers["x-content-type-options"] == "nosniff"
            assert answer.headers["referrer-policy"] == "no-referrer"
            assert answer.headers["x-frame-options"] == "DENY"
            assert answer.headers["cache-control"] == "no-store"
        assert "text/javascript" in answers[1].headers["content-type"]
    for directive in ("default-src 'self'", "script-src 'self'", "img-src 'self'", "connect-src 'self'",
                      "frame-ancestors 'none'", "object-src 'none'"):
        assert directive in CSP
    assert "unsafe-inline" not in CSP and "unsafe-eval" not in CSP and "http" not in CSP


def _listening(port: int) -> list[str]:
    """Local addresses of the sockets listening on ``port`` (IPv4 and IPv6), from /proc/net."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text(encoding="ascii").splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            address, port_hex = fields[1].rsplit(":", 1)
            if int(port_hex, 16) == port and fields[3] == "0A":  # 0A: LISTEN
                found.append(address)
    return found


def test_the_server_listens_on_loopback_only(server: Any) -> None:
    assert _listening(server.port) == ["0100007F"]  # 127.0.0.1, and nothing else


def test_a_port_in_use_is_a_clear_error(server: Any) -> None:
    proc = subprocess.run([sys.executable, "-m", "pi_memory.cli", "ui", "--no-browser", "--port", str(server.port)],
                          capture_output=True, text=True, timeout=60, cwd=server.cwd, env=server.env)
    assert proc.returncode == 1
    assert f"port {server.port} on 127.0.0.1 is in use" in proc.stderr and "--port" in proc.stderr


def test_a_websocket_never_reaches_the_app() -> None:
    """The UI serves no websocket; were one ever added, it must not slip past the token checks."""
    from concurrent.futures import ThreadPoolExecutor

    import anyio

    from pi_memory.ui.security import UiGuard

    reached: list[str] = []
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["type"])

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: Any) -> None:
        sent.append(dict(message))

    def run(*args: Any) -> None:  # in a thread of its own: playwright's sync API keeps a loop in this one
        with ThreadPoolExecutor(1) as pool:
            pool.submit(anyio.run, *args).result()

    guard = UiGuard(app, "t" * 32)
    scope = {"type": "websocket", "path": "/api/memory", "headers": [(b"host", b"127.0.0.1:9")],
             "server": ("127.0.0.1", 9), "query_string": b""}
    run(guard, scope, receive, send)
    assert reached == [] and sent == [{"type": "websocket.close", "code": 1008}]
    run(guard, {"type": "lifespan"}, receive, send)
    assert reached == ["lifespan"]
