"""The Dreaming page in Chromium over a real server: the gates, "dream now" with the scripted
model (progress, then its report, kept as the last report), and a clear refusal without a model."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from peer_modules import load_test_module

fixtures = load_test_module("ui/uidata_fixtures.py")

pytestmark = pytest.mark.browser

SCRIPTED = {"pi-memory": {"dreaming": {"model": {"provider": "scripted", "model": "dreamer"},
                                       "minTurnsSinceLastRun": 2}}}


def _seeded(ui_server: Callable[..., Any], settings: dict[str, Any] | None) -> Any:
    return fixtures.seeded_ui_server(ui_server, index=False, settings=settings)


def test_dream_now_shows_progress_and_its_report(ui_server: Callable[..., Any], browser_page: Callable[..., Any],
                                                 shot: Callable[[Any, str], None]) -> None:
    server = _seeded(ui_server, SCRIPTED)
    page = browser_page(server, "#/dreaming")
    page.wait_for_selector("#dreaming-gates:has-text('new turn(s); needs 2')")
    assert "never" in page.inner_text("#dreaming-state")
    assert "never dreamed" in page.inner_text("#dreaming-gates")
    assert page.is_enabled("#dream-now")
    page.click("#dream-now")
    page.wait_for_selector("#dream-progress .pm-done", timeout=60_000)
    progress = page.inner_text("#dream-progress")
    assert "Found" in progress and "turn(s) in 3 session(s)" in progress and "Model call 1" in progress
    assert "Consolidated" in page.inner_text("#dream-progress .pm-done")
    page.wait_for_selector("#dreaming-state:has-text('Last report')")
    page.wait_for_selector("#dreaming-gates:has-text('closed')")  # the time gate closed after the dream
    report = page.inner_text("#dream-outcome")
    assert "MEMORY.md" in report and "You said:" in report  # the scripted model's closing words
    page.locator("#dream-now").evaluate("e => e.previousElementSibling.previousElementSibling.scrollIntoView()")
    shot(page, "ui-dreaming")  # the button, the progress and this dream's report
    state = json.loads((server.memory_dir / "dreaming-state.json").read_text())
    assert state["lastReport"]["reason"] == "done" and state["lastConsolidatedAt"]
    page.reload()  # the report comes from the state file, not from this page's memory
    page.wait_for_selector("#dreaming-state:has-text('Last report')")
    assert "Consolidated" in page.inner_text("#dreaming-state")


def test_dream_now_is_refused_without_a_model(ui_server: Callable[..., Any], browser_page: Callable[..., Any]) -> None:
    server = _seeded(ui_server, None)  # the default model (openai) and no API key
    page = browser_page(server, "#/dreaming", width=390, height=844)  # a phone's width
    page.wait_for_selector("#dreaming-gates")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not page.is_enabled("#dream-now")
    assert "OPENAI_API_KEY" in page.inner_text("#dream-now-why")
    client = server.client()
    answer = client.post("/api/dreaming/run", json={})
    assert answer.status_code == 409 and answer.json()["reason"] == "no-auth"
    assert "OPENAI_API_KEY" in answer.json()["error"]
    plain = server.client(same_origin=False)
    assert plain.post("/api/dreaming/run", json={}).status_code == 403  # writes need the header
    client.close()
    plain.close()
    assert not (server.memory_dir / "dreaming-state.json").exists()
