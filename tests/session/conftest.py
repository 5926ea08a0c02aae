"""Fixtures for the session tests.

The suite runs with ``--import-mode=importlib``, so this folder is put on ``sys.path`` here to let
test modules share ``session_builders`` (message builders) without a package.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


@pytest.fixture
def session_dir(tmp_path: Path) -> str:
    return str(tmp_path / "sessions")
