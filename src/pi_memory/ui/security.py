"""The UI's guard: token, ``Host`` allow-list, same-origin writes, and the headers every answer carries.

The page shows memory, which is personal and may hold text an attacker wrote, so the server
trusts nothing but the person who started it:

* **a token** — ``pi-memory ui`` prints a URL carrying a random token (as Jupyter does); the
  first request with ``?token=`` sets an ``HttpOnly; SameSite=Strict`` cookie and redirects to
  the same URL without it, so the token leaves the address bar and the history. Every request
  then needs the cookie (compared in constant time); without it the answer is 401, saying how
  to get the URL. The cookie's name carries the port: browsers share cookies across ports, so
  two servers on one machine must not overwrite each other's.
* **the Host allow-list** — only ``127.0.0.1:<port>`` and ``localhost:<port>`` (the port the
  request came in on); any other ``Host`` is 421, so a hostile DNS name pointed at 127.0.0.1
  (DNS rebinding) reaches nothing.
* **same-origin writes** — every request that is not ``GET``/``HEAD`` needs ``X-Pi-Memory: 1``
  (a header no cross-site form can send, and one a cross-site ``fetch`` cannot send without a
  CORS preflight this server never grants), and a present ``Origin`` or ``Sec-Fetch-Site``
  must say same-origin; else 403. No CSRF.
* **headers** — a Content-Security-Policy allowing only this origin's own scripts, styles,
  images and connections (no inline script, no other host), ``nosniff``, no referrer, no
  framing, and no caching.

All of it is one pure ASGI middleware, so it also covers streaming answers and static files.
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode

__all__ = ["CSP", "SAME_ORIGIN_HEADER", "SECURITY_HEADERS", "UiGuard", "cookie_name", "new_token"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAME_ORIGIN_HEADER = "X-Pi-Memory"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
}
_SAFE_METHODS = ("GET", "HEAD")
_LOGIN_HELP = ("This page needs the link that `pi-memory ui` printed when it started (it ends in ?token=…). "
               "Open that link, or stop the server and run `pi-memory ui` again for a new one.")


def new_token() -> str:
    """A fresh random token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def cookie_name(port: int) -> str:
    """The token cookie of the server on ``port`` (cookies are shared across a host's ports)."""
    return f"pi-memory-ui-{port}"


def _headers(scope: Scope) -> dict[str, str]:
    """Request headers by lower-case name (the last one wins; none of ours may repeat)."""
    return {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}


class UiGuard:
    """ASGI middleware applying the rules in this module's docstring to every HTTP request."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        if len(token) < 16:
            raise ValueError("the UI token must be at least 16 characters")
        self.app = app
        self.token = token

    def _port(self, scope: Scope) -> int:
        server = scope.get("server") or ("127.0.0.1", 0)
        return int(server[1] or 0)

    def _token_ok(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode("utf-8"), self.token.encode("utf-8"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()
                         if k.lower().encode() not in names]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        port = self._port(scope)
        headers = _headers(scope)
        host = headers.get("host", "")
        if host not in (f"127.0.0.1:{port}", f"localhost:{port}"):
            await _refuse(send_with_headers, 421, f"Host {host!r} is not this server: open the address that "
                          "`pi-memory ui` printed (http://127.0.0.1:<port>/…).", scope)
            return
        method = scope["method"]
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True))
        if "token" in query and method in _SAFE_METHODS:
            if not self._token_ok(query["token"]):
                await _refuse(send_with_headers, 401, "That token is not this server's. " + _LOGIN_HELP, scope)
                return
            rest = urlencode([(k, v) for k, v in parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                                                           keep_blank_values=True) if k != "token"])
            location = scope.get("path", "/") + (f"?{rest}" if rest else "")
            cookie = (f"{cookie_name(port)}={self.token}; Path=/; HttpOnly; SameSite=Strict")
            await send_with_headers({"type": "http.response.start", "status": 303, "headers": [
                (b"location", location.encode("latin-1")), (b"set-cookie", cookie.encode("latin-1")),
                (b"content-length", b"0")]})
            await send_with_headers({"type": "http.response.body", "body": b""})
            return
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(headers.get("cookie", ""))
        except Exception:  # a malformed Cookie header is no token
            jar = SimpleCookie()
        morsel = jar.get(cookie_name(port))
        if not self._token_ok(morsel.value if morsel is not None else None):
            await _refuse(send_with_headers, 401, _LOGIN_HELP, scope)
            return
        if method not in _SAFE_METHODS:
            origin = headers.get("origin")
            site = headers.get("sec-fetch-site")
            if headers.get(SAME_ORIGIN_HEADER.lower()) != "1":
                await _refuse(send_with_headers, 403, f"A write needs the {SAME_ORIGIN_HEADER}: 1 header (the page "
                              "sends it); cross-site requests are refused.", scope)
                return
            if (origin is not None and origin != f"http://{host}") or (site is not None and site != "same-origin"):
                await _refuse(send_with_headers, 403, "A write from another origin is refused.", scope)
                return
        await self.app(scope, receive, send_with_headers)


async def _refuse(send: Send, status: int, message: str, scope: Scope) -> None:
    """A refusal: JSON under ``/api``, else a small text page (no stored data in either)."""
    if scope.get("path", "").startswith("/api"):
        body = json.dumps({"success": False, "error": message}).encode("utf-8")
        kind = b"application/json"
    else:
        body = f"pi-memory ui\n\n{message}\n".encode()
        kind = b"text/plain; charset=utf-8"
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", kind), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
