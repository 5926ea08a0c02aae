"""``pi-memory``: look at and edit MEMORY.md / USER.md from a shell.

Commands go straight to :class:`~pi_memory.memory.MemoryStore` (full, unbounded results: a human
is reading), so the CLI enforces the same rules as the tools: budgets, the scanner, drift guard,
lock. Exit codes: 0 success, 1 the store refused (the message says what to do next), 2 usage.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from pi_memory import __version__
from pi_memory.cli.render import collect_status, next_step, print_entries, print_status
from pi_memory.memory import TARGETS, MemoryStore, default_memory_dir

app = typer.Typer(
    name="pi-memory",
    help="Inspect and edit the agent's curated memory (MEMORY.md and USER.md).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

DirOption = Annotated[
    Path | None,
    typer.Option(
        "--dir",
        help="Memory directory. Default: $PI_AGENT_HOME/memories, else ~/.pi/agent/memories.",
        file_okay=False,
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
MemoryLimitOption = Annotated[
    int | None, typer.Option("--memory-limit", min=1, help="Char budget of MEMORY.md (default 2200).")
]
UserLimitOption = Annotated[
    int | None, typer.Option("--user-limit", min=1, help="Char budget of USER.md (default 1375).")
]


@dataclass(frozen=True)
class Settings:
    """Options given before the command; the same options after it win."""

    dir: Path | None = None
    json: bool = False
    memory_limit: int | None = None
    user_limit: int | None = None

    def merged(self, dir: Path | None, as_json: bool, memory_limit: int | None, user_limit: int | None) -> Settings:
        return Settings(
            dir=dir or self.dir,
            json=as_json or self.json,
            memory_limit=memory_limit or self.memory_limit,
            user_limit=user_limit or self.user_limit,
        )

    def store(self) -> MemoryStore:
        limits: dict[str, Any] = {}
        if self.memory_limit is not None:
            limits["memory_char_limit"] = self.memory_limit
        if self.user_limit is not None:
            limits["user_char_limit"] = self.user_limit
        return MemoryStore(self.dir or default_memory_dir(), **limits)


def _settings(
    ctx: typer.Context, dir: Path | None, as_json: bool, memory_limit: int | None, user_limit: int | None
) -> Settings:
    base = ctx.obj if isinstance(ctx.obj, Settings) else Settings()
    return base.merged(dir, as_json, memory_limit, user_limit)


def _version(value: bool) -> None:
    if value:
        out.print(f"pi-memory {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    dir: DirOption = None,
    as_json: JsonOption = False,
    memory_limit: MemoryLimitOption = None,
    user_limit: UserLimitOption = None,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Inspect and edit the agent's curated memory (MEMORY.md and USER.md)."""
    ctx.obj = Settings(dir, as_json, memory_limit, user_limit)


# ----------------------------------------------------------------------------- helpers


def _usage_error(settings: Settings, message: str, usage: str | None = None) -> NoReturn:
    if settings.json:
        typer.echo(json.dumps({"success": False, "error": message}, ensure_ascii=False, indent=2))
    else:
        err.print(Text(f"Error: {message}"))
        if usage:
            err.print(Text(f"Usage: pi-memory {usage}"))
    raise typer.Exit(2)


def _split_target(settings: Settings, args: list[str], needed: int, usage: str) -> tuple[str, list[str]]:
    """``[memory|user] ARG…``: the target is optional and defaults to memory."""
    if len(args) == needed:
        return "memory", args
    if len(args) == needed + 1:
        if args[0] not in TARGETS:
            _usage_error(settings, f"Invalid target '{args[0]}'. Use 'memory' or 'user'.", usage)
        return args[0], args[1:]
    _usage_error(settings, f"expected {needed} argument(s) after an optional target, got {len(args)}.", usage)


def _finish(settings: Settings, result: dict[str, Any], target: str, done: str, *details: str) -> NoReturn:
    """Print a mutation's outcome and exit 0 on success, 1 on a refusal."""
    ok = result.get("success") is True
    if settings.json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2))
    elif ok:
        count = result["entryCount"]
        out.print(Text(f"{done} ({result['usage']}, {count} entr{'y' if count == 1 else 'ies'})."))
        for line in details:
            out.print(Text(f"  {line}"), soft_wrap=True)
    else:
        err.print(Text(f"Failed: {result.get('error')}"), soft_wrap=True)
        if hint := next_step(result, target):
            err.print(Text(f"Next: {hint}"), soft_wrap=True)
    raise typer.Exit(0 if ok else 1)


# ----------------------------------------------------------------------------- commands


