"""Fixtures of the Recall, Sessions and Dreaming data tests: a seeded temp agent dir."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from peer_modules import load_test_module

seed_module = load_test_module("ui/uidata_seed.py")


@pytest.fixture
def seeded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """A seeded agent dir (``$PI_CODING_AGENT_DIR``), its recall index built by the backfill."""
    agent = tmp_path / "agent"
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PI_AGENT_HOME", str(agent))
    yield seed_module.seed(agent)
