"""Shared fixtures: every test gets its own temp dirs and never touches ~/.pi."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

# The backend-parametrized store fixtures (``storage``, ``postgres_dsn``) live with the backend tests.
sys.path.insert(0, str(Path(__file__).resolve().parent / "backends"))
from storage_fixtures import postgres_dsn, storage  # noqa: F401

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
"""Every file the suite needs (see its README.md for where each comes from and its license)."""
SHARED_DATA = Path(os.environ.get("PI_MEMORY_SHARED_DATA") or REPO.parent / "shared")
"""Optional larger data sets beside the repository (threat corpora, LoCoMo): extra cases only."""


@pytest.fixture(scope="session")
def pi_sessions() -> Path:
    """pi's two real v1 session files, kept in the repository (``tests/fixtures/pi-sessions``)."""
    return FIXTURES / "pi-sessions"


@pytest.fixture(scope="session")
def shared_data() -> Callable[[str], Path]:
    """``shared_data("bench/threats/x.jsonl")``: that optional file, or the test skips saying why.

    A plain clone has no ``../shared``; the tests that only add cases on such data must skip,
    never fail, there. CI has it, so it runs them.
    """

    def find(relative: str) -> Path:
        path = SHARED_DATA / relative
        if not path.exists():
            pytest.skip(f"optional data {relative} not found under {SHARED_DATA} "
                        "(set PI_MEMORY_SHARED_DATA to the folder that holds it)")
        return path

    return find


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PI_AGENT_HOME", str(home / ".pi" / "agent"))
    monkeypatch.delenv("PI_CODING_AGENT_DIR", raising=False)
    return home
