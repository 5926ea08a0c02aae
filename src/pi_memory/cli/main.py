"""``pi-memory``: look at and edit MEMORY.md / USER.md from a shell.

Commands go straight to :class:`~pi_memory.memory.MemoryStore` (full, unbounded results: a human
is reading), so the CLI enforces the same rules as the tools: budgets, the scanner, drift guard,
lock. The store is the one the agent uses: the ``pi-memory`` settings (global, agent config dir,
and a trusted project's, as the host reads them) pick files or a shared PostgreSQL database;
``--dir`` forces files, ``--dsn`` forces PostgreSQL. Exit codes: 0 success, 1 the store refused
or cannot be reached (the message says what to do next), 2 usage or settings error.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.text import Text

from pi_memory import __version__
from pi_memory.cli.lazy import lazy_group
from pi_memory.cli.options import Options, load_memory_settings, store_command
from pi_memory.cli.render import collect_status, next_step, print_entries, print_status, status_table
from pi_memory.cli.terminal import console
from pi_memory.memory import TARGETS, MemoryStore
from pi_memory.memory.snapshot import format_entry_count

__all__ = ["Options", "app"]

# Commands in their own modules, imported only when they run (pi_memory.cli.lazy); in help order.
_LAZY_COMMANDS = {
    "chat": "pi_memory.cli.chat:chat",
    "dream": "pi_memory.cli.dream:dream_command",
    "mcp": "pi_memory.cli.mcp:mcp",
    "recall": "pi_memory.cli.recall:app",
    "db": "pi_memory.cli.db:app",
}

app = typer.Typer(
    name="pi-memory",
    cls=lazy_group(_LAZY_COMMANDS),
    help="Inspect and edit the agent's curated memory (MEMORY.md and USER.md).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

out = console()
err = console(stderr=True)


def _version(value: bool) -> None:
    if value:
        out.print(f"pi-memory {__version__}")
        raise typer.Exit()


@app.callback()
@store_command
def main(
    ctx: typer.Context,
    options: Options,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Inspect and edit the agent's curated memory (MEMORY.md and USER.md)."""
    ctx.obj = options
    sub = ctx.invoked_subcommand
    if (options.dsn or options.namespace) and sub not in (*_STORE_COMMANDS, "dream", None):
        # Those commands take their own --dsn/--namespace and would not see these: say so.
        _usage_error(options, f"put --dsn/--namespace after the command: pi-memory {sub} --dsn … --namespace …")


_STORE_COMMANDS = ("status", "read", "add", "replace", "remove")


# ----------------------------------------------------------------------------- helpers


def _usage_error(options: Options, message: str, usage: str | None = None) -> NoReturn:
    if options.json:
        typer.echo(json.dumps({"success": False, "error": message}, ensure_ascii=False, indent=2))
    else:
        err.print(Text(f"Error: {message}"), soft_wrap=True)
        if usage:
            err.print(Text(f"Usage: pi-memory {usage}"))
    raise typer.Exit(2)


def _split_target(options: Options, args: list[str], needed: int, usage: str) -> tuple[str, list[str]]:
    """``[memory|user] ARG…``: the target is optional and defaults to memory."""
    if len(args) == needed:
        return "memory", args
    if len(args) == needed + 1:
        if args[0] not in TARGETS:
            _usage_error(options, f"Invalid target '{args[0]}'. Use 'memory' or 'user'.", usage)
        return args[0], args[1:]
    _usage_error(options, f"expected {needed} argument(s) after an optional target, got {len(args)}.", usage)


@dataclass(frozen=True)
class _Opened:
    """The store a command works on, a line saying where it is, and the settings that chose it."""

    store: MemoryStore
    shared: bool
    where: str
    settings: Any = None  # MemorySettings (imported lazily)


def _run(options: Options, work: Callable[[_Opened], int], *, writes: bool = False) -> NoReturn:
    """Open the store the settings and options choose, run ``work`` on it, close it, exit.

    A settings problem is exit 2 (fix the setting); a shared database that cannot be used is
    exit 1 with what to check, before anything is read or written. A ``--dir`` that does not
    exist is exit 2 for a read (reads create nothing); a write creates it and says so.
    """
    from pi_memory.backends import close_store, describe_store, store_problem
    from pi_memory.extensions.memory.settings import SettingsError, open_settings_store

    try:
        settings, warnings = load_memory_settings(options)
    except SettingsError as exc:
        _usage_error(options, str(exc))
    for warning in warnings:
        err.print(Text(f"Warning: {warning}"), soft_wrap=True)
    created: Path | None = None
    if options.dir is not None:  # exactly the directory given, as before
        if not options.dir.is_dir():
            if not writes:
                _usage_error(options, f"--dir {options.dir} does not exist (a read creates nothing). Check the "
                                      "path; the first add creates it.")
            created = options.dir.absolute()
        store = MemoryStore(options.dir, settings.memory_char_limit, settings.user_char_limit)
    else:
        try:
            store = open_settings_store(settings)
        except (ImportError, ValueError) as exc:
            _usage_error(options, str(exc))
    try:
        problem = store_problem(store)
        if problem is not None:
            if options.json:
                typer.echo(json.dumps({"success": False, "error": problem}, ensure_ascii=False, indent=2))
            else:
                err.print(Text(f"Failed: {problem}"), soft_wrap=True)
            code = 1
        else:
            code = work(_Opened(store, store.dir is None, describe_store(store), settings))
    finally:
        close_store(store)
    if created is not None and created.is_dir():
        err.print(Text(f"Created the memory directory {created}."), soft_wrap=True)
    raise typer.Exit(code)


