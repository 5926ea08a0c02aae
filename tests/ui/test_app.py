"""``create_app``: the page, its static modules and every page's API, in the navigation's order,
behind the guard; the configuration is closed when the server stops."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from pi_memory.ui.app import API_MODULES, STATIC_DIR, create_app
from pi_memory.ui.config import UiConfig
from pi_memory.ui.security import CSP, cookie_name


def test_info_lists_every_page_in_the_navigation_order_and_the_backend(shared_ui_server: Any) -> None:
    with shared_ui_server.client() as client:
        info = client.get("/api/info").json()
    assert info["pages"] == list(API_MODULES)
    assert info["backend"] == "file" and str(shared_ui_server.memory_dir) in info["where"]
    assert info["cwd"] == str(shared_ui_server.cwd)


def test_the_page_and_its_modules_are_served_from_the_package(shared_ui_server: Any) -> None:
    with shared_ui_server.client() as client:
        index = client.get("/")
        assert index.status_code == 200 and index.headers["content-type"].startswith("text/html")
        assert index.headers["content-security-policy"] == CSP
        # every script the page loads is a file of the package, served as JavaScript (no CDN)
        scripts = re.findall(r'<script[^>]+src="([^"]+)"', index.text)
        assert scripts and all(src.startswith("/static/") for src in scripts)
        for name in API_MODULES:
            module = client.get(f"/static/pages/{name}.js")
            assert module.status_code == 200, name
            assert "javascript" in module.headers["content-type"]
            assert re.search(r"^export (async )?function render\(", module.text, re.M), name
        assert client.get("/favicon.ico").status_code == 204
        assert client.get("/static/../config.py").status_code == 404
        assert client.get("/api/no-such-page").status_code == 404


def test_every_page_module_in_the_package_has_its_api(shared_ui_server: Any) -> None:
    shipped = {p.stem for p in (STATIC_DIR / "pages").glob("*.js")} - {"shared"}
    assert shipped == set(API_MODULES)


@pytest.mark.anyio
async def test_the_configuration_is_closed_when_the_app_stops(tmp_path: Path) -> None:
    """The lifespan's end runs every cleanup an API module registered (the recall service's
    release, the PostgreSQL pool), once."""
    config = UiConfig.resolve(tmp_path, dir=tmp_path / "memories")
    closed: list[str] = []
    config.on_close(lambda: closed.append("cleanup"))
    app = create_app(config, "t" * 32)

    transport = httpx.ASGITransport(app=app)
    # the app's lifespan runs around the requests, as uvicorn runs it
    async with (app.router.lifespan_context(app),
                httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8123") as client):
        client.cookies.set(cookie_name(8123), "t" * 32)
        answer = await client.get("/api/info")
        assert answer.status_code == 200, answer.text
        assert closed == []
    assert closed == ["cleanup"]
