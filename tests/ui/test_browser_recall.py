"""The Recall page in Chromium over a real server: a seeded message is found and opens in its
session on that message; XSS probes in hits stay text and fetch nothing; usable on a phone; an
index with damaged vectors on disk says how many and how to repair them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from peer_modules import load_test_module

fixtures = load_test_module("ui/uidata_fixtures.py")
INERT = fixtures.INERT
seed = fixtures.seed_module
damage = load_test_module("recall/vector_damage_fixtures.py")

pytestmark = pytest.mark.browser


@pytest.fixture
def seeded_server(ui_server: Callable[..., Any]) -> Any:
    return fixtures.seeded_ui_server(ui_server)


def _search(page: Any, text: str) -> None:
    page.fill("#recall-q", text)
    page.press("#recall-q", "Enter")
    page.wait_for_selector(".pm-hit")


def test_a_seeded_message_is_found_and_opens_on_that_message(seeded_server: Any, browser_page: Callable[..., Any],
                                                             shot: Callable[[Any, str], None]) -> None:
    seeded = seeded_server.seeded
    page = browser_page(seeded_server, "#/recall")
    page.wait_for_selector('main[data-page="recall"]')
    page.wait_for_selector("#recall-status:has-text('message(s) indexed')")
    assert page.inner_text("#recall-status").endswith(" · damaged vectors: 0")
    assert page.locator("#recall-damage").count() == 0
    _search(page, "staging database Frankfurt")
    first = page.locator(".pm-hit").first
    assert seed.NEEDLE in first.inner_text()
    assert "score" in first.inner_text() and "user" in first.inner_text()
    shot(page, "ui-recall")
    first.locator("a.pm-open").click()
    page.wait_for_selector('main[data-page="sessions"] .pm-highlight')
    assert page.evaluate("location.hash") == f"#/sessions/{seeded.main_session}?entry={seeded.needle_entry}"
    highlighted = page.locator(".pm-highlight")
    assert highlighted.count() == 1
    assert highlighted.get_attribute("id") == f"entry-{seeded.needle_entry}"
    assert seed.NEEDLE in highlighted.inner_text()
    page.wait_for_selector("#session-context .pm-context-message")
    assert seed.NEEDLE in page.inner_text("#session-context")
    assert highlighted.evaluate("e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= "
                                "innerHeight; }")


def test_filters_narrow_the_hits(seeded_server: Any, browser_page: Callable[..., Any]) -> None:
    page = browser_page(seeded_server, "#/recall")
    page.check("input[name=role][value=assistant]")
    _search(page, "Frankfurt")
    roles = page.locator(".pm-hit .pm-role").all_inner_texts()
    assert roles and set(roles) == {"assistant"}
    page.fill("#recall-since", "2999-01-01")
    page.click("#recall-go")
    page.wait_for_selector("text=No matching messages.")
    page.fill("#recall-since", "")
    page.fill("#recall-session", "not-a-session")
    page.click("#recall-go")
    page.wait_for_selector("text=No matching messages.")


def test_xss_probes_in_hits_stay_text(seeded_server: Any, browser_page: Callable[..., Any]) -> None:
    page = browser_page(seeded_server, "#/recall")
    page.fill("#recall-topk", "20")
    _search(page, "xssneedle probe echo")
    results = page.locator("#recall-results")
    text = results.inner_text()
    shown = [probe for probe in seed.XSS_PROBES if probe in text]
    withheld = results.locator(".pm-blocked").count()
    assert shown or withheld  # every probe is either shown as text or withheld by the scanner
    assert len(shown) + withheld >= len(seed.XSS_PROBES)
    assert results.locator(INERT).count() == 0
    assert page.evaluate("window.__pwned") is None
    # nothing was fetched from another host (the fixture fails the test otherwise)
    assert not [u for u in page.requests if "evil.example" in u]


def test_important_memories_show_the_weight_terms(seeded_server: Any, browser_page: Callable[..., Any]) -> None:
    page = browser_page(seeded_server, "#/recall")
    page.fill("#important-threshold", "0")
    page.click("#important-go")
    page.wait_for_selector("#important-results table")
    header = page.locator("#important-results th").all_inner_texts()
    assert header[:5] == ["weight", "decay", "recalls", "fresh", "age (h)"]
    first_row = page.locator("#important-results tbody tr").first.locator("td").all_inner_texts()
    assert first_row[0] == "1.00" and first_row[3] == "+0.2"  # fresh messages: decay + 0.2, capped at 1


def test_usable_at_phone_width(seeded_server: Any, browser_page: Callable[..., Any]) -> None:
    page = browser_page(seeded_server, "#/recall", width=390, height=844)
    _search(page, "staging database Frankfurt")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("#recall-q").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.locator(".pm-hit a.pm-open").first.focus()
    page.keyboard.press("Enter")  # keyboard reachable: the link opens the session
    page.wait_for_selector(".pm-highlight")


def test_damaged_vectors_on_disk_are_counted_with_the_command_that_repairs_them(
        ui_server: Callable[..., Any], browser_page: Callable[..., Any]) -> None:
    def damaged(server: Any) -> None:
        damage.build(server.agent_dir / "recall.db")
        damage.damage_on_disk(server.agent_dir / "recall.db")

    server = ui_server(seed=damaged)
    path = server.agent_dir / "recall.db"
    page = browser_page(server, "#/recall")
    hint = page.wait_for_selector("#recall-damage")
    total = len(damage.REAL) + len(damage.DAMAGE) + damage.FILLERS
    assert page.inner_text("#recall-status") == (
        f"{total} message(s) indexed in {path} · damaged vectors: {len(damage.DETECTED)}")
    assert hint.inner_text().startswith(f"{len(damage.DETECTED)} stored vector(s) are damaged")
    command = page.inner_text("#recall-damage code")
    assert command == f"pi-memory recall reindex --index {path} --embedder minilm-static-256"
    _search(page, damage.REAL["real1"])  # searching still works, and finds the intact messages first
    first = page.locator(".pm-hit").first
    assert damage.REAL["real1"] in first.inner_text()