def _finish(options: Options, result: dict[str, Any], target: str, done: str, *details: str) -> int:
    """Print a mutation's outcome; 0 on success, 1 on a refusal."""
    ok = result.get("success") is True
    if options.json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2))
    elif ok:
        count = result["entryCount"]
        out.print(Text(f"{done} ({result['usage']}, {format_entry_count(count)})."))
        for line in details:
            out.print(Text(f"  {line}"), soft_wrap=True)
    else:
        err.print(Text(f"Failed: {result.get('error')}"), soft_wrap=True)
        if hint := next_step(result, target):
            err.print(Text(f"Next: {hint}"), soft_wrap=True)
    return 0 if ok else 1


# ----------------------------------------------------------------------------- commands


@app.command()
@store_command
def status(ctx: typer.Context, options: Options) -> None:
    """Entries, usage and drift state of both files (reads only; creates nothing)."""
    _run(options, lambda opened: _status(options, opened))


def _status(options: Options, opened: _Opened) -> int:
    from pi_memory.cli.options import host_settings
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
        typer.echo(json.dumps(payload, ensure_ascii=False, indent=2))
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


@app.command()
@store_command
def read(
    ctx: typer.Context,
    options: Options,
    target: Annotated[str, typer.Argument(help="memory or user.", show_default=True)] = "memory",
) -> None:
    """Print the live entries of one file, numbered."""
    if target not in TARGETS:
        _usage_error(options, f"Invalid target '{target}'. Use 'memory' or 'user'.", "read [memory|user]")
    _run(options, lambda opened: _read(options, opened.store, target))


def _read(options: Options, store: MemoryStore, target: str) -> int:
    result = store.read(target)
    ok = result.get("success") is True
    if options.json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2))
    elif ok:
        print_entries(out, result)
        if "warning" in result:
            err.print(Text(f"Warning: {result['warning']}"))
    else:
        err.print(Text(f"Failed: {result.get('error')}"), soft_wrap=True)
    return 0 if ok else 1


@app.command()
@store_command
def add(
    ctx: typer.Context,
    options: Options,
    args: Annotated[list[str], typer.Argument(metavar="[memory|user] TEXT", show_default=False)],
) -> None:
    """Add TEXT as a new entry (to memory unless the first word is memory or user)."""
    target, (text,) = _split_target(options, args, 1, "add [memory|user] TEXT")

    def work(opened: _Opened) -> int:
        result = opened.store.add(target, text)
        done = f"Added to {target}"
        if result.get("message", "").startswith("Entry already exists"):
            done = f"Already in {target}, no duplicate added"
        return _finish(options, result, target, done)

    _run(options, work, writes=True)


@app.command()
@store_command
def replace(
    ctx: typer.Context,
    options: Options,
    args: Annotated[list[str], typer.Argument(metavar="[memory|user] OLD NEW", show_default=False)],
) -> None:
    """Replace the whole entry containing OLD with NEW."""
    target, (old, new) = _split_target(options, args, 2, "replace [memory|user] OLD NEW")

    def work(opened: _Opened) -> int:
        result = opened.store.replace(target, old, new)
        was = f"was: {result.get('replacedEntry', '')}"
        return _finish(options, result, target, f"Replaced in {target}", was, f"now: {new.strip()}")

    _run(options, work, writes=True)


@app.command()
@store_command
def remove(
    ctx: typer.Context,
    options: Options,
    args: Annotated[list[str], typer.Argument(metavar="[memory|user] OLD", show_default=False)],
) -> None:
    """Remove the entry containing OLD."""
    target, (old,) = _split_target(options, args, 1, "remove [memory|user] OLD")

    def work(opened: _Opened) -> int:
        result = opened.store.remove(target, old)
        return _finish(options, result, target, f"Removed from {target}", f"was: {result.get('removedEntry', '')}")

    _run(options, work, writes=True)


@app.command()
def demo(
    ctx: typer.Context,
    dir: Annotated[
        Path | None,
        typer.Option("--dir", help="An empty directory to use as the demo's agent home (default: a new temp dir)."),
    ] = None,
) -> None:
    """Run the whole product offline: two scripted sessions through the real host, recall and decay."""
    from pi_memory.cli.demo import run_demo

    raise typer.Exit(run_demo(out, err, dir))
