"""Dreaming: consolidate memory from recent conversations, at most once per gate period.

``run_dream`` follows pi-memory's ``runDream`` (reference §7.1): it returns True only when a
consolidation ran and succeeded. The steps, in order, so concurrent agents cooperate:

1. disabled, or already aborted → nothing happens (no disk access at all);
2. the memory directory is locked with proper-lockfile's protocol and **no retries** — if
   another process (Python or Node) is dreaming, this one simply skips. Memory on a shared
   backend (PostgreSQL, ``DreamOptions.backend``) is locked with the database's advisory lock
   ``dreaming`` of its namespace instead, so one dream runs per memory across every machine;
3. ``dreaming-state.json`` says when the last successful run was; the time gate
   (``minHoursSinceLastRun``) and the turn gate (``minTurnsSinceLastRun`` turns finished since
   then) must both pass;
4. the consolidation agent runs with the **configured** limits (pi-memory uses the defaults
   here, which makes dreams fail or trip drift protection on larger stores);
5. only a successful run moves the state forward, so a crash, an abort or a provider error
   means the next session tries again. Memory itself is never left half-written: every change
   is one atomic store write.

:func:`dream` does the same and returns a :class:`DreamOutcome` with the reason and the
changes, for ``pi-memory dream`` and for tests.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pi_memory.host import AbortSignal, Event
from pi_memory.memory import TARGETS, LockBusy, MemoryStore, file_lock
from pi_memory.memory.backend import StorageBackend
from pi_memory.memory.files import FILE_NAMES
from pi_memory.memory.store import DEFAULT_MEMORY_CHAR_LIMIT, DEFAULT_USER_CHAR_LIMIT
from pi_memory.providers import ModelRegistry

from .agent import MemoryAgentRun, run_memory_agent
from .consolidation import (
    CONSOLIDATION_SYSTEM_PROMPT,
    MAX_CONSOLIDATION_TURNS,
    Redaction,
    build_consolidation_prompt,
)
from .readiness import (
    FAILURE_KEY,
    REPORT_KEY,
    STATE_FILE,
    DreamState,
    SharedBackend,
    dream_gates,
    load_state,
    model_problem,
    save_state,
)
from .settings import DreamingSettings
from .turns import Turn, collect_turns, iso_ms

__all__ = ["DREAM_LOCK_KEY", "DreamOptions", "DreamOutcome", "dream", "run_dream"]

#: The advisory lock a dream holds on a shared backend (PostgreSQL scopes it to the namespace).
DREAM_LOCK_KEY = "dreaming"
#: The model's closing words kept in a report (the rest of a long answer is clipped).
REPORT_TEXT_CAP = 4000


Progress = Callable[[str, Any], None]


@dataclass
class DreamOptions:
    """What one dream needs. ``include_global_sessions`` reads every project's sessions (the
    extension sets it only for the default global memory directory); ``session_dir`` adds the
    active session directory. ``ignore_gates`` and ``dry_run`` serve ``pi-memory dream``.

    ``backend`` puts the memory elsewhere (a :class:`~pi_memory.backends.postgres.PostgresBackend`):
    the dream then reads and writes it there and takes the backend's advisory lock instead of the
    directory lock, and ``memory_dir`` only holds this machine's state — in ``state_file`` when
    given (the extension names one per shared memory), else ``memory_dir/dreaming-state.json``.
    """

    memory_dir: Path
    model_registry: ModelRegistry
    session_dir: str | None = None
    include_global_sessions: bool = False
    dreaming: DreamingSettings | None = None
    signal: AbortSignal | None = None
    memory_char_limit: int = DEFAULT_MEMORY_CHAR_LIMIT
    user_char_limit: int = DEFAULT_USER_CHAR_LIMIT
    ignore_gates: bool = False
    dry_run: bool = False
    progress: Progress | None = None
    clock: Callable[[], float] = field(default=lambda: time.time() * 1000)
    backend: StorageBackend | None = None
    state_file: Path | None = None

    @property
    def state_path(self) -> Path:
        """Where this dream's gates are read from and its successful run recorded."""
        return self.state_file if self.state_file is not None else self.memory_dir / STATE_FILE


