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
import contextlib
import json
import math
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pi_memory.base.fs import atomic_write_text
from pi_memory.base.js import date_parse_ms
from pi_memory.host import AbortSignal, Event
from pi_memory.memory import TARGETS, LockBusy, MemoryStore, file_lock
from pi_memory.memory.backend import StorageBackend
from pi_memory.memory.files import FILE_NAMES
from pi_memory.memory.store import DEFAULT_MEMORY_CHAR_LIMIT, DEFAULT_USER_CHAR_LIMIT
from pi_memory.providers import Model, ModelRegistry, is_connection_error

from .agent import MemoryAgentRun, run_memory_agent
from .consolidation import (
    CONSOLIDATION_SYSTEM_PROMPT,
    MAX_CONSOLIDATION_TURNS,
    Redaction,
    build_consolidation_prompt,
)
from .settings import DreamingSettings, MemorySettings, ModelRef
from .turns import Turn, collect_turns, iso_ms

__all__ = ["DREAM_LOCK_KEY", "STATE_FILE", "DreamOptions", "DreamOutcome", "DreamState", "DreamingReport", "dream",
           "dream_location", "dreaming_report", "read_state", "run_dream", "write_state"]

STATE_FILE = "dreaming-state.json"
#: The advisory lock a dream holds on a shared backend (PostgreSQL scopes it to the namespace).
DREAM_LOCK_KEY = "dreaming"
_HOUR_MS = 3_600_000


@runtime_checkable
class SharedBackend(Protocol):
    """A backend other machines use too, with a lock that spans them (PostgreSQL's advisory lock)."""

    def advisory_lock(self, key: str, *, dedicated: bool = False) -> contextlib.AbstractContextManager[bool]: ...

    def describe(self) -> str: ...

Progress = Callable[[str, Any], None]


@dataclass(frozen=True)
class DreamState:
    """``dreaming-state.json``. ``last_session_count`` is, as in pi-memory, a count of *turns*."""

    last_consolidated_at: str | None = None
    last_session_count: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def last_ms(self) -> float | None:
        if self.last_consolidated_at is None:
            return None
        ms = date_parse_ms(self.last_consolidated_at)
        return None if math.isnan(ms) else ms


def read_state(memory_dir: Path) -> DreamState:
    """The saved state; a missing or malformed file means "never dreamed"."""
    return _load_state(memory_dir / STATE_FILE)


def _load_state(path: Path) -> DreamState:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return DreamState()
    if not isinstance(data, dict):
        return DreamState()
    last = data.get("lastConsolidatedAt")
    count = data.get("lastSessionCount")
    extra = {k: v for k, v in data.items() if k not in ("lastConsolidatedAt", "lastSessionCount")}
    return DreamState(last if isinstance(last, str) else None,
                      count if isinstance(count, int) and not isinstance(count, bool) else 0, extra)


def write_state(memory_dir: Path, state: DreamState) -> None:
    """Write the state atomically (2-space JSON), keeping keys other tools may have added."""
    _save_state(memory_dir / STATE_FILE, state)


def _save_state(path: Path, state: DreamState) -> None:
    data = {**state.extra, "lastConsolidatedAt": state.last_consolidated_at,
            "lastSessionCount": state.last_session_count}
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


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


def dream_location(settings: MemorySettings, store: MemoryStore) -> dict[str, Any] | None:
    """The :class:`DreamOptions` keys that say where ``store``'s memory and this machine's state are.

    Files: ``memory_dir`` (the directory lock, ``dreaming-state.json`` beside the files). A shared
    PostgreSQL store: its ``backend`` (advisory lock, writes) and a ``state_file`` of this machine
    (:meth:`MemorySettings.dream_state_file`). ``None`` for an injected store on a backend that
    cannot be locked across processes — that one is not dreamed over.
    """
    memory_id = getattr(store.backend, "memory_id", None)
    if store.dir is not None:
        return {"memory_dir": store.dir}
    if settings.shared and isinstance(memory_id, str) and isinstance(store.backend, SharedBackend):
        state_file = settings.dream_state_file(memory_id)
        return {"memory_dir": state_file.parent, "state_file": state_file, "backend": store.backend}
    return None


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
    state = _load_state(options.state_path)
    now = options.clock()
    last = state.last_ms
    if not options.ignore_gates and last is not None and now - last < settings.min_hours_since_last_run * _HOUR_MS:
        hours = (now - last) / _HOUR_MS
        return DreamOutcome(False, "too-soon", f"The last dream was {hours:.1f} h ago; dreaming waits "
                                               f"{settings.min_hours_since_last_run:g} h between runs.")
    turns = await asyncio.to_thread(collect_turns, include_global=options.include_global_sessions,
                                    session_dir=options.session_dir, since_ms=last)
    _tell(options, "turns", turns)
    if not options.ignore_gates and len(turns) < settings.min_turns_since_last_run:
        return DreamOutcome(False, "too-few-turns", f"{len(turns)} new turn(s) since the last dream; dreaming waits "
                                                    f"for {settings.min_turns_since_last_run}.", turns)
    if _aborted(options):
        return DreamOutcome(False, "aborted", "Dreaming was cancelled.", turns)
    outcome = await _consolidate(options, settings, turns)
    if options.dry_run:
        return outcome
    if outcome.ran:
        extra = {k: v for k, v in state.extra.items() if k != _FAILURE_KEY}
        _save_state(options.state_path, DreamState(iso_ms(now), len(turns), extra))
    elif outcome.reason == "failed":  # remembered so `pi-memory status` can say why dreaming is not happening
        failure = {"at": iso_ms(now), "message": outcome.message}
        _save_state(options.state_path, replace(state, extra={**state.extra, _FAILURE_KEY: failure}))
    return outcome


