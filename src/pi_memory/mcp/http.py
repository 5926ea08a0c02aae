"""Streamable HTTP for the MCP server, with a bearer token and a loopback default.

Memory is personal: a server reachable from the network must not hand it to whoever connects.
So the server binds loopback unless told otherwise, and refuses a non-loopback bind unless a
bearer token is configured; once a token is configured every request must carry it
(``Authorization: Bearer <token>``), loopback included. Tokens are compared in constant time.

Every address served without a token (``localhost`` in any case, ``127.0.0.0/8``, ``::1`` however
it is written) also gets the SDK's DNS-rebinding protection: a request whose ``Host`` (or
``Origin``) is not a loopback spelling of the server's address is refused, so a web page in the
user's browser cannot reach memory through a hostile DNS name. The SDK turns that check on by
itself only for exactly ``127.0.0.1``, ``localhost`` and ``::1``, so :func:`rebinding_guard`
builds the settings for every loopback bind.
"""

from __future__ import annotations

import contextlib
import hmac
import ipaddress
import json
import logging
import os
import socket
import stat
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.transport_security import TransportSecuritySettings

__all__ = [
    "MIN_TOKEN_CHARS",
    "TOKEN_ENV",
    "BearerAuth",
    "BindError",
    "check_bind",
    "is_loopback",
    "load_token",
    "parse_bind",
    "rebinding_guard",
    "serve_http",
]

log = logging.getLogger(__name__)

TOKEN_ENV = "PI_MEMORY_MCP_TOKEN"
MIN_TOKEN_CHARS = 16
DEFAULT_PORT = 8765
_GENERATE = 'python -c "import secrets; print(secrets.token_urlsafe(32))"'

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BindError(ValueError):
    """The ``--http`` address or the token setup is refused; the message says how to fix it."""


def parse_bind(value: str) -> tuple[str, int]:
    """``HOST:PORT``, ``[IPv6]:PORT``, ``HOST`` or ``:PORT``; the host defaults to 127.0.0.1."""
    text = value.strip()
    host, port_text = "127.0.0.1", str(DEFAULT_PORT)
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise BindError(f"--http {value!r}: missing ']' after the IPv6 address")
        host, rest = text[1:end], text[end + 1 :]
        if rest:
            if not rest.startswith(":"):
                raise BindError(f"--http {value!r}: expected ':PORT' after ']'")
            port_text = rest[1:]
    elif text.count(":") == 1:
        head, port_text = text.split(":")
        host = head or host
    elif text.count(":") > 1:
        raise BindError(f"--http {value!r}: write an IPv6 address in brackets, e.g. [::1]:{DEFAULT_PORT}")
    elif text.isdigit():
        port_text = text
    elif text:
        host = text
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise BindError(f"--http {value!r}: the port must be a number from 0 to 65535")
    return host, int(port_text)


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses; any other name counts as reachable."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def load_token(token_file: Path | None = None, environ: MutableMapping[str, str] | None = None) -> str | None:
    """The bearer token from ``token_file`` (wins) or ``$PI_MEMORY_MCP_TOKEN``; ``None`` if neither."""
    env = os.environ if environ is None else environ
    if token_file is not None:
        try:
            token = token_file.expanduser().read_text(encoding="utf-8").strip()
            mode = token_file.expanduser().stat().st_mode
        except OSError as exc:
            raise BindError(f"--token-file {token_file}: {exc.strerror or exc}") from exc
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            log.warning("token file %s is readable by other users; chmod 600 it", token_file)
        source = f"--token-file {token_file}"
    else:
        token = env.get(TOKEN_ENV, "").strip()
        source = f"${TOKEN_ENV}"
        if not token:
            return None
    if len(token) < MIN_TOKEN_CHARS or any(ch.isspace() for ch in token):
        raise BindError(
            f"{source}: the token must be at least {MIN_TOKEN_CHARS} characters without spaces; "
            f"generate one with: {_GENERATE}"
        )
    return token