@dataclass
class DreamOutcome:
    """Why a dream did or did not run, and what it changed.

    ``reason`` is one of ``disabled``, ``aborted``, ``locked``, ``unavailable`` (a shared backend
    cannot be reached), ``too-soon``, ``too-few-turns``, ``no-model``, ``no-auth``, ``nothing-new``
    (no turns since the last dream: the model is not called), ``failed`` or ``done``; ``message``
    says it in words.
    """

    ran: bool
    reason: str
    message: str
    turns: list[Turn] = field(default_factory=list)
    redactions: list[Redaction] = field(default_factory=list)
    agent: MemoryAgentRun | None = None
    before: dict[str, list[str]] = field(default_factory=dict)
    after: dict[str, list[str]] = field(default_factory=dict)
    usage_before: dict[str, str] = field(default_factory=dict)
    usage_after: dict[str, str] = field(default_factory=dict)

    def changes(self) -> dict[str, dict[str, int]]:
        """Added / replaced / removed counts per target (successful calls only)."""
        counts = {t: {"added": 0, "replaced": 0, "removed": 0} for t in TARGETS}
        kinds = {"memory_add": "added", "memory_replace": "replaced", "memory_remove": "removed"}
        for action in self.agent.actions if self.agent else []:
            target = str(action.args.get("target"))
            if action.changes_memory and target in counts:
                counts[target][kinds[action.tool]] += 1
        return counts

    def report(self, at: str) -> dict[str, Any]:
        """What a status display shows about this dream later (kept as ``lastReport``)."""
        text = self.agent.final_text.strip() if self.agent else ""
        if len(text) > REPORT_TEXT_CAP:
            text = text[:REPORT_TEXT_CAP] + " …"
        return {
            "at": at, "reason": self.reason, "message": self.message, "turns": len(self.turns),
            "sessions": len({t.session_id for t in self.turns}), "redacted": len(self.redactions),
            "modelCalls": self.agent.turns if self.agent else 0, "changes": self.changes(),
            "usageBefore": self.usage_before, "usageAfter": self.usage_after,
            "actions": [{"tool": a.tool, "target": a.args.get("target"), "success": a.succeeded}
                        for a in (self.agent.actions if self.agent else []) if a.tool != "memory_read"],
            "finalText": text,
        }


def _aborted(options: DreamOptions) -> bool:
    return options.signal is not None and options.signal.is_set()


def _tell(options: DreamOptions, kind: str, detail: Any) -> None:
    if options.progress is not None:
        options.progress(kind, detail)


async def run_dream(options: DreamOptions) -> bool:
    """pi-memory's ``runDream``: True only when a consolidation ran and succeeded."""
    return (await dream(options)).ran


async def dream(options: DreamOptions) -> DreamOutcome:
    """One dream, with the reason it stopped (see the module docstring for the steps)."""
    settings = options.dreaming or DreamingSettings()
    if not settings.enabled:
        return DreamOutcome(False, "disabled", "Dreaming is disabled (pi-memory.dreaming.enabled is false).")
    if _aborted(options):
        return DreamOutcome(False, "aborted", "Dreaming was cancelled before it started.")
    if options.backend is not None:
        return await _shared(options, options.backend, settings)
    if options.dry_run:  # works on a scratch copy: nothing is created or locked here
        return await _gated(options, settings)
    options.memory_dir.mkdir(parents=True, exist_ok=True)
    try:
        with file_lock(options.memory_dir, timeout=0):
            return await _gated(options, settings)
    except LockBusy:
        return DreamOutcome(False, "locked", f"Another dream holds the lock on {options.memory_dir}; skipped.")


async def _shared(options: DreamOptions, backend: StorageBackend, settings: DreamingSettings) -> DreamOutcome:
    """A dream over memory on another backend: its advisory lock instead of the directory lock.

    The lock sits on a connection of its own (``dedicated``) so the store's writes keep the whole
    pool; it is taken and released off the event loop, because connecting may wait on the network.
    """
    if options.dry_run:
        return await _gated(options, settings)
    if not isinstance(backend, SharedBackend):
        raise TypeError(f"dreaming over {type(backend).__name__} needs a backend with advisory_lock()")
    from pi_memory.backends.postgres import PostgresUnavailable

    lock = backend.advisory_lock(DREAM_LOCK_KEY, dedicated=True)
    try:
        held = await asyncio.to_thread(lock.__enter__)
    except PostgresUnavailable as exc:
        return DreamOutcome(False, "unavailable", f"Dreaming skipped: {exc}")
    try:
        if not held:
            return DreamOutcome(False, "locked", f"Another dream holds the lock on {backend.describe()}; skipped.")
        return await _gated(options, settings)
    finally:
        await asyncio.to_thread(lock.__exit__, None, None, None)


