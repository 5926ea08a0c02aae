"""The ``pi-memory`` console script: ``status`` and ``read`` answer without loading typer.

Those two are what people, shell prompts and scripts run most, and typer costs more than their
work: importing it and coercing the options (it builds a pydantic adapter per option) takes
longer than reading both files and printing the table. So the plain form of the two commands —
the shared options spelled ``--dir DIR``, ``--json``, ``--memory-limit N``, ``--user-limit N``
(before or after the command word, the last one winning), a target word for ``read`` — runs
here, through the very functions the typer commands call (:mod:`pi_memory.cli.store_run`), so
both print the same bytes and exit with the same code. Every other command line (help,
``--version``, any other option or spelling) goes to the typer app unchanged.
``tests/cli/test_entry.py`` runs both paths and compares them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:

    pass

__all__ = ["main", "run_plain"]

_LIMITS = {"--memory-limit": "memory_limit", "--user-limit": "user_limit"}


def main(prog_name: str | None = None) -> None:
    """Run ``pi-memory`` with ``sys.argv``: the plain status/read here, anything else through typer."""
    code = run_plain(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from pi_memory.cli.main import app

    app(prog_name=prog_name)


def _parse(argv: list[str]) -> tuple[str, str, dict[str, Any]] | None:
    """``(command, target, options)`` for a plain status/read command line, else None."""
    given: dict[str, Any] = {}
    words: list[str] = []
    tokens = iter(argv)
    for token in tokens:
        if token == "--json":
            given["json"] = True
        elif token == "--dir" or token in _LIMITS:
            value = next(tokens, None)
            if not value or value.startswith("-") or "\0" in value:
                return None
            if token == "--dir":
                # typer refuses an existing path that is not a readable directory
                if os.path.exists(value) and not (os.path.isdir(value) and os.access(value, os.R_OK)):
                    return None
                given["dir"] = Path(value)
            elif value.isascii() and value.isdigit() and int(value) >= 1:
                given[_LIMITS[token]] = int(value)
            else:
                return None
        elif token.startswith("-"):
            return None
        else:
            words.append(token)
    if words == ["status"]:
        return "status", "", given
    if words in (["read"], ["read", "memory"], ["read", "user"]):
        return "read", words[1] if len(words) == 2 else "memory", given
    return None


def run_plain(argv: list[str]) -> int | None:
    """Run a plain ``status``/``read`` and return its exit code, or None to leave the command line
    to typer (before anything is printed)."""
    parsed = _parse(argv)
    if parsed is None:
        return None
    command, target, given = parsed
    from pi_memory.cli.settings import Options
    from pi_memory.cli.store_run import run_store, show_read, show_status

    options = Options(**given)
    if command == "status":
        return run_store(options, lambda opened: show_status(options, opened))
    return run_store(options, lambda opened: show_read(options, opened.store, target))