def check_bind(host: str, token: str | None) -> None:
    """Refuse a non-loopback bind without a token."""
    if token is None and not is_loopback(host):
        raise BindError(
            f"refusing to serve memory on {host}, which other machines can reach, without a bearer token. "
            f"Set ${TOKEN_ENV} or pass --token-file (generate a token with: {_GENERATE}), "
            "or bind a loopback address such as 127.0.0.1"
        )


def _spellings(host: str) -> list[str]:
    """``host`` as clients write it in a URL: as given, lower-cased and canonical, IPv6 in brackets,
    plus ``localhost`` (which names any loopback server) and, for ``localhost``, the addresses it names."""
    names = [host, host.lower()]
    with contextlib.suppress(ValueError):
        names.append(str(ipaddress.ip_address(host)))
    names += ["localhost", "127.0.0.1", "::1"] if host.lower() == "localhost" else ["localhost"]
    return list(dict.fromkeys(f"[{name}]" if ":" in name else name for name in names))


def rebinding_guard(host: str, port: int) -> TransportSecuritySettings:
    """The SDK's DNS-rebinding settings for a loopback bind: ``Host``/``Origin`` must name ``host``.

    Allowed values are the address as a client would send it — as given, lower-cased and in
    canonical form (``[::1]`` for ``0:0:0:0:0:0:0:1``), with ``:port`` (and without it on port
    80, where clients leave it out). ``localhost`` is always allowed: a browser sends it only for
    a page on this machine, never for a hostile DNS name.
    """
    from mcp.server.transport_security import TransportSecuritySettings

    authorities: list[str] = []
    for name in _spellings(host):
        authorities.append(f"{name}:{port}")
        if port == 80:
            authorities.append(name)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=authorities,
        allowed_origins=[f"http://{authority}" for authority in authorities],
    )


class BearerAuth:
    """ASGI middleware: every HTTP request must carry ``Authorization: Bearer <token>``."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._token = token.encode("utf-8")

    def _authorized(self, scope: Scope) -> bool:
        header = b""
        for name, value in scope.get("headers", []):
            if name == b"authorization":
                header = value
                break
        scheme, _, credentials = header.partition(b" ")
        # compare_digest runs in time independent of where the first difference is.
        matches = hmac.compare_digest(credentials.strip(), self._token)
        return scheme.lower() == b"bearer" and matches

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._authorized(scope):
            await self.app(scope, receive, send)
            return
        body = json.dumps(
            {"error": "invalid_token", "error_description": "Missing or wrong bearer token."}
        ).encode("utf-8")
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"www-authenticate", b'Bearer realm="pi-memory"'),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family, reuse_port=False)
    except OSError as exc:
        raise BindError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc


async def serve_http(server: Any, host: str, port: int, token: str | None) -> None:
    """Serve ``server`` (an MCP low-level server) over streamable HTTP at ``/mcp`` until stopped."""
    import uvicorn

    check_bind(host, token)
    sock = _listen(host, port)
    bound_port = sock.getsockname()[1]
    # Every loopback bind gets the Host/Origin check (the SDK's own default misses most spellings);
    # elsewhere a token is required, and the SDK leaves the check off.
    guard = rebinding_guard(host, bound_port) if is_loopback(host) else None
    app: ASGIApp = server.streamable_http_app(host=host, transport_security=guard)
    if token is not None:
        app = BearerAuth(app, token)
    shown = f"[{host}]" if ":" in host else host
    config = uvicorn.Config(app, log_config=None, log_level="warning", access_log=False, lifespan="on")
    print(
        f"pi-memory MCP server listening on http://{shown}:{bound_port}/mcp"
        + (" (bearer token required)" if token else " (loopback only, no token)"),
        file=sys.stderr,
        flush=True,
    )
    await uvicorn.Server(config).serve(sockets=[sock])
