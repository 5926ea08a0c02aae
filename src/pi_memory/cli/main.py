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
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.text import Text

from pi_memory import __version__
from pi_memory.cli.lazy import command_group, lazy_group
from pi_memory.cli.options import Options, store_command
from pi_memory.cli.render import next_step
from pi_memory.cli.store_run import Opened, err, out, run_store, show_read, show_status, usage_error
from pi_memory.memory import TARGETS
from pi_memory.memory.snapshot import format_entry_count

__all__ = ["Options", "app"]

# Commands in their own modules, imported only when they run (pi_memory.cli.lazy); in help order.
_LAZY_COMMANDS = {
    "chat": "pi_memory.cli.chat:chat",
    "dream": "pi_memory.cli.dream:dream_command",
    "mcp": "pi_memory.cli.mcp:mcp",
    "recall": "pi_memory.cli.recall:app",
    "db": "pi_memory.cli.db:app",
    "ui": "pi_memory.cli.ui:ui",
}

def _flags_take_no_value() -> None:
    """typer labels every boolean option ``<bool>``, as if ``--json <bool>`` took a value, yet
    ``--json=false`` is refused: ``--help`` lists flags (``--json``, ``--trust/--no-trust``,
    ``--help``) without a type."""
    import typer.core

    option = getattr(typer.core, "TyperOption", None)
    shown = getattr(option, "display_type_rich", None)
    if option is None or shown is None or getattr(shown, "_flags_take_no_value", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        return None if getattr(self, "is_flag", False) else shown(self, ctx)

    display_type_rich._flags_take_no_value = True  # type: ignore[attr-defined]
    option.display_type_rich = display_type_rich


_flags_take_no_value()


app = command_group("pi-memory", "Inspect and edit the agent's curated memory (MEMORY.md and USER.md).",
                    cls=lazy_group(_LAZY_COMMANDS))

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
        usage_error(options, f"put --dsn/--namespace after the command: pi-memory {sub} --dsn … --namespace …")


_STORE_COMMANDS = ("status", "read", "add", "replace", "remove")


# ----------------------------------------------------------------------------- helpers


def _exit_with(options: Options, work: Callable[[Opened], int], *, writes: bool = False) -> NoReturn:
    """:func:`~pi_memory.cli.store_run.run_store`, then exit with its code."""
    raise typer.Exit(run_store(options, work, writes=writes))




def _split_target(options: Options, args: list[str], needed: int, usage: str) -> tuple[str, list[str]]:
    """``[memory|user] ARG…``: the target is optional and defaults to memory."""
    if len(args) == needed:
        return "memory", args
    if len(args) == needed + 1:
        if args[0] not in TARGETS:
            usage_error(options, f"Invalid target '{args[0]}'. Use 'memory' or 'user'.", usage)
        return args[0], args[1:]
    usage_error(options, f"expected {needed} argument(s) after an optional target, got {len(args)}.", usage)






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
    _exit_with(options, lambda opened: show_status(options, opened))




@app.command()
@store_command
def read(
    ctx: typer.Context,
    options: Options,
    target: Annotated[str, typer.Argument(help="memory or user.", show_default=True)] = "memory",
) -> None:
    """Print the live entries of one file, numbered."""
    if target not in TARGETS:
        usage_error(options, f"Invalid target '{target}'. Use 'memory' or 'user'.", "read [memory|user]")
    _exit_with(options, lambda opened: show_read(options, opened.store, target))




@app.command()
@store_command
def add(
    ctx: typer.Context,
    options: Options,
    args: Annotated[list[str], typer.Argument(metavar="[memory|user] TEXT", show_default=False)],
) -> None:
    """Add TEXT as a new entry (to memory unless the first word is memory or user)."""
    target, (text,) = _split_target(options, args, 1, "add [memory|user] TEXT")

    def work(opened: Opened) -> int:
        result = opened.store.add(target, text)
        done = f"Added to {target}"
        if result.get("message", "").startswith("Entry already exists"):
            done = f"Already in {target}, no duplicate added"
        return _finish(options, result, target, done)

    _exit_with(options, work, writes=True)


@app.command()
@store_command
def replace(
    ctx: typer.Context,
    options: Options,
    args: Annotated[list[str], typer.Argument(metavar="[memory|user] OLD NEW", show_default=False)],
) -> None:
    """Replace the whole entry containing OLD with NEW."""
    target, (old, new) = _split_target(options, args, 2, "replace [memory|user] OLD NEW")

    def work(opened: Opened) -> int:
        result = opened.store.replace(target, old, new)
        was = f"was: {result.get('replacedEntry', '')}"
        return _finish(options, result, target, f"Replaced in {target}", was, f"now: {new.strip()}")

    _exit_with(options, work, writes=True)


@app.command()
@store_command
def remove(
    ctx: typer.Context,
    options: Options,
    args: Annotated[list[str], typer.Argument(metavar="[memory|user] OLD", show_default=False)],
) -> None:
    """Remove the entry containing OLD."""
    target, (old,) = _split_target(options, args, 1, "remove [memory|user] OLD")

    def work(opened: Opened) -> int:
        result = opened.store.remove(target, old)
        return _finish(options, result, target, f"Removed from {target}", f"was: {result.get('removedEntry', '')}")

    _exit_with(options, work, writes=True)


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
