"""The consoles every ``pi-memory`` command prints through.

On a terminal, rich wraps long lines to its width, which is what a person reading it wants.
Anywhere else (a pipe, a file, a CI log, a test) rich would hard-wrap at 80 columns, breaking a
session path or a JSON settings snippet in an error hint so it can no longer be copied: there,
lines are written whole (tables and rules still take the console's width).

Importing this module also makes ``--help`` show a flag as a flag: typer labels every boolean
option ``<bool>``, as if ``--json <bool>`` took a value, yet ``--json=false`` is refused.
"""

from __future__ import annotations

from typing import Any

import typer.core
from rich.console import Console

__all__ = ["console"]


def console(*, stderr: bool = False) -> Console:
    """A console for stdout (or stderr) that hard-wraps only on a terminal, without highlighting."""
    made = Console(stderr=stderr, highlight=False)
    made.soft_wrap = not made.is_terminal
    return made


def _flags_take_no_value() -> None:
    """``--help`` lists flags (``--json``, ``--trust/--no-trust``, ``--help``) without a type."""
    option = getattr(typer.core, "TyperOption", None)
    shown = getattr(option, "display_type_rich", None)
    if option is None or shown is None or getattr(shown, "_flags_take_no_value", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        return None if getattr(self, "is_flag", False) else shown(self, ctx)

    display_type_rich._flags_take_no_value = True  # type: ignore[attr-defined]
    option.display_type_rich = display_type_rich


_flags_take_no_value()
