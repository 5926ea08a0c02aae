"""Fixtures of the Recall, Sessions and Dreaming data tests: a seeded temp agent dir."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from peer_modules import load_test_module

seed_module = load_test_module("ui/uidata_seed.py")

#: Elements and attributes that would make a probe live: none may exist where memory, sessions
#: or recall text is shown.
INERT = "script, img, iframe, object, embed, a[href^='javascript'], [onerror], [onload]"


@pytest.fixture
def seeded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """A seeded agent dir (``$PI_CODING_AGENT_DIR``), its recall index built by the backfill."""
    agent = tmp_path / "agent"
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PI_AGENT_HOME", str(agent))
    yield seed_module.seed(agent)


def seeded_ui_server(
    ui_server: Callable[..., Any], *, index: bool = True, settings: dict[str, Any] | None = None
) -> Any:
    """A real ``pi-memory ui`` over the seeded agent dir (``server.seeded`` says what is where);
    ``index=False`` leaves the recall index unbuilt (the Sessions page needs none); ``settings`` are
    written to the agent dir's settings file before the server starts."""
    box: dict[str, Any] = {}

    def prepare(server: Any) -> None:
        box["seeded"] = seed_module.seed(server.agent_dir, index=index)

    server = ui_server(settings=settings, seed=prepare)
    server.seeded = box["seeded"]
    return server
