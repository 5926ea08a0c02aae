"""The Sessions page in Chromium over a real server: the list, a session's tree with its branch,
label, summaries and memory snapshot, the context at an entry, XSS probes inert, keyboard and
phone use, and the first paint over a larger agent dir (recorded, not asserted)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from peer_modules import load_test_module

fixtures = load_test_module("ui/uidata_fixtures.py")
INERT = fixtures.INERT
seed = fixtures.seed_module

pytestmark = pytest.mark.browser


@pytest.fixture
def seeded_server(ui_server: Callable[..., Any]) -> Any:
    return fixtures.seeded_ui_server(ui_server, index=False)


def test_the_list_and_a_session_tree(seeded_server: Any, browser_page: Callable[..., Any],
                                     shot: Callable[[Any, str], None]) -> None:
    seeded = seeded_server.seeded
    page = browser_page(seeded_server, "#/sessions")
    page.wait_for_selector(".pm-session")
    assert page.locator(".pm-session").count() == 3
    assert "3 session(s)" in page.inner_text("#sessions-count")
    page.select_option("#sessions-project", "--home-me-garden--")
    page.wait_for_selector("text=1 session(s)")
    assert page.locator(".pm-session").count() == 1
    page.select_option("#sessions-project", "--home-me-shop--")
    page.wait_for_selector("text=2 session(s)")
    page.click("text=Staging move")
    page.wait_for_selector(".pm-entry")
    tree = page.locator("#session-tree")
    assert tree.locator("ul ul").count() >= 1  # the branch point nests the two branches
    assert tree.locator(".pm-snapshot").count() == 1
    assert "The project deploys with pnpm" in tree.locator(".pm-snapshot").inner_text()
    assert "label: decision" in page.locator(f"#entry-{seeded.needle_entry}").inner_text()
    assert tree.locator(".pm-summary").count() == 2  # the branch summary and the compaction
    assert page.locator(".pm-off-branch").count() == 1  # the abandoned answer
    page.click(f"#entry-{seeded.branch_entry} > button")
    page.wait_for_selector("#session-context .pm-context-message")
    context = page.inner_text("#session-context")
    assert "summary of a branch" in context and "What about EU latency" in context
    assert page.evaluate("location.hash").endswith(f"?entry={seeded.branch_entry}")
    shot(page, "ui-sessions")


def test_xss_probes_in_session_messages_stay_text(seeded_server: Any, browser_page: Callable[..., Any]) -> None:
    seeded = seeded_server.seeded
    page = browser_page(seeded_server, f"#/sessions/{seeded.xss_session}")
    page.wait_for_selector(".pm-entry")
    text = page.inner_text("#session-tree")
    assert all(probe in text for probe in seed.XSS_PROBES)
    last = page.locator(".pm-entry > button").last
    last.click()
    page.wait_for_selector("#session-context .pm-context-message")
    assert all(probe in page.inner_text("#session-context") for probe in seed.XSS_PROBES[:-1])
    assert page.locator("main").locator(INERT).count() == 0
    assert page.evaluate("window.__pwned") is None
    page.goto(seeded_server.base + "/#/sessions")  # the first message is a probe too, in the list
    page.wait_for_selector(".pm-session")
    assert page.locator("main").locator(INERT).count() == 0
    assert not [u for u in page.requests if "evil.example" in u]


def test_keyboard_and_phone_width(seeded_server: Any, browser_page: Callable[..., Any]) -> None:
    seeded = seeded_server.seeded
    page = browser_page(seeded_server, f"#/sessions/{seeded.main_session}?entry={seeded.needle_entry}",
                        width=390, height=844)
    page.wait_for_selector(".pm-highlight")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    focused = page.evaluate("document.activeElement.closest('li') && document.activeElement.closest('li').id")
    assert focused == f"entry-{seeded.needle_entry}"  # the linked entry has the focus
    page.keyboard.press("Tab")  # the next entry, by keyboard
    page.keyboard.press("Enter")
    page.wait_for_function("(id) => document.querySelector('.pm-highlight').id !== 'entry-' + id",
                           arg=seeded.needle_entry)
    page.wait_for_selector("#session-context .pm-context-message")


def test_first_paint_over_a_larger_agent_dir(ui_server: Callable[..., Any], browser_page: Callable[..., Any],
                                             record_property: Callable[[str, object], None]) -> None:
    """Smaller than the benchmark (bench/ui_bench.py: 1,000 sessions, 10k messages); recorded only."""
    box: dict[str, Any] = {}

    def prepare(server: Any) -> None:
        box["ids"] = seed.bulk_sessions(server.sessions_dir, 200, 10)

    server = ui_server(seed=prepare)
    page = browser_page(server, "#/sessions")
    page.wait_for_selector(".pm-session")
    assert "200 session(s)" in page.inner_text("#sessions-count")
    assert page.locator(".pm-session").count() == 50  # one page
    page.click("#sessions-more")
    page.wait_for_function("() => document.querySelectorAll('.pm-session').length === 100")
    for name, hash_path, ready in [("sessions", "#/sessions", ".pm-session"),
                                   ("tree", f"#/sessions/{box['ids'][0]}", ".pm-entry")]:
        page.goto("about:blank")
        page.goto(server.base + "/" + hash_path)
        page.wait_for_selector(ready)
        paint = page.evaluate("Object.fromEntries(performance.getEntriesByType('paint').map(e => [e.name, "
                              "e.startTime]))")
        record_property(f"{name}_first_paint_ms", round(paint.get("first-paint", -1), 1))
        record_property(f"{name}_first_contentful_paint_ms", round(paint.get("first-contentful-paint", -1), 1))
        record_property(f"{name}_content_ms", round(page.evaluate("performance.now()"), 1))
