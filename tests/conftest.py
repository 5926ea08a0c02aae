"""Shared fixtures: every test gets its own temp dirs and never touches ~/.pi."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# The backend-parametrized store fixtures (``storage``, ``postgres_dsn``) live with the backend tests.
sys.path.insert(0, str(Path(__file__).resolve().parent / "backends"))
from storage_fixtures import postgres_dsn, storage  # noqa: F401


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PI_AGENT_HOME", str(home / ".pi" / "agent"))
    monkeypatch.delenv("PI_CODING_AGENT_DIR", raising=False)
    return home
