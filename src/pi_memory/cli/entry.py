"""The ``pi-memory`` console script: ``status`` and ``read`` answer without loading typer.

Those two are what people, shell prompts and scripts run most, and typer costs more than their
work: importing it and coercing the options (it builds a pydantic adapter per option) takes
longer than reading both files and printing the table. So the plain form of the two commands —
the shared options spelled ``--dir DIR``, ``--json``, ``--memory-limit N``, ``--user-limit N``
(before or after the command word, the last one winning), a file-backed store, a target word for
``read`` — runs here, on the same functions the typer commands call: the settings resolution
(:mod:`pi_memory.cli.settings`), the store, and the renderers of :mod:`pi_memory.cli.render`.

Everything else goes to the typer app unchanged: help, ``--version``, any other option or
spelling, a usage or settings error, a settings warning, a shared database, a file in drift or
unreadable, a failed or warned read. Those paths print what they always printed, because it is
the same code that prints it. Both commands only read, so handing over after having looked at
the files changes nothing. ``tests/cli/test_entry.py`` runs both paths and compares them.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from pi_memory.memory import MemoryStore

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
    """Run a plain ``status``/``read`` and return its exit code, or None to leave it to typer
    (before printing anything)."""
    parsed = _parse(argv)
    if parsed is None:
        return None
    command, target, given = parsed
    from pi_memory.cli.settings import Options, load_memory_settings
    from pi_memory.extensions.memory.settings import SettingsError, open_settings_store
    from pi_memory.memory import MemoryStore

    options = Options(**given)
    try:
        settings, warnings = load_memory_settings(options)
    except SettingsError:
        return None
    if warnings or settings.backend != "file" or settings.store is not None:
        return None
    try:
        if options.dir is not None:
            store = MemoryStore(options.dir, settings.memory_char_limit, settings.user_char_limit)
        else:
            store = open_settings_store(settings)
    except (ImportError, ValueError):
        return None
    as_json = options.json
    if as_json and (sys.stdout.encoding or "").lower().replace("-", "") != "utf8":
        return None  # typer's echo has its own rules for other encodings
    if command == "status":
        return _status(store, as_json)
    return _read(store, target, as_json)


def _status(store: MemoryStore, as_json: bool) -> int | None:
    from pi_memory.cli.render import collect_status, print_status

    rows = collect_status(store)
    if any(row.state in ("drift", "unreadable") for row in rows):
        return None  # the typer command says what is wrong and what to do
    if as_json:
        payload = {"success": True, "dir": str(store.dir), "targets": [row.to_json() for row in rows]}
        _echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return 0
    print_status(_console(), rows)
    return 0


def _read(store: MemoryStore, target: str, as_json: bool) -> int | None:
    result = store.read(target)
    if result.get("success") is not True or "warning" in result:
        return None
    if as_json:
        _echo(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    from pi_memory.cli.render import print_entries

    print_entries(_console(), result)
    return 0


def _console() -> Console:
    from rich.console import Console

    return Console(highlight=False)  # as pi_memory.cli.main's


def _echo(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
