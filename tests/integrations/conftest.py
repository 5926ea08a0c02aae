"""The integration tests share ``integration_helpers`` (the suite runs with ``--import-mode=importlib``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from integration_helpers import MessagesServer  # noqa: E402


@pytest.fixture
def messages_server() -> Iterator[MessagesServer]:
    fake = MessagesServer()
    yield fake
    fake.close()
