"""The code stays lint- and type-clean: ruff over the tree, mypy --strict over the package.

These run the real tools as subprocesses (configured in pyproject.toml), so a change that adds a
lint or typing error fails the suite instead of waiting for someone to notice.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


@pytest.mark.slow
def test_ruff_is_clean() -> None:
    proc = subprocess.run([str(BIN / "ruff"), "check", "src", "tests", "bench", "scripts"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.slow
def test_mypy_strict_is_clean() -> None:
    proc = subprocess.run([str(BIN / "mypy")], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
