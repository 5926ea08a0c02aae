"""The lock tests' fixtures: the file to lock, and the holder subprocesses to clean up."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import pytest  # noqa: E402
from lock_helpers import Holder  # noqa: E402


@pytest.fixture
def holders() -> Iterator[list[Holder]]:
    started: list[Holder] = []
    yield started
    for holder in started:
        holder.cleanup()


@pytest.fixture
def target(tmp_path: Path) -> Path:
    path = tmp_path / "MEMORY.md"
    path.write_text("one")
    return path
