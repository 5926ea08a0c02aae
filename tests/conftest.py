"""Shared fixtures: every test gets its own temp dirs and never touches ~/.pi."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pi_memory.base.lock import publish as lock_publish

# The backend-parametrized store fixtures (``storage``, ``postgres_dsn``) live with the backend tests.
sys.path.insert(0, str(Path(__file__).resolve().parent / "backends"))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # peer_modules: the shared loader
from storage_fixtures import fresh_db, postgres_dsn, storage  # noqa: F401

import loopback

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


# --- the lock's two modes ------------------------------------------------------------------------
# Lock-dependent tests (tests/base, tests/memory, tests/interop) run under both ways the lock can
# publish its directory. ``renameat2``: a recorded private directory renamed to ``<file>.lock``
# with ``RENAME_NOREPLACE`` (Linux, the default here). ``mkdir``: the fallback for systems without
# it — ``mkdir <file>.lock``, then the record. A test opts in with the ``lock_mode`` fixture (or
# ``usefixtures``); ``@pytest.mark.lock_modes(...)`` narrows it to the modes where the test's
# fault injection exists. The mode also reaches subprocesses, through the environment variable
# the lock reads at import.

LOCK_MODES = ("renameat2", "mkdir")
FORCE_MKDIR_ENV = "_PI_MEMORY_LOCK_MKDIR"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "lock_modes(*modes): the lock modes a lock_mode test runs under")


# --- long tests first -----------------------------------------------------------------------------
# Tests marked ``slow`` are moved to the front (the rest keep their collection order), and
# scripts/test.sh has xdist hand out tests a few at a time (``--maxschedchunk``) instead of in
# blocks of hundreds: a long test then starts early on whichever worker is free, and is never the
# last one running on one worker while the other has nothing left to do.


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: the rest keep their order


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "lock_mode" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("lock_modes")
        modes = marker.args if marker else LOCK_MODES
        metafunc.parametrize("lock_mode", modes, indirect=True)


@pytest.fixture
def lock_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The mode under test, applied to this process and to every subprocess it starts."""
    mode: str = request.param
    monkeypatch.setattr(lock_publish, "_no_noreplace", set())  # the test switches of base.lock.publish
    if mode == "mkdir":
        monkeypatch.setattr(lock_publish, "_renameat2", None)
        monkeypatch.setenv(FORCE_MKDIR_ENV, "1")
    else:
        if lock_publish._renameat2 is None:
            pytest.fail("renameat2 is unavailable here, so the lock's primary path cannot be tested")
        monkeypatch.delenv(FORCE_MKDIR_ENV, raising=False)
    return mode


@pytest.fixture
def server() -> Iterator[loopback.FakeLLMServer]:
    """The loopback server speaking OpenAI's and Anthropic's wire formats (tests/loopback.py)."""
    fake = loopback.FakeLLMServer()
    yield fake
    fake.close()


@pytest.fixture
def refused_url() -> str:
    """A loopback URL where nothing listens."""
    return loopback.free_url()


@pytest.fixture
def anyio_backend() -> str:
    """Async tests (``@pytest.mark.anyio``) run on asyncio, the host's loop."""
    return "asyncio"