async def _gated(options: DreamOptions, settings: DreamingSettings) -> DreamOutcome:
    state = load_state(options.state_path)
    now = options.clock()
    gates = dream_gates(settings, state, now)
    if not options.ignore_gates and not gates.time_open:
        return DreamOutcome(False, "too-soon", f"The last dream was {gates.hours_since:.1f} h ago; dreaming waits "
                                               f"{settings.min_hours_since_last_run:g} h between runs.")
    turns = await asyncio.to_thread(collect_turns, include_global=options.include_global_sessions,
                                    session_dir=options.session_dir, since_ms=state.last_ms)
    _tell(options, "turns", turns)
    if not options.ignore_gates and not dream_gates(settings, state, now, len(turns)).turns_open:
        return DreamOutcome(False, "too-few-turns", f"{len(turns)} new turn(s) since the last dream; dreaming waits "
                                                    f"for {settings.min_turns_since_last_run}.", turns)
    if _aborted(options):
        return DreamOutcome(False, "aborted", "Dreaming was cancelled.", turns)
    outcome = await _consolidate(options, settings, turns)
    if options.dry_run:
        return outcome
    if outcome.ran:
        extra = {k: v for k, v in state.extra.items() if k != FAILURE_KEY}
        extra[REPORT_KEY] = outcome.report(iso_ms(now))
        save_state(options.state_path, DreamState(iso_ms(now), len(turns), extra))
    elif outcome.reason == "failed":  # remembered so `pi-memory status` can say why dreaming is not happening
        failure = {"at": iso_ms(now), "message": outcome.message}
        save_state(options.state_path, replace(state, extra={**state.extra, FAILURE_KEY: failure}))
    return outcome


async def _consolidate(options: DreamOptions, settings: DreamingSettings, turns: list[Turn]) -> DreamOutcome:
    registry = options.model_registry
    ref = settings.model
    model, reason, message = model_problem(registry, ref)
    if model is None:
        return DreamOutcome(False, reason, message, turns)
    if not turns:  # even an explicit run has nothing to give the model
        return DreamOutcome(False, "nothing-new", "No new turns since the last dream; nothing to consolidate.")
    with tempfile.TemporaryDirectory(prefix="pi-memory-dream-") as scratch:
        limits = (options.memory_char_limit, options.user_char_limit)
        if options.dry_run:
            problem = await asyncio.to_thread(_copy_to_scratch, options, Path(scratch))
            if problem is not None:
                return DreamOutcome(False, "unavailable", f"Dreaming skipped: {problem}", turns)
            store = MemoryStore(Path(scratch), *limits)
        elif options.backend is not None:
            store = MemoryStore(None, *limits, backend=options.backend)
        else:
            store = MemoryStore(options.memory_dir, *limits)
        await asyncio.to_thread(store.load_from_disk)
        outcome = DreamOutcome(False, "failed", "", turns)
        outcome.before = {t: store.get_entries(t) for t in TARGETS}
        outcome.usage_before = {t: store.usage(t) for t in TARGETS}
        prompt = build_consolidation_prompt(turns, redactions=outcome.redactions)
        _tell(options, "prompt", prompt)
        try:
            outcome.agent = await run_memory_agent(
                model=model, provider=registry.get_provider(model), store=store,
                system_prompt=CONSOLIDATION_SYSTEM_PROMPT, prompt=prompt, max_turns=MAX_CONSOLIDATION_TURNS,
                signal=options.signal, listener=lambda event: _agent_event(options, event))
        except Exception as exc:  # a broken provider must not take the session down
            print(f"[pi-memory] consolidation failed: {exc}", file=sys.stderr)
            outcome.message = f"Consolidation failed: {exc}"
            return outcome
        for target in TARGETS:
            result = await asyncio.to_thread(store.read, target)
            outcome.after[target] = list(result.get("entries", store.get_entries(target)))
            outcome.usage_after[target] = store.usage(target)
    if outcome.agent.failed:
        outcome.message = f"The dreaming model {ref} failed: {outcome.agent.error}"
    elif _aborted(options):
        outcome.reason, outcome.message = "aborted", "Dreaming was cancelled during consolidation."
    else:
        outcome.ran, outcome.reason = True, "done"
        outcome.message = f"Consolidated {len(turns)} turn(s) in {outcome.agent.turns} model call(s)."
    return outcome


def _copy_to_scratch(options: DreamOptions, scratch: Path) -> str | None:
    """Seed a dry run's scratch store with the real memory; a backend read error stops it."""
    if options.backend is None:
        for name in FILE_NAMES.values():
            if (options.memory_dir / name).exists():
                shutil.copyfile(options.memory_dir / name, scratch / name)
        return None
    for target, name in FILE_NAMES.items():
        raw = options.backend.read(target)
        if raw.error is not None:
            return raw.error
        if raw.exists:
            (scratch / name).write_text(raw.text, encoding="utf-8")
    return None


def _agent_event(options: DreamOptions, event: Event) -> None:
    if event["type"] in ("turn_start", "tool_execution_start", "tool_execution_end", "message_end"):
        _tell(options, "agent", event)
