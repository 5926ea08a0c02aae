"""The consoles every ``pi-memory`` command prints through.

On a terminal, rich wraps long lines to its width, which is what a person reading it wants.
Anywhere else (a pipe, a file, a CI log, a test) rich would hard-wrap at 80 columns, breaking a
session path or a JSON settings snippet in an error hint so it can no longer be copied: there,
lines are written whole (tables and rules still take the console's width).
"""

from __future__ import annotations

from rich.console import Console

__all__ = ["console"]


def console(*, stderr: bool = False) -> Console:
    """A console for stdout (or stderr) that hard-wraps only on a terminal, without highlighting."""
    made = Console(stderr=stderr, highlight=False)
    made.soft_wrap = not made.is_terminal
    return made
