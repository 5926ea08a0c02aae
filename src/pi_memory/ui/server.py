"""``serve``: run the UI with uvicorn on 127.0.0.1, print its URL, open a browser.

Loopback only, by construction: there is no option to bind another address (memory is personal,
and the page is a way to write it). The port is a free one unless given; the socket is bound
here, before uvicorn starts, so the printed URL is the one being served and no other process can
take the port in between.
"""

from __future__ import annotations

import errno
import os
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable

from pi_memory.ui.config import UiConfig
from pi_memory.ui.security import new_token

__all__ = ["HOST", "ServeError", "bind_loopback", "can_open_browser", "serve"]

HOST = "127.0.0.1"


class ServeError(Exception):
    """The server cannot start (the port is taken, say); the message says what to do."""


def bind_loopback(port: int | None) -> socket.socket:
    """A listening socket on 127.0.0.1: ``port``, or a free one when ``None`` or 0."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port or 0))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(f"port {port} on {HOST} is in use: pick another with --port, or leave --port out "
                             "for a free one") from None
        raise ServeError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from None
    sock.listen(128)
    sock.set_inheritable(False)
    return sock


def can_open_browser() -> bool:
    """False where a browser would not show (Linux with no display): ``webbrowser`` would then
    start a text browser inside this terminal."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    return True


def serve(
    config: UiConfig,
    *,
    port: int | None = None,
    open_browser: bool = True,
    say: Callable[[str], None] = print,
    token: str | None = None,
) -> None:
    """Serve the UI until interrupted (Ctrl+C). Raises :class:`ServeError` when it cannot start."""
    import uvicorn

    from pi_memory.backends import describe_store
    from pi_memory.ui.app import create_app

    token = token or new_token()
    sock = bind_loopback(port)
    bound = sock.getsockname()[1]
    url = f"http://{HOST}:{bound}/?token={token}"
    app = create_app(config, token)
    where = describe_store(config.store())
    for warning in config.warnings:
        say(f"Warning: {warning}")
    say(f"pi-memory ui: memory in {where}")
    say(f"Open this link (it carries the access token; keep it private):\n  {url}")
    say("Press Ctrl+C to stop.")
    if open_browser and can_open_browser():
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                                           timeout_graceful_shutdown=3, server_header=False))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
