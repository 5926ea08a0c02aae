"""The store commands' bodies, without typer: open the store, run, print, return the exit code.

``pi-memory status`` and ``read`` are what people, shell prompts and scripts run most, and the
command-line framework costs more than their work, so :mod:`pi_memory.cli.entry` runs their plain
form straight from here; :mod:`pi_memory.cli.main` declares every command for typer and calls the
same functions. One body per command, so both paths print the same bytes. A usage or settings
error prints its message and exits 2 (``SystemExit``, which typer lets through).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from rich.text import Text

from pi_memory.cli.render import collect_status, print_entries, print_status, status_table
from pi_memory.cli.settings import Options, host_settings, load_memory_settings
from pi_memory.cli.terminal import console
from pi_memory.memory import MemoryStore

__all__ = ["Opened", "echo", "err", "out", "run_store", "show_read", "show_status", "usage_error"]

out = console()
err = console(stderr=True)


def echo(text: str) -> None:
    """One line to stdout, flushed (what ``typer.echo`` did, without loading typer)."""
    try:
        sys.stdout.write(text + "\n")
    except UnicodeEncodeError:  # a stdout that cannot encode the text: write it as UTF-8
        sys.stdout.flush()
        sys.stdout.buffer.write((text + "\n").encode("utf-8", "backslashreplace"))
    sys.stdout.flush()


def usage_error(options: Options, message: str, usage: str | None = None) -> NoReturn:
    if options.json:
        echo(json.dumps({"success": False, "error": message}, ensure_ascii=False, indent=2))
    else:
        err.print(Text(f"Error: {message}"), soft_wrap=True)
        if usage:
            err.print(Text(f"Usage: pi-memory {usage}"))
    raise SystemExit(2)



@dataclass(frozen=True)
class Opened:
    """The store a command works on, a line saying where it is, and the settings that chose it."""

    store: MemoryStore
    shared: bool
    where: str
    settings: Any = None  # MemorySettings (imported lazily)



def run_store(options: Options, work: Callable[[Opened], int], *, writes: bool = False) -> int:
    """Open the store the settings and options choose, run ``work`` on it, close it; its exit code.

    A settings problem is exit 2 (fix the setting); a shared database that cannot be used is
    exit 1 with what to check, before anything is read or written. A ``--dir`` that does not
    exist is exit 2 for a read (reads create nothing); a write creates it and says so.
    """
    from pi_memory.backends import close_store, describe_store, store_problem
    from pi_memory.extensions.memory.settings import SettingsError, open_settings_store

    try:
        settings, warnings = load_memory_settings(options)
    except SettingsError as exc:
        usage_error(options, str(exc))
    for warning in warnings:
        err.print(Text(f"Warning: {warning}"), soft_wrap=True)
    created: Path | None = None
    if options.dir is not None:  # exactly the directory given, as before
        if not options.dir.is_dir():
            if not writes:
                usage_error(options, f"--dir {options.dir} does not exist (a read creates nothing). Check the "
                                      "path; the first add creates it.")
            created = options.dir.absolute()
        store = MemoryStore(options.dir, settings.memory_char_limit, settings.user_char_limit)
    else:
        try:
            store = open_settings_store(settings)
        except (ImportError, ValueError) as exc:
            usage_error(options, str(exc))
    try:
        problem = store_problem(store)
        if problem is not None:
            if options.json:
                echo(json.dumps({"success": False, "error": problem}, ensure_ascii=False, indent=2))
            else:
                err.print(Text(f"Failed: {problem}"), soft_wrap=True)
            code = 1
        else:
            code = work(Opened(store, store.dir is None, describe_store(store), settings))
    finally:
        close_store(store)
    if created is not None and created.is_dir():
        err.print(Text(f"Created the memory directory {created}."), soft_wrap=True)
    return code



def show_status(options: Options, opened: Opened) -> int:
    from pi_memory.cli.status import collect_locations, dreaming_status, locations_json, print_locations

    rows = collect_status(opened.store)
    host = host_settings(Path.cwd())[0]
    locations = collect_locations(options, opened.settings, host, Path.cwd())
    dreaming = dreaming_status(opened.settings, opened.store, host)
    if options.json:
        where: dict[str, Any] = {"dir": str(opened.store.dir)}
        backend = opened.store.backend
        if opened.shared:
            where = {"backend": "postgres", "database": getattr(backend, "where", ""),
                     "namespace": getattr(backend, "namespace", "")}
        payload = {"success": True, **where, "targets": [row.to_json() for row in rows],
                   "locations": locations_json(locations), "dreaming": dreaming.to_json() if dreaming else None}
        echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return 0
    if opened.shared:
        out.print(status_table(rows))
        out.print(Text(f"Backend: {opened.where}"), soft_wrap=True)
    else:
        print_status(out, rows)
    for row in rows:
        if row.state in ("drift", "unreadable"):
            out.print(Text(f"{row.target}: {row.state}: {row.detail}."), soft_wrap=True)
            fix = f"Next: {row.next}"
            if row.state == "drift" and opened.shared:
                fix += (f" ({row.file} is a row of table pi_memory_files; a refused write saves a backup "
                        "first: `pi-memory db backups`.)")
            elif row.state == "drift":
                fix += " (A refused write saves a .bak copy next to it first.)"
            out.print(Text(fix), soft_wrap=True)
    if dreaming is not None:
        out.print(Text(dreaming.line(), style="" if dreaming.on else "yellow"), soft_wrap=True)
    print_locations(out, locations)
    return 0



def show_read(options: Options, store: MemoryStore, target: str) -> int:
    result = store.read(target)
    ok = result.get("success") is True
    if options.json:
        echo(json.dumps(result, ensure_ascii=False, indent=2))
    elif ok:
        print_entries(out, result)
        if "warning" in result:
            err.print(Text(f"Warning: {result['warning']}"))
    else:
        err.print(Text(f"Failed: {result.get('error')}"), soft_wrap=True)
    return 0 if ok else 1

