"""The consoles commands print through (:mod:`pi_memory.cli.terminal`): off a terminal a long line
is written whole, so a path or a JSON snippet in a hint can still be copied."""

from __future__ import annotations

import io

from pi_memory.cli.terminal import console


def test_off_a_terminal_long_lines_are_never_hard_wrapped() -> None:
    out = console()
    assert not out.is_terminal and out.soft_wrap is True
    out.file = io.StringIO()
    long_path = "/home/someone/" + "very-long-directory-name/" * 8 + "MEMORY.md"
    out.print(f"Edit {long_path} to fix it.")
    assert out.file.getvalue() == f"Edit {long_path} to fix it.\n"


def test_stderr_gets_its_own_console_without_highlighting() -> None:
    err = console(stderr=True)
    err.file = io.StringIO()
    err.print("error: 42 entries at /tmp/x")
    assert err.stderr and err.file.getvalue() == "error: 42 entries at /tmp/x\n"