@app.command()
def status(
    ctx: typer.Context,
    dir: DirOption = None,
    as_json: JsonOption = False,
    memory_limit: MemoryLimitOption = None,
    user_limit: UserLimitOption = None,
) -> None:
    """Entries, usage and drift state of both files (reads only; creates nothing)."""
    settings = _settings(ctx, dir, as_json, memory_limit, user_limit)
    store = settings.store()
    rows = collect_status(store)
    if settings.json:
        payload = {"success": True, "dir": str(store.dir), "targets": [row.to_json() for row in rows]}
        typer.echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return
    print_status(out, rows)
    for row in rows:
        if row.state in ("drift", "unreadable"):
            out.print(Text(f"{row.target}: {row.state}: {row.detail}."), soft_wrap=True)
            out.print(
                Text(
                    f"Next: rewrite {row.file} as entries separated by a line holding only '§' "
                    "(a refused write saves a .bak copy next to it first)."
                ),
                soft_wrap=True,
            )


@app.command()
def read(
    ctx: typer.Context,
    target: Annotated[str, typer.Argument(help="memory or user.", show_default=True)] = "memory",
    dir: DirOption = None,
    as_json: JsonOption = False,
    memory_limit: MemoryLimitOption = None,
    user_limit: UserLimitOption = None,
) -> None:
    """Print the live entries of one file, numbered."""
    settings = _settings(ctx, dir, as_json, memory_limit, user_limit)
    if target not in TARGETS:
        _usage_error(settings, f"Invalid target '{target}'. Use 'memory' or 'user'.", "read [memory|user]")
    result = settings.store().read(target)
    ok = result.get("success") is True
    if settings.json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2))
    elif ok:
        print_entries(out, result)
        if "warning" in result:
            err.print(Text(f"Warning: {result['warning']}"))
    else:
        err.print(Text(f"Failed: {result.get('error')}"))
    raise typer.Exit(0 if ok else 1)


@app.command()
def add(
    ctx: typer.Context,
    args: Annotated[list[str], typer.Argument(metavar="[memory|user] TEXT", show_default=False)],
    dir: DirOption = None,
    as_json: JsonOption = False,
    memory_limit: MemoryLimitOption = None,
    user_limit: UserLimitOption = None,
) -> None:
    """Add TEXT as a new entry (to memory unless the first word is memory or user)."""
    settings = _settings(ctx, dir, as_json, memory_limit, user_limit)
    target, (text,) = _split_target(settings, args, 1, "add [memory|user] TEXT")
    result = settings.store().add(target, text)
    done = f"Added to {target}"
    if result.get("message", "").startswith("Entry already exists"):
        done = f"Already in {target}, no duplicate added"
    _finish(settings, result, target, done)


@app.command()
def replace(
    ctx: typer.Context,
    args: Annotated[list[str], typer.Argument(metavar="[memory|user] OLD NEW", show_default=False)],
    dir: DirOption = None,
    as_json: JsonOption = False,
    memory_limit: MemoryLimitOption = None,
    user_limit: UserLimitOption = None,
) -> None:
    """Replace the whole entry containing OLD with NEW."""
    settings = _settings(ctx, dir, as_json, memory_limit, user_limit)
    target, (old, new) = _split_target(settings, args, 2, "replace [memory|user] OLD NEW")
    result = settings.store().replace(target, old, new)
    was = f"was: {result.get('replacedEntry', '')}"
    _finish(settings, result, target, f"Replaced in {target}", was, f"now: {new.strip()}")


@app.command()
def remove(
    ctx: typer.Context,
    args: Annotated[list[str], typer.Argument(metavar="[memory|user] OLD", show_default=False)],
    dir: DirOption = None,
    as_json: JsonOption = False,
    memory_limit: MemoryLimitOption = None,
    user_limit: UserLimitOption = None,
) -> None:
    """Remove the entry containing OLD."""
    settings = _settings(ctx, dir, as_json, memory_limit, user_limit)
    target, (old,) = _split_target(settings, args, 1, "remove [memory|user] OLD")
    result = settings.store().remove(target, old)
    _finish(settings, result, target, f"Removed from {target}", f"was: {result.get('removedEntry', '')}")


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


from pi_memory.cli.chat import chat  # noqa: E402  (the chat command lives in its own module)

app.command("chat")(chat)

from pi_memory.cli.recall import app as recall_app  # noqa: E402  (recall commands live in their own module)

app.add_typer(recall_app, name="recall")

from pi_memory.cli.dream import dream_command  # noqa: E402  (dreaming lives in its own module)

app.command("dream")(dream_command)

from pi_memory.cli.mcp import mcp  # noqa: E402  (the MCP server command lives in its own module)

app.command("mcp")(mcp)

from pi_memory.cli.db import app as db_app  # noqa: E402  (the PostgreSQL schema commands live in their own module)

app.add_typer(db_app, name="db")
