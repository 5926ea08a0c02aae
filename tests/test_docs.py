"""Every ```python example in README.md and docs/ runs as written (blocks whose first line is
``# doc: skip`` are illustrations only; a first line ``# doc: needs MODULE`` runs the block where
MODULE is importable — an optional extra such as ``pydantic_ai`` — and skips it elsewhere)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
_NEEDS = re.compile(r"# doc: needs ([\w.]+)")


def _examples() -> list[tuple[str, str]]:
    found = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for n, match in enumerate(_BLOCK.finditer(doc.read_text(encoding="utf-8")), 1):
            code = match.group(1)
            if not code.lstrip().startswith("# doc: skip"):
                found.append((f"{doc.name}#{n}", code))
    return found


@pytest.mark.parametrize(("name", "code"), _examples(), ids=[n for n, _ in _examples()])
def test_doc_example_runs(name: str, code: str, tmp_path: Path) -> None:
    needs = _NEEDS.match(code.lstrip())
    if needs and importlib.util.find_spec(needs.group(1)) is None:
        pytest.skip(f"{name} needs {needs.group(1)} (an optional extra)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, f"{name} failed:\n{code}\n--- stderr ---\n{proc.stderr}"


def test_there_are_examples() -> None:
    assert len(_examples()) >= 4