def _model_problem(registry: ModelRegistry, ref: ModelRef) -> tuple[Model | None, str, str]:
    """The dreaming model, or None with the reason (``no-model``, ``no-auth``) and its words."""
    model = registry.find(ref.provider, ref.model)
    if model is None:
        return None, "no-model", (f"Unknown provider {ref.provider!r} for the dreaming model {ref}. Set "
                                  "pi-memory.dreaming.model in settings.json, or add the provider under providers.")
    problem = registry.auth_problem(model)
    if problem is not None:
        return None, "no-auth", f"The dreaming model {ref} cannot be used: {problem}"
    return model, "", ""


async def _consolidate(options: DreamOptions, settings: DreamingSettings, turns: list[Turn]) -> DreamOutcome:
    registry = options.model_registry
    ref = settings.model
    model, reason, message = _model_problem(registry, ref)
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


_FAILURE_KEY = "lastFailure"  # ours; pi-memory ignores (and on its next success drops) unknown keys
_SILENCE = 'or switch background dreaming off: "pi-memory": {"dreaming": {"enabled": false}}'


@dataclass(frozen=True)
class DreamingReport:
    """Whether background dreaming can happen, and if not, why and which setting fixes it.

    ``reason``: None when it can run; ``disabled``, ``no-model``, ``no-auth``, or ``unreachable`` /
    ``failed`` when the last attempt's model call failed (read from the dreaming state).
    """

    model: str
    reason: str | None = None
    message: str = ""

    @property
    def on(self) -> bool:
        return self.reason is None

    def line(self) -> str:
        """One line for a status display or a banner."""
        return f"Dreaming: on ({self.model})" if self.on else f"Dreaming is off: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {"on": self.on, "model": self.model, "reason": self.reason, "message": self.message or None}


def dreaming_report(dreaming: DreamingSettings, registry: ModelRegistry,
                    state_path: Path | None = None) -> DreamingReport:
    """Can the background dream run? Checks the settings and the model (no network), then the
    last attempt recorded in ``state_path``: a dream whose model could not be reached says so."""
    ref = str(dreaming.model)
    if not dreaming.enabled:
        return DreamingReport(ref, "disabled", "pi-memory.dreaming.enabled is false in settings.json.")
    model, reason, message = _model_problem(registry, dreaming.model)
    if model is None:
        fix = ("set its API key or another model in pi-memory.dreaming.model" if reason == "no-auth"
               else "set pi-memory.dreaming.model")
        return DreamingReport(ref, reason, f"{message} Fix: {fix}, {_SILENCE}.")
    failure = _load_state(state_path).extra.get(_FAILURE_KEY) if state_path is not None else None
    if isinstance(failure, dict) and isinstance(failure.get("message"), str):
        text = failure["message"]
        kind = "unreachable" if is_connection_error(text) else "failed"
        fix = (f"start the server at {model.base_url}, or point the model elsewhere (providers.{model.provider}"
               ".baseUrl, --base-url)") if kind == "unreachable" else "check the model's settings"
        return DreamingReport(ref, kind, f"the last dream (at {failure.get('at')}) failed: {text} Fix: {fix}, or "
                                         f"choose another model in pi-memory.dreaming.model, {_SILENCE}.")
    return DreamingReport(ref)


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
