"""The provider tests' OpenAI chunk fixture and their ``provider_runs`` helper on the path (the
loopback server itself is tests/loopback.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import pytest  # noqa: E402

from loopback import chunk  # noqa: E402


@pytest.fixture
def oa_chunk() -> Any:
    return chunk
