"""The shell in Chromium: the page loads from the tokened URL, the navigation routes, and a page
that is not installed says so instead of breaking the others."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_page_loads_and_routes(ui_server: Callable[..., Any], browser_page: Callable[..., Any]) -> None:
    server = ui_server()
    page = browser_page(server, "#/memory")
    assert "token=" not in page.url  # the login redirect took the token out of the address bar
    assert page.locator('nav a[aria-current="page"]').inner_text() == "Memory"
    page.click("nav >> text=Drift")
    page.wait_for_selector('main[data-page="drift"]')
    assert page.locator('nav a[aria-current="page"]').inner_text() == "Drift"
    page.goto(server.base + "/#/nowhere")
    page.wait_for_selector('main[data-page="memory"]')  # an unknown page goes to Memory
