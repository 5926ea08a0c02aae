"""Fixtures for the UI: a real ``pi-memory ui`` server on loopback, and a real Chromium page.

``ui_server`` — a factory: ``ui_server(**options) -> UiServer``. Each call starts ``pi-memory ui
--no-browser`` as a subprocess (the real command: settings, store, uvicorn) over a fresh temp
layout and waits for the URL it prints. Options (all keyword, all optional):

* ``home`` — the home directory (default: a new temp dir). The layout below it is pi's:
  ``<home>/.pi/agent`` is ``$PI_AGENT_HOME`` and ``$PI_CODING_AGENT_DIR`` (sessions under
  ``<agent_dir>/sessions``, recall index ``<agent_dir>/recall.db``), memory files in
  ``<agent_dir>/memories`` unless ``data_dir`` says otherwise.
* ``data_dir`` — the memory directory (passed as ``--dir``); ``dsn`` instead for PostgreSQL.
* ``settings`` — a dict written to ``<agent_dir>/settings.json`` before the server starts
  (e.g. ``{"pi-memory-recall": {"url": ...}}``).
* ``cwd`` — the working directory the server runs in (default: ``<home>/project``).
* ``seed`` — ``seed(server)`` runs after the directories exist and before the server starts:
  write session files under ``server.sessions_dir``, memory files under ``server.memory_dir``,
  a recall index… (paths on the returned :class:`UiServer` are all set by then).
* ``args`` — extra command-line arguments; ``env`` — extra environment variables.

``shared_ui_server`` is one default server for a whole module. A server is stopped (SIGINT, then
SIGKILL after 10 s) at the end of its test (module); ``server.stop()``
stops it earlier. ``server.url`` has the token; ``server.base`` has not; ``server.client()`` is an
``httpx.Client`` that has already been through the token login (it holds the cookie), and sends
the same-origin header on writes when ``same_origin=True`` (the default).

``browser`` (session-scoped) is one headless Chromium for the whole worker — Debian's
``/usr/bin/chromium``, never a downloaded one. ``browser_page`` is a function-scoped factory:
``browser_page(server, path="#/memory", width=1280, height=800) -> Page`` opens a new context (its
own cookies) logged in through the tokened URL. Every request the page makes is recorded in
``page.requests`` (URLs), and any request to another host is aborted and FAILS the test at
teardown. Dialogs (``alert``/``confirm``) are recorded in ``page.dialogs`` and dismissed; they fail
the test too unless the test clears the list. The ``shot`` fixture, ``shot(page, name)``, saves a screenshot when
``PI_MEMORY_UI_SCREENSHOTS=<dir>`` is set (``docs/images`` to refresh the docs' pictures).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

CHROMIUM = Path(os.environ.get("PI_MEMORY_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-default-apps", "--disable-extensions", "--disable-domain-reliability",
                 "--metrics-recording-only", "--no-pings", "--disable-features=Translate,OptimizationHints"]
_URL = re.compile(r"(http://127\.0\.0\.1:(\d+)/\?token=([\w-]+))")
SCREENSHOTS = os.environ.get("PI_MEMORY_UI_SCREENSHOTS")


@dataclass
class UiServer:
    """One running ``pi-memory ui`` and the directories it serves."""

    home: Path
    agent_dir: Path
    memory_dir: Path
    sessions_dir: Path
    cwd: Path
    env: dict[str, str]
    url: str = ""
    base: str = ""
    port: int = 0
    token: str = ""
    process: subprocess.Popen[str] | None = None
    output: list[str] = field(default_factory=list)

    @property
    def memory_file(self) -> Path:
        return self.memory_dir / "MEMORY.md"

    @property
    def user_file(self) -> Path:
        return self.memory_dir / "USER.md"

    def cli(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run ``pi-memory ARGS`` as another process on the same memory (``--dir`` added for files)."""
        command = [sys.executable, "-m", "pi_memory.cli", *args]
        proc = subprocess.run(command, cwd=self.cwd, env=self.env, capture_output=True, text=True, timeout=60)
        if check and proc.returncode != 0:
            raise AssertionError(f"pi-memory {' '.join(args)} failed: {proc.stdout}{proc.stderr}")
        return proc

    def client(self, *, same_origin: bool = True) -> httpx.Client:
        """An HTTP client holding the cookie the token login set (use it in a ``with``)."""
        login = httpx.get(self.url, timeout=30)
        assert login.status_code == 303, login.text
        headers = {"X-Pi-Memory": "1"} if same_origin else {}
        return httpx.Client(base_url=self.base, headers=headers, cookies=login.cookies, timeout=30)

    def stop(self) -> None:
        proc = self.process
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def _start(server: UiServer, args: list[str]) -> None:
    command = [sys.executable, "-m", "pi_memory.cli", "ui", "--no-browser", *args]
    proc = subprocess.Popen(command, cwd=server.cwd, env=server.env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, bufsize=1)
    server.process = proc
    found = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            server.output.append(line)
            match = _URL.search(line)
            if match and not found.is_set():
                server.url, port, server.token = match.group(1), match.group(2), match.group(3)
                server.port = int(port)
                server.base = f"http://127.0.0.1:{port}"
                found.set()
        found.set()

    threading.Thread(target=read, daemon=True).start()
    if not found.wait(timeout=60) or not server.url:
        server.stop()
        raise AssertionError("pi-memory ui did not print its URL:\n" + "".join(server.output))


