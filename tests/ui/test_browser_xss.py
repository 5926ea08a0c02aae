"""Text an attacker wrote into memory stays text: every probe renders literally on the Memory and
Drift pages, no script runs, no dialog opens, and no request leaves for another host (the
``browser_page`` fixture records every request and fails the test on a foreign one)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from pi_memory.memory import MemoryStore

pytestmark = pytest.mark.browser

PROBES = [
    "<script>window.__pwned = 1; alert('script')</script>",
    "<img src=http://evil.example/x onerror=\"window.__pwned = 2; alert('img')\">",
    "[click me](javascript:alert('link'))",
    "![beacon](http://evil.example/beacon.png)",
    "<svg onload=\"window.__pwned = 3; alert('svg')\"></svg>",
    "<iframe src=\"http://evil.example/frame\"></iframe>",
    "<a href=\"http://evil.example/link\">a link</a> and <b>bold</b>",
    "<style>@import url(http://evil.example/style.css); body { background: url(http://evil.example/bg) }</style>",
    "<link rel=\"prefetch\" href=\"http://evil.example/prefetch\"><meta http-equiv=\"refresh\" "
    "content=\"0;url=http://evil.example/refresh\">",
    "<details open ontoggle=\"window.__pwned = 4\">x</details>",
    "<form action=\"http://evil.example/form\"><button>go</button></form>",
    "javascript:alert('bare')",
    "<<SCRIPT>alert('nested');//<</SCRIPT>",
]
ACTIVE = "script, img, svg, iframe, a[href^='http'], a[href^='javascript'], style, link, meta, details, object, embed"


def _no_active_content(page: Any) -> None:
    assert page.locator(f"main :is({ACTIVE})").count() == 0
    assert page.evaluate("window.__pwned") is None


@pytest.fixture(scope="module")
def server(ui_servers: Callable[..., Any]) -> Any:
    def seed(server: Any) -> None:
        server.memory_dir.mkdir(parents=True)
        # Written straight into the files (a compromised tool, a Node peer, a hand edit): the scanner
        # would refuse some of these, and the page must be safe whatever the files hold.
        server.memory_file.write_text("\n§\n".join(PROBES))
        server.user_file.write_text("\n§\n".join(reversed(PROBES)) + "\n§\n")  # drifted: a stray '§' at the end
        assert MemoryStore(server.memory_dir).add("user", "x")["success"] is False  # backs the probes up

    return ui_servers(seed=seed)


def test_probes_render_as_literal_text_on_the_memory_page(server: Any, browser_page: Callable[..., Any]) -> None:
    page = browser_page(server, "#/memory")
    entries = page.locator('section[data-target="memory"] .entry')
    expect(entries).to_have_count(len(PROBES))
    assert entries.all_text_contents() == PROBES  # byte for byte, as text
    expect(page.locator('section[data-target="user"] .entry')).to_have_count(len(PROBES))
    _no_active_content(page)
    page.wait_for_timeout(300)  # let anything that would load, load (the fixture then fails the test)
    assert all(url.startswith(server.base) for url in page.requests), page.requests


def test_probes_render_as_literal_text_on_the_drift_page(server: Any, browser_page: Callable[..., Any]) -> None:
    page = browser_page(server, "#/drift")
    user = page.locator('section[data-target="user"]')
    user.locator("tr[data-backup] button").first.click()
    picks = user.locator('[data-role="picks"] .entry')
    expect(picks).to_have_count(len(PROBES))
    assert sorted(picks.all_text_contents()) == sorted(PROBES)
    user.locator('[data-role="from-current"]').click()
    expect(user.locator('[data-role="picks"] .entry')).to_have_count(len(PROBES))
    _no_active_content(page)
    page.locator("#nav a", has_text="Memory").click()
    page.wait_for_selector('main[data-page="memory"]')
    _no_active_content(page)


def test_the_request_recorder_does_catch_a_foreign_request(server: Any, browser_page: Callable[..., Any]) -> None:
    """The guard under the other tests works: a page that is not ours (no CSP) asks another host,
    and the fixture sees it and aborts it."""
    page = browser_page(server, "#/memory")
    page.goto("about:blank")  # a document without our policy
    page.set_content('<img src="http://evil.example/proof.png">')
    page.wait_for_timeout(200)
    assert page.foreign == ["http://evil.example/proof.png"]
    page.foreign.clear()  # expected here; any other test would fail on it


def test_the_csp_blocks_an_injected_script_even_if_one_got_in(server: Any, browser_page: Callable[..., Any]) -> None:
    """Defence in depth: were an HTML sink ever added, the policy still stops inline script and
    foreign loads."""
    page = browser_page(server, "#/memory")
    page.evaluate("""() => {
        const div = document.createElement('div');
        div.innerHTML = '<img src=x onerror="window.__pwned = 9"><img src="http://evil.example/csp.png">';
        document.body.append(div);
    }""")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__pwned") is None
    assert page.foreign == []  # blocked by the policy before any request was made
