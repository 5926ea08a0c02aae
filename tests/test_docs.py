"""Every ```python example in README.md and docs/ runs as written (blocks whose first line is
``# doc: skip`` are illustrations only)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _examples() -> list[tuple[str, str]]:
    found = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for n, match in enumerate(_BLOCK.finditer(doc.read_text(encoding="utf-8")), 1):
            code = match.group(1)
            if not code.lstrip().startswith("# doc: skip"):
                found.append((f"{doc.name}#{n}", code))
    return found


@pytest.mark.parametrize(("name", "code"), _examples(), ids=[n for n, _ in _examples()])
def test_doc_example_runs(name: str, code: str, tmp_path: Path, _isolated_home: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, f"{name} failed:\n{code}\n--- stderr ---\n{proc.stderr}"
    written = sorted(str(p.relative_to(_isolated_home)) for p in (_isolated_home / ".pi").rglob("*"))
    assert written == [], f"{name} wrote into the reader's ~/.pi: {written}"


def test_there_are_examples() -> None:
    assert len(_examples()) >= 4
