"""``pi-memory chat``: talk to a model through the extension host, in pi's session files.

``-p "prompt"`` (print mode) runs one prompt, prints the answer and exits non-zero when the
provider failed — for scripts and tests. Without ``-p`` it is an interactive chat: streaming
output, tool calls shown as they run, slash commands (``/help``), and extension commands with
tab completion (readline, when the platform has it).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from pi_memory.base import content_text
from pi_memory.cli import terminal
from pi_memory.cli.console_ui import STYLES, ConsoleUI, Renderer, clip
from pi_memory.cli.options import API_KEY_HELP, BASE_URL_HELP, endpoint_overrides
from pi_memory.host import (
    CompactionError,
    HeadlessUI,
    NoModelError,
    SessionRuntime,
    SwitchResult,
)
from pi_memory.host.context import UI
from pi_memory.providers import ModelNotFoundError
from pi_memory.session import SessionError, SessionManager

__all__ = ["chat"]

BUILTINS = {
    "new": "Start a new session",
    "resume": "Open an earlier session of this folder",
    "fork": "New session from an earlier user message of this branch",
    "tree": "Move to another entry of this session",
    "compact": "Summarise older messages now (optional instructions)",
    "name": "Name this session",
    "model": "Show models, or switch: /model provider/id",
    "reload": "Reload settings and extensions",
    "help": "List commands",
    "quit": "Exit",
}


# ----------------------------------------------------------------------------- setup


def _session_manager(cwd: str, session: Path | None, continue_: bool, fork: Path | None) -> SessionManager:
    if fork is not None:
        return SessionManager.fork_from(str(fork), cwd)
    if session is not None:
        return SessionManager.open(str(session))
    if continue_:
        return SessionManager.continue_recent(cwd)
    return SessionManager.create(cwd)


async def _start(ui: UI, session: Path | None, continue_: bool, fork: Path | None, extensions: Sequence[str],
                 model: str | None, trust: bool | None, max_turns: int, no_extensions: bool = False,
                 base_url: str | None = None, api_key: str | None = None) -> SessionRuntime:
    cwd = str(Path.cwd())
    found = not no_extensions
    return await SessionRuntime.create(cwd=cwd, session_manager=_session_manager(cwd, session, continue_, fork),
                                       extensions=extensions, model=model, ui=ui, trust=trust, max_turns=max_turns,
                                       use_entry_points=found, discover=found, settings_extensions=found,
                                       configure_registry=endpoint_overrides(model, base_url, api_key))


def _auth_problem(runtime: SessionRuntime) -> str | None:
    """What must be configured before the chosen model can answer (a missing API key), if anything."""
    return runtime.model_registry.auth_problem(runtime.model) if runtime.model is not None else None


async def _print_mode(prompt: str, err: Console, **options: Any) -> int:
    ui = HeadlessUI(on_notify=lambda text, level: err.print(f"[{STYLES[level]}]{escape(text)}[/]")
                    if level != "info" else None)
    runtime = await _start(ui, **options)
    try:
        result = await runtime.prompt(prompt)
        await runtime.wait_for_idle()
    finally:
        await runtime.shutdown()
    if result is None:
        return 0  # a command or an input handler took it
    last = result.last_assistant or {}
    text = content_text(last.get("content"))
    if text:
        sys.stdout.write(text + ("" if text.endswith("\n") else "\n"))
        sys.stdout.flush()
    if last.get("stopReason") in ("error", "aborted"):
        err.print(f"[red]Error: {escape(str(last.get('errorMessage') or last.get('stopReason')))}[/]")
        # No key for the model is a configuration problem (exit 2), not a failed call (exit 1).
        return 2 if last.get("stopReason") == "error" and _auth_problem(runtime) is not None else 1
    if result.stop == "turn_limit":
        err.print(f"[yellow]Stopped after {runtime.max_turns} model calls (--max-turns).[/]")
        return 1
    return 0


# ----------------------------------------------------------------------------- interactive


class Chat:
    """The interactive loop and its slash commands."""

    def __init__(self, runtime: SessionRuntime, console: Console, err: Console) -> None:
        self.rt, self.console, self.err = runtime, console, err
        self.prefill: str | None = None
        self._readline: Any = None
        with contextlib.suppress(ImportError):
            import readline

            self._readline = readline
            readline.set_completer(self._complete)
            readline.set_completer_delims(" \t\n")
            readline.parse_and_bind("tab: complete")
            readline.set_pre_input_hook(self._insert_prefill)

    # --- input -------------------------------------------------------------------------------

    def _insert_prefill(self) -> None:
        if self.prefill and self._readline is not None:
            self._readline.insert_text(self.prefill)
            self._readline.redisplay()
        self.prefill = None

    def completions(self, line: str) -> list[str]:
        """Completions for a partial input line (slash commands and extension arguments)."""
        if not line.startswith("/"):
            return []
        name, space, rest = line[1:].partition(" ")
        if not space:
            names = sorted({*BUILTINS, *self.rt.runner.commands})
            return [f"/{n}" for n in names if n.startswith(name)]
        command = self.rt.runner.commands.get(name)
        if command is None or command.get_argument_completions is None:
            return []
        try:
            found = command.get_argument_completions(rest) or []
        except Exception:
            return []
        return [f"/{name} {c}" for c in found]

    def _complete(self, text: str, state: int) -> str | None:
        line = self._readline.get_line_buffer() if self._readline is not None else text
        options = self.completions(line)
        return options[state] if state < len(options) else None

    async def ask(self, prompt: str) -> str | None:
        try:
            return await asyncio.to_thread(input, prompt)
        except EOFError:
            return None

    # --- loop --------------------------------------------------------------------------------

    async def run(self) -> int:
        model = self.rt.model.ref if self.rt.model else "no model (use /model provider/id)"
        where = self.rt.session_manager.get_session_file()
        self.console.print(f"[bold]pi-memory chat[/] · {escape(model)}")
        if where:  # on its own line, whole, so it can be copied
            self.console.print(f"[dim]Session: {escape(str(where))}[/]", soft_wrap=True)
        self.console.print("[dim]/help for commands, /quit or Ctrl+D to exit, Ctrl+C stops a reply[/]")
        if (problem := _auth_problem(self.rt)) is not None:
            self.err.print(f"[yellow]{escape(problem)}[/]")
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, self._interrupt)
        try:
            while True:
                line = await self.ask("› ")
                if line is None:
                    break
                line = line.strip()
                if not line:
                    continue
                if not await self.handle(line):
                    break
        finally:
            await self.rt.shutdown()
        return 0

    def _interrupt(self) -> None:
        if self.rt.is_idle():
            self.console.print("\n[dim](/quit or Ctrl+D to exit)[/]")
        else:
            self.rt.abort()

    async def handle(self, line: str) -> bool:
        """One input line; False to quit."""
        if line.startswith("/"):
            name, _, args = line[1:].partition(" ")
            args = args.strip()
            if name in ("quit", "exit"):
                return False
            builtin: Callable[[str], Any] | None = getattr(self, f"cmd_{name}", None) if name in BUILTINS else None
            if builtin is not None:
                try:
                    await builtin(args)
                except (CompactionError, ValueError, SessionError, ModelNotFoundError) as exc:
                    self.err.print(f"[red]{escape(str(exc))}[/]")
                return True
        try:
            await self.rt.prompt(line)
        except NoModelError as exc:
            self.err.print(f"[red]{escape(str(exc))}[/]")
        return True

    def _switched(self, result: SwitchResult, what: str) -> None:
        if result.cancelled:
            self.console.print(f"[yellow]{what} cancelled by an extension[/]")
            return
        self.console.print(f"[dim]{what}: {escape(str(self.rt.session_manager.get_session_file()))}[/]")
        if result.editor_text:
            self.prefill = result.editor_text
            if self._readline is None:
                self.console.print(f"[dim]Your message was: {escape(result.editor_text)}[/]")

    # --- built-in commands -------------------------------------------------------------------

    async def cmd_help(self, args: str) -> None:
        for name, text in BUILTINS.items():
            self.console.print(f"  /{name:<8} {escape(text)}")
        for name, command in self.rt.runner.commands.items():
            self.console.print(f"  /{name:<8} {escape(command.description or '')} [dim]({escape(command.source)})[/]")

    async def cmd_new(self, args: str) -> None:
        self._switched(await self.rt.new_session(), "New session")

    async def cmd_resume(self, args: str) -> None:
        sm = self.rt.session_manager
        sessions = [s for s in SessionManager.list(sm.get_cwd(), sm.get_session_dir())
                    if s.path != sm.get_session_file()][:20]
        if not sessions:
            self.console.print("[dim]No other sessions in this folder.[/]")
            return
        for n, info in enumerate(sessions, 1):
            label = info.name or clip(info.first_message.replace("\n", " "), 60) or "(empty)"
            self.console.print(f"  {n:>2}. {info.modified:%Y-%m-%d %H:%M}  {escape(label)} "
                               f"[dim]({info.message_count} messages)[/]")
        choice = (await self.ask("resume which? ") or "").strip()
        if choice.isdigit() and 0 < int(choice) <= len(sessions):
            self._switched(await self.rt.resume(sessions[int(choice) - 1].path), "Resumed")

    async def cmd_fork(self, args: str) -> None:
        users = [e for e in self.rt.session_manager.get_branch()
                 if e.get("type") == "message" and e["message"].get("role") == "user"]
        if not users:
            self.console.print("[dim]Nothing to fork from yet.[/]")
            return
        for n, entry in enumerate(users, 1):
            self.console.print(f"  {n:>2}. {escape(clip(content_text(entry['message'].get('content')), 70))}")
        choice = args or (await self.ask("fork before which message? ") or "").strip()
        if choice.isdigit() and 0 < int(choice) <= len(users):
            self._switched(await self.rt.fork(str(users[int(choice) - 1]["id"])), "Forked")

    async def cmd_tree(self, args: str) -> None:
        sm = self.rt.session_manager
        leaf = sm.get_leaf_id()

        def show(nodes: Sequence[Any], depth: int) -> None:
            for node in nodes:
                entry = node.entry
                message = entry.get("message") if entry.get("type") == "message" else None
                what = (f"{message.get('role')}: {content_text(message.get('content'))}" if message
                        else str(entry.get("type")))
                mark = " ←" if entry.get("id") == leaf else ""
                label = f" [{node.label}]" if node.label else ""
                self.console.print(f"{'  ' * depth}{entry.get('id')} {escape(clip(what.replace(chr(10), ' '), 70))}"
                                   f"{escape(label)}{mark}")
                show(node.children, depth + 1)

        show(sm.get_tree(), 0)
        target = args or (await self.ask("go to entry id (empty: stay)? ") or "").strip()
        if target:
            self._switched(await self.rt.navigate_tree(target), "Moved")

    async def cmd_compact(self, args: str) -> None:
        entry = await self.rt.compact(args or None)
        if entry is not None:
            self.console.print(f"[dim]Compacted ({entry.get('tokensBefore')} tokens before).[/]")

    async def cmd_name(self, args: str) -> None:
        if not args:
            self.console.print(f"Session name: {escape(self.rt.session_manager.get_session_name() or '(none)')}")
            return
        await self.rt.set_session_name(args)
        self.console.print(f"[dim]Named: {escape(args)}[/]")

    async def cmd_model(self, args: str) -> None:
        registry = self.rt.model_registry
        if not args:
            current = self.rt.model.ref if self.rt.model else None
            for model in registry.models():
                mark = "*" if model.ref == current else " "
                self.console.print(f" {mark} {escape(model.ref)}")
            return
        model = registry.resolve(args)
        if await self.rt.set_model(model):
            self.console.print(f"[dim]Model: {escape(model.ref)}[/]")
        else:
            self.err.print(f"[red]{escape(registry.auth_problem(model) or 'Cannot use ' + model.ref)}[/]")

    async def cmd_reload(self, args: str) -> None:
        await self.rt.reload()
        self.console.print("[dim]Reloaded.[/]")


# ----------------------------------------------------------------------------- the command


def chat(
    print_prompt: Annotated[str | None, typer.Option("-p", "--print", help="Run one prompt, print the answer, exit.",
                                                     show_default=False)] = None,
    session: Annotated[Path | None, typer.Option("--session", help="Open (or create) this session file.",
                                                 dir_okay=False, show_default=False)] = None,
    continue_: Annotated[bool, typer.Option("--continue", "-c", help="Continue the most recent session here.")
                         ] = False,
    fork: Annotated[Path | None, typer.Option("--fork", help="Start from a copy of this session file.",
                                              dir_okay=False, show_default=False)] = None,
    extension: Annotated[list[str] | None, typer.Option(
        "-e", "--extension", help="Load an extension: module:function, module, path.py, or entry:NAME for an "
        "installed one (repeatable).", show_default=False)] = None,
    no_extensions: Annotated[bool, typer.Option(
        "--no-extensions", "-ne", help="Load only the -e extensions: no installed (memory, recall, decay), "
        "settings-listed or auto-discovered ones.")] = False,
    model: Annotated[str | None, typer.Option("--model", help="provider/model-id, e.g. openai/gpt-4.1.",
                                              show_default=False)] = None,
    trust: Annotated[bool | None, typer.Option("--trust/--no-trust", help="Trust this folder's .pi/ (or not).",
                                               show_default=False)] = None,
    max_turns: Annotated[int, typer.Option("--max-turns", min=1, help="Model calls allowed per prompt.")] = 50,
    base_url: Annotated[str | None, typer.Option("--base-url", help=BASE_URL_HELP, show_default=False)] = None,
    api_key: Annotated[str | None, typer.Option("--api-key", help=API_KEY_HELP, show_default=False)] = None,
) -> None:
    """Chat with a model through the extension host; sessions are pi's (they show in pi's /resume)."""
    console = terminal.console()
    err = terminal.console(stderr=True)
    if sum((session is not None, fork is not None, continue_)) > 1:
        err.print("Error: use only one of --session, --continue and --fork.")
        raise typer.Exit(2)
    options: dict[str, Any] = {"session": session, "continue_": continue_, "fork": fork,
                               "extensions": list(extension or []), "model": model, "trust": trust,
                               "max_turns": max_turns, "no_extensions": no_extensions, "base_url": base_url,
                               "api_key": api_key}
    try:
        if print_prompt is not None:
            code = asyncio.run(_print_mode(print_prompt, err, **options))
        else:
            code = asyncio.run(_interactive(console, err, options))
    except (NoModelError, ModelNotFoundError, SessionError) as exc:
        err.print(f"Error: {escape(str(exc))}")
        code = 2
    raise typer.Exit(code)


async def _interactive(console: Console, err: Console, options: dict[str, Any]) -> int:
    runtime = await _start(ConsoleUI(console), **options)
    runtime.subscribe(Renderer(console, err, stream=True))
    return await Chat(runtime, console, err).run()
