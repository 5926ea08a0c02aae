"""Every ```console example in docs/cli.md runs as shown.

Each block starts from a fresh, empty directory (the docs say ``/tmp/pi-memory-docs``); every ``$``
line must print exactly the lines under it (trailing spaces ignored), except that a line holding
only ``…`` stands for any number of lines (what depends on the reader's machine, such as where
their settings live), and ``[exit N]`` gives its exit status (0 when absent).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pi_memory.cli.main import app

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
DOC_DIR = "/tmp/pi-memory-docs"
_BLOCK = re.compile(r"^```console\n(.*?)^```", re.S | re.M)
_EXIT = re.compile(r"^\[exit (\d+)\]$")


def _blocks() -> list[str]:
    return _BLOCK.findall(DOC.read_text(encoding="utf-8"))


def _steps(block: str) -> list[tuple[str, list[str], int]]:
    steps: list[tuple[str, list[str], int]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], [], 0))
        elif match := _EXIT.match(line):
            command, expected, _ = steps[-1]
            steps[-1] = (command, expected, int(match.group(1)))
        else:
            steps[-1][1].append(line)
    return steps


def _matches(shown: list[str], expected: list[str]) -> bool:
    """``shown == expected``, with an expected ``…`` line matching any run of lines."""
    if not expected:
        return not shown
    if expected[0] == "…":
        return any(_matches(shown[n:], expected[1:]) for n in range(len(shown) + 1))
    return bool(shown) and shown[0] == expected[0] and _matches(shown[1:], expected[1:])


def test_doc_has_checked_examples() -> None:
    assert len(_blocks()) >= 5


@pytest.mark.parametrize("block", _blocks(), ids=[f"block{i}" for i in range(1, len(_blocks()) + 1)])
def test_console_example(block: str, tmp_path: Path) -> None:
    directory = str(tmp_path / "pi-memory-docs")
    Path(directory).mkdir()
    for command, expected, code in _steps(block):
        argv = shlex.split(command.replace(DOC_DIR, directory))
        assert argv[0] == "pi-memory"
        result = CliRunner().invoke(app, argv[1:])
        shown = [line.rstrip() for line in result.output.replace(directory, DOC_DIR).splitlines()]
        assert _matches(shown, expected), f"$ {command}\n" + "\n".join(shown)
        assert result.exit_code == code, f"$ {command}"
