"""Run lock-dependent tests under both ways the lock can publish its directory.

``renameat2``: a recorded private directory renamed to ``<file>.lock`` with
``RENAME_NOREPLACE`` (Linux, the default here). ``mkdir``: the fallback for
systems without it — ``mkdir <file>.lock``, then the record. A test opts in with
the ``lock_mode`` fixture (or ``usefixtures``); ``@pytest.mark.lock_modes(...)``
narrows it to the modes where the test's fault injection exists. The mode also
reaches subprocesses, through the environment variable the lock reads at import.
"""

from __future__ import annotations

import pytest

from pi_memory.memory import lock as lockmod

LOCK_MODES = ("renameat2", "mkdir")
FORCE_MKDIR_ENV = "_PI_MEMORY_LOCK_MKDIR"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "lock_modes(*modes): the lock modes a lock_mode test runs under")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "lock_mode" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("lock_modes")
        modes = marker.args if marker else LOCK_MODES
        metafunc.parametrize("lock_mode", modes, indirect=True)


@pytest.fixture
def lock_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The mode under test, applied to this process and to every subprocess it starts."""
    mode: str = request.param
    monkeypatch.setattr(lockmod, "_no_noreplace", set())
    if mode == "mkdir":
        monkeypatch.setattr(lockmod, "_renameat2", None)
        monkeypatch.setenv(FORCE_MKDIR_ENV, "1")
    else:
        if lockmod._renameat2 is None:
            pytest.fail("renameat2 is unavailable here, so the lock's primary path cannot be tested")
        monkeypatch.delenv(FORCE_MKDIR_ENV, raising=False)
    return mode
