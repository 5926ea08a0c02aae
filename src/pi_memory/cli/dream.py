"""``pi-memory dream``: one consolidation pass in the foreground, showing what it does.

The background dream of the memory extension waits for its gates (24 h, 5 turns) and stays
quiet. This command is the manual version: it runs now (``--gated`` applies the gates, for
cron), shows every memory change as the model makes it, and ends with a summary of what was
added, replaced and removed, with usage before → after. ``--dry-run`` lets the model work on a
scratch copy of the store and prints the plan without touching the real files or the state.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.status import Status
from rich.text import Text

from pi_memory.backends import close_store, describe_store, store_problem
from pi_memory.cli.options import (
    API_KEY_HELP,
    BASE_URL_HELP,
    Options,
    endpoint_overrides,
    host_settings,
    load_memory_settings,
)
from pi_memory.cli.terminal import console
from pi_memory.extensions.memory import DreamOptions, DreamOutcome, dream, dream_location
from pi_memory.extensions.memory.agent import MemoryAction
from pi_memory.extensions.memory.consolidation import MAX_CONSOLIDATION_TURNS
from pi_memory.extensions.memory.settings import ModelRef, SettingsError, open_settings_store
from pi_memory.extensions.memory.turns import Turn
from pi_memory.host import Event
from pi_memory.memory import TARGETS
from pi_memory.providers import ModelRegistry
from pi_memory.session.paths import get_default_session_dir_path

__all__ = ["dream_command"]

out = console()
err = console(stderr=True)

NO_MODEL_HELP = """\
Dreaming needs a model. Any one of these works:
  • an API key for the default dreaming model (openai/gpt-4.1-mini):  export OPENAI_API_KEY=sk-...
  • another model, in ~/.pi/agent/settings.json:
      "pi-memory": {"dreaming": {"model": {"provider": "anthropic", "model": "claude-haiku-4-5"}}}
    or on the command line:  pi-memory dream --model anthropic/claude-haiku-4-5
  • an OpenAI-compatible endpoint (Ollama, vLLM, LM Studio, a proxy), in ~/.pi/agent/settings.json:
      "providers": {"local": {"api": "openai-completions", "baseUrl": "http://localhost:11434/v1",
                              "apiKey": "none", "models": [{"id": "qwen3:8b"}]}}
    then:  pi-memory dream --model local/qwen3:8b
    or, for one run, without settings:
      pi-memory dream --model local/qwen3:8b --base-url http://localhost:11434/v1"""

_EXIT = {"done": 0, "no-model": 2, "no-auth": 2, "disabled": 1, "aborted": 1, "locked": 1, "too-soon": 1,
         "too-few-turns": 1, "nothing-new": 1,
         "failed": 1}


class Progress:
    """Prints the dream as it happens: turns found, each model call, each memory change."""

    def __init__(self, console: Console, status: Status | None) -> None:
        self.console, self.status = console, status
        self.calls = 0
        self.args: dict[str, dict[str, Any]] = {}

    def __call__(self, kind: str, detail: Any) -> None:
        if kind == "turns":
            turns: list[Turn] = detail
            sessions = len({t.session_id for t in turns})
            self.console.print(Text(f"Found {len(turns)} turn(s) in {sessions} session(s)."))
            self._status("Consolidating…")
        elif kind == "agent":
            self._agent(detail)

    def _status(self, text: str) -> None:
        if self.status is not None:
            self.status.update(text)

    def _agent(self, event: Event) -> None:
        if event["type"] == "turn_start":
            self.calls += 1
            self._status(f"Model call {self.calls}/{MAX_CONSOLIDATION_TURNS}…")
        elif event["type"] == "tool_execution_start":
            self.args[str(event["toolCallId"])] = dict(event.get("args") or {})
        elif event["type"] == "tool_execution_end":
            result = event["result"].structured_content or {}
            action = MemoryAction(str(event["toolName"]), self.args.pop(str(event["toolCallId"]), {}), dict(result))
            line = describe(action)
            if line is not None:
                self.console.print(line, soft_wrap=True)


def describe(action: MemoryAction) -> Text | None:
    """One line per memory call that mattered (reads are not shown)."""
    target = str(action.args.get("target", "memory"))
    if action.tool == "memory_read":
        return None
    if not action.succeeded:
        return Text(f"  ✗ {action.tool} ({target}): {action.result.get('error', 'failed')}", style="yellow")
    if action.duplicate:
        return Text(f"  = {target}: already present: {action.args.get('content', '')}", style="dim")
    if action.tool == "memory_add":
        return Text(f"  + {target}: {action.args.get('content', '')}", style="green")
    if action.tool == "memory_replace":
        old = action.result.get("replacedEntry", action.args.get("oldText", ""))
        return Text(f"  ~ {target}: {old} → {action.args.get('newContent', '')}", style="cyan")
    if action.tool == "memory_remove":
        return Text(f"  - {target}: {action.result.get('removedEntry', action.args.get('oldText', ''))}", style="red")
    return None


def changes(outcome: DreamOutcome) -> dict[str, dict[str, int]]:
    """Added / replaced / removed counts per target (successful calls only)."""
    return outcome.changes()


def _summary(outcome: DreamOutcome, dry_run: bool) -> list[Text]:
    """One line per target: what changed and the usage before → after."""
    counts = changes(outcome)
    lines = [Text("Plan (nothing was written):" if dry_run else "Changes:", style="bold")]
    for target in TARGETS:
        c = counts[target]
        usage = f"{outcome.usage_before.get(target, '?')} → {outcome.usage_after.get(target, '?')}"
        name = "MEMORY.md" if target == "memory" else "USER.md"
        lines.append(Text(f"  {name}: {c['added']} added, {c['replaced']} replaced, {c['removed']} removed; "
                          f"usage {usage}"))
    return lines


