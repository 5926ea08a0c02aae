"""The provider tests' OpenAI chunk fixture (the loopback server itself is tests/loopback.py)."""

from __future__ import annotations

from typing import Any

import pytest

from loopback import chunk


@pytest.fixture
def oa_chunk() -> Any:
    return chunk
