"""Whether background dreaming can run, answered without running it: where a store's dream would
lock and keep its state, the state file itself (``dreaming-state.json``), and the settings and
model check behind ``pi-memory status`` and the session banner.

Nothing here calls a model or the network, and nothing imports the agent host, asyncio or a
provider implementation — ``status`` pays only for reading settings and one small JSON file.
:mod:`pi_memory.extensions.memory.dream` runs the dream on top of it.
"""

from __future__ import annotations

import contextlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pi_memory.base.fs import atomic_write_text
from pi_memory.base.js import date_parse_ms, ms_to_datetime
from pi_memory.providers import is_connection_error

if TYPE_CHECKING:
    from pi_memory.memory import MemoryStore
    from pi_memory.providers import Model, ModelRegistry

    from .settings import DreamingSettings, MemorySettings, ModelRef

__all__ = ["FAILURE_KEY", "REPORT_KEY", "STATE_FILE", "DreamGates", "DreamState", "DreamingReport", "SharedBackend",
           "dream_gates", "dream_location", "dreaming_report", "load_state", "model_problem", "read_state",
           "save_state", "write_state"]

STATE_FILE = "dreaming-state.json"


@runtime_checkable
class SharedBackend(Protocol):
    """A backend other machines use too, with a lock that spans them (PostgreSQL's advisory lock)."""

    def advisory_lock(self, key: str, *, dedicated: bool = False) -> contextlib.AbstractContextManager[bool]: ...

    def describe(self) -> str: ...


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


_HOUR_MS = 3_600_000


def _iso(ms: float) -> str:
    return ms_to_datetime(ms).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class DreamGates:
    """The two gates a background dream must pass, as they stand at ``now_ms``.

    ``turns`` is None when the new turns were not counted (counting reads session files, so the
    time gate is checked first, as a dream does). :func:`dream_gates` computes it; the dream
    itself and the UI ask the same function.
    """

    last_run: str | None
    hours_since: float | None
    min_hours: float
    next_time_ms: float | None
    """When the time gate opens (Unix ms); None when it is open already (or never dreamed)."""
    turns: int | None
    min_turns: int

    @property
    def time_open(self) -> bool:
        return self.hours_since is None or self.hours_since >= self.min_hours

    @property
    def turns_open(self) -> bool | None:
        return None if self.turns is None else self.turns >= self.min_turns

    @property
    def open(self) -> bool:
        return self.time_open and self.turns_open is True

    def to_json(self) -> dict[str, Any]:
        return {
            "lastRun": self.last_run,
            "hoursSince": None if self.hours_since is None else round(self.hours_since, 2),
            "minHours": self.min_hours,
            "timeOpen": self.time_open,
            "nextTimeAt": None if self.next_time_ms is None else _iso(self.next_time_ms),
            "turns": self.turns,
            "minTurns": self.min_turns,
            "turnsOpen": self.turns_open,
            "open": self.open,
        }


def dream_gates(dreaming: DreamingSettings, state: DreamState, now_ms: float, turns: int | None = None) -> DreamGates:
    """The time gate (``minHoursSinceLastRun`` since the last successful dream) and, when
    ``turns`` is given, the turn gate (``minTurnsSinceLastRun`` new turns)."""
    last = state.last_ms
    hours = None if last is None else (now_ms - last) / _HOUR_MS
    opens = None if last is None or hours is None or hours >= dreaming.min_hours_since_last_run \
        else last + dreaming.min_hours_since_last_run * _HOUR_MS
    return DreamGates(state.last_consolidated_at, hours, dreaming.min_hours_since_last_run, opens, turns,
                      dreaming.min_turns_since_last_run)


def read_state(memory_dir: Path) -> DreamState:
    """The saved state; a missing or malformed file means "never dreamed"."""
    return load_state(memory_dir / STATE_FILE)


def load_state(path: Path) -> DreamState:
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
    save_state(memory_dir / STATE_FILE, state)


def save_state(path: Path, state: DreamState) -> None:
    data = {**state.extra, "lastConsolidatedAt": state.last_consolidated_at,
            "lastSessionCount": state.last_session_count}
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


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


def model_problem(registry: ModelRegistry, ref: ModelRef) -> tuple[Model | None, str, str]:
    """The dreaming model, or None with the reason (``no-model``, ``no-auth``) and its words."""
    model = registry.find(ref.provider, ref.model)
    if model is None:
        return None, "no-model", (f"Unknown provider {ref.provider!r} for the dreaming model {ref}. Set "
                                  "pi-memory.dreaming.model in settings.json, or add the provider under providers.")
    problem = registry.auth_problem(model)
    if problem is not None:
        return None, "no-auth", f"The dreaming model {ref} cannot be used: {problem}"
    return model, "", ""


#: The state file's record of the last failed attempt (ours: pi-memory ignores, and on its next
#: success drops, keys it does not know).
FAILURE_KEY = "lastFailure"
#: The state file's record of the last successful dream's report (ours, like ``lastFailure``):
#: what it changed and what the model said, so a status page can show it in another process.
REPORT_KEY = "lastReport"
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
    model, reason, message = model_problem(registry, dreaming.model)
    if model is None:
        fix = ("set its API key or another model in pi-memory.dreaming.model" if reason == "no-auth"
               else "set pi-memory.dreaming.model")
        return DreamingReport(ref, reason, f"{message} Fix: {fix}, {_SILENCE}.")
    failure = load_state(state_path).extra.get(FAILURE_KEY) if state_path is not None else None
    if isinstance(failure, dict) and isinstance(failure.get("message"), str):
        text = failure["message"]
        kind = "unreachable" if is_connection_error(text) else "failed"
        fix = (f"start the server at {model.base_url}, or point the model elsewhere (providers.{model.provider}"
               ".baseUrl, --base-url)") if kind == "unreachable" else "check the model's settings"
        return DreamingReport(ref, kind, f"the last dream (at {failure.get('at')}) failed: {text} Fix: {fix}, or "
                                         f"choose another model in pi-memory.dreaming.model, {_SILENCE}.")
    return DreamingReport(ref)