def _to_json(outcome: DreamOutcome, dry_run: bool) -> dict[str, Any]:
    return {
        "ran": outcome.ran, "reason": outcome.reason, "message": outcome.message, "dryRun": dry_run,
        "turns": len(outcome.turns), "redacted": len(outcome.redactions),
        "changes": changes(outcome), "before": outcome.before, "after": outcome.after,
        "usageBefore": outcome.usage_before, "usageAfter": outcome.usage_after,
        "actions": [{"tool": a.tool, "args": a.args, "success": a.succeeded}
                    for a in (outcome.agent.actions if outcome.agent else [])],
    }


def dream_command(
    ctx: typer.Context,
    dir: Annotated[Path | None, typer.Option("--dir", file_okay=False, show_default=False,
                                             help="Memory directory (default: settings' dataDir).")] = None,
    model: Annotated[str | None, typer.Option("--model", show_default=False,
                                              help="provider/model-id (default: pi-memory.dreaming.model).")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Work on a scratch copy and show the plan.")] = False,
    gated: Annotated[bool, typer.Option("--gated", help="Apply the time and turn gates, as in the background.")
                     ] = False,
    session_dir: Annotated[Path | None, typer.Option("--session-dir", file_okay=False, show_default=False,
                                                     help="Read sessions from this directory too.")] = None,
    all_sessions: Annotated[bool | None, typer.Option(
        "--all-sessions/--this-folder", show_default=False,
        help="Every project's sessions, or only this folder's (default: all for the global memory dir).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
    base_url: Annotated[str | None, typer.Option("--base-url", help=BASE_URL_HELP, show_default=False)] = None,
    api_key: Annotated[str | None, typer.Option("--api-key", help=API_KEY_HELP, show_default=False)] = None,
) -> None:
    """Consolidate memory from recent conversations now (one dreaming pass)."""
    parent = ctx.obj if isinstance(ctx.obj, Options) else Options()
    as_json = as_json or parent.json
    cwd = str(Path.cwd())
    try:
        settings, warnings = load_memory_settings(replace(parent, dir=dir) if dir is not None else parent)
        dreaming = settings.dreaming
        if not gated:  # "enabled" switches the background dream off; an explicit run still runs
            dreaming = replace(dreaming, enabled=True)
        if model is not None:
            provider, slash, model_id = model.partition("/")
            if not slash or not provider or not model_id:
                raise SettingsError(f"--model must be provider/model-id (e.g. openai/gpt-4.1-mini), got {model!r}")
            dreaming = replace(dreaming, model=ModelRef(provider, model_id))
    except SettingsError as exc:
        err.print(Text(f"Error: {exc}"))
        raise typer.Exit(2) from None
    for warning in warnings:
        err.print(Text(warning, style="yellow"), soft_wrap=True)
    store = open_settings_store(settings)
    try:
        problem = store_problem(store)
        if problem is not None:
            err.print(Text(f"Error: {problem}"), soft_wrap=True)
            raise typer.Exit(1)
        location = dream_location(settings, store) or {"memory_dir": settings.data_dir}
        include_global = all_sessions if all_sessions is not None else settings.uses_default_dir
        registry = ModelRegistry(host_settings(Path(cwd))[0].merged)
        configure = endpoint_overrides(str(dreaming.model), base_url, api_key)
        if configure is not None:
            configure(registry)
        options = DreamOptions(
            **location, model_registry=registry,
            session_dir=str(session_dir) if session_dir else get_default_session_dir_path(cwd),
            include_global_sessions=include_global, dreaming=dreaming, memory_char_limit=settings.memory_char_limit,
            user_char_limit=settings.user_char_limit, ignore_gates=not gated, dry_run=dry_run)
        outcome = _run(options, as_json, describe_store(store))
    finally:
        close_store(store)
    if as_json:
        typer.echo(json.dumps(_to_json(outcome, dry_run), ensure_ascii=False, indent=2))
    else:
        _report(outcome, dry_run)
    raise typer.Exit(_EXIT.get(outcome.reason, 1))


def _run(options: DreamOptions, quiet: bool, location: str) -> DreamOutcome:
    if quiet:
        return asyncio.run(dream(options))
    where = "a scratch copy of " if options.dry_run else ""
    model = options.dreaming.model if options.dreaming else ""
    out.print(Text(f"Dreaming over {where}{location} with {model}"), soft_wrap=True)
    with out.status("Reading sessions…") as status:
        options.progress = Progress(out, status)
        return asyncio.run(dream(options))


def _report(outcome: DreamOutcome, dry_run: bool) -> None:
    if outcome.redactions:
        out.print(Text(f"{len(outcome.redactions)} message(s) matched the threat scanner and were withheld "
                       "from the model.", style="yellow"), soft_wrap=True)
    if outcome.reason in ("no-model", "no-auth"):
        err.print(Text(outcome.message), soft_wrap=True)
        err.print(Text(NO_MODEL_HELP), soft_wrap=True)
        return
    if outcome.agent is not None:
        for line in _summary(outcome, dry_run):
            out.print(line, soft_wrap=True)
        if outcome.agent.final_text.strip():
            out.print(Text(outcome.agent.final_text.strip(), style="dim"), soft_wrap=True)
    if outcome.ran:
        suffix = " (dry run: MEMORY.md, USER.md and the dreaming state are unchanged)" if dry_run else ""
        out.print(Text(f"{outcome.message}{suffix}", style="bold"), soft_wrap=True)
    else:
        err.print(Text(outcome.message or f"Dream did not run ({outcome.reason}).", style="yellow"), soft_wrap=True)
