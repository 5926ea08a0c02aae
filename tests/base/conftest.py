"""Fixtures for the base-layer tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio (the host's loop)."""
    return "asyncio"