@contextlib.contextmanager
def _servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., UiServer]]:
    started: list[UiServer] = []

    def start(
        *,
        home: Path | None = None,
        data_dir: Path | None = None,
        dsn: str | None = None,
        settings: dict[str, Any] | None = None,
        cwd: Path | None = None,
        seed: Callable[[UiServer], None] | None = None,
        args: list[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> UiServer:
        home = home or tmp_path_factory.mktemp("ui-home")
        agent = home / ".pi" / "agent"
        memory = data_dir or agent / "memories"
        work = cwd or home / "project"
        for directory in (agent, work):
            directory.mkdir(parents=True, exist_ok=True)
        if settings is not None:
            (agent / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        environ = {k: v for k, v in os.environ.items() if not k.startswith(("PI_", "DISPLAY", "WAYLAND"))}
        environ.update(HOME=str(home), PI_AGENT_HOME=str(agent), PI_CODING_AGENT_DIR=str(agent),
                       **(env or {}))
        server = UiServer(home=home, agent_dir=agent, memory_dir=memory, sessions_dir=agent / "sessions",
                          cwd=work, env=environ)
        if seed is not None:
            seed(server)
        extra = list(args or [])
        if data_dir is not None:
            extra += ["--dir", str(data_dir)]
        if dsn is not None:
            extra += ["--dsn", dsn]
        started.append(server)
        _start(server, extra)
        return server

    try:
        yield start
    finally:
        for server in started:
            server.stop()


@pytest.fixture
def ui_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., UiServer]]:
    """A factory of servers, each stopped at the end of the test (see the module docstring)."""
    with _servers(tmp_path_factory) as start:
        yield start


@pytest.fixture(scope="module")
def shared_ui_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[UiServer]:
    """One default server for a whole test module (starting one costs a second or two): for tests
    that do not depend on what the memory holds, or that each use their own entries."""
    with _servers(tmp_path_factory) as start:
        yield start()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (scripts/test.sh does: apt-get install "
                    "chromium), or point PI_MEMORY_CHROMIUM at a Chromium binary")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture
def browser_page(browser: Any) -> Iterator[Callable[..., Any]]:
    contexts: list[Any] = []
    pages: list[Any] = []

    def open_page(server: UiServer, path: str = "#/memory", *, width: int = 1280, height: int = 800) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
        contexts.append(context)
        page = context.new_page()
        page.requests, page.foreign, page.dialogs = [], [], []

        def guard(route: Any) -> None:
            url = route.request.url
            page.requests.append(url)
            parts = urlsplit(url)
            ours = parts.hostname == "127.0.0.1" and parts.port == server.port
            if ours or parts.scheme in ("data", "blob"):
                route.continue_()
            else:
                page.foreign.append(url)
                route.abort()

        context.route("**/*", guard)
        page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(server.url + path)
        page.wait_for_selector("main[data-page]", timeout=15000)
        pages.append(page)
        return page

    yield open_page
    try:
        for page in pages:
            assert page.foreign == [], f"the page made requests to other hosts: {page.foreign}"
            assert page.dialogs == [], f"the page opened dialogs: {page.dialogs}"
    finally:
        for context in contexts:
            context.close()


@pytest.fixture
def shot() -> Callable[[Any, str], None]:
    """``shot(page, name)``: save ``<name>.png`` under ``$PI_MEMORY_UI_SCREENSHOTS`` when it is set."""

    def save(page: Any, name: str) -> None:
        if SCREENSHOTS:
            Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=False)

    return save
