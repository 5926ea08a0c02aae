"""The Dreaming page's data: the last run, what gates the next, the last report, and "dream now".

The answers come from the modules the dream itself uses: the state file and its gates
(:func:`~pi_memory.extensions.memory.readiness.dream_gates`), the settings and model check behind
``pi-memory status`` (:func:`~pi_memory.extensions.memory.readiness.dreaming_report`), and the
report a successful dream records in the state (``lastReport``), so a dream run by an agent in
another process shows up here too.

"Dream now" is ``pi-memory dream``: one pass over the same store, ignoring the gates, in a
background thread; its progress (turns found, each model call, each memory change) is kept as a
list of events the page polls. It is refused, with the model's problem in words, when no usable
dreaming model is configured, and while another dream from this page is running (a dream in
another process is told apart by the dream's own lock: the run ends as ``locked``).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import BaseRoute

    from pi_memory.extensions.memory import DreamOptions, DreamOutcome, MemorySettings
    from pi_memory.memory import MemoryStore
    from pi_memory.providers import ModelRegistry

__all__ = ["DreamJobs", "DreamRefused", "dream_options", "dreaming_status", "routes"]


class DreamRefused(Exception):
    """Dream-now cannot start; ``reason`` is ``no-model``, ``no-auth``, ``running`` or ``unavailable``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def _where(settings: MemorySettings, store: MemoryStore) -> dict[str, Any]:
    from pi_memory.extensions.memory import dream_location

    return dream_location(settings, store) or {"memory_dir": settings.data_dir}


def _state_path(where: dict[str, Any]) -> Path:
    from pi_memory.extensions.memory import STATE_FILE

    state_file = where.get("state_file")
    return Path(state_file) if state_file is not None else Path(where["memory_dir"]) / STATE_FILE


def dreaming_status(
    settings: MemorySettings,
    store: MemoryStore,
    registry: ModelRegistry,
    *,
    session_dir: str | None,
    now_ms: float | None = None,
    count_turns: bool = True,
) -> dict[str, Any]:
    """The last run, the gates at ``now_ms``, whether background dreaming can run, the last report
    and the last failure. The turn gate is counted over the sessions a dream would read, which
    reads every one of them (half a second over 1,000 sessions), so ``count_turns=False`` leaves it
    out (``turns`` None) for a first answer that is fast."""
    from pi_memory.backends import describe_store
    from pi_memory.extensions.memory.readiness import (
        FAILURE_KEY,
        REPORT_KEY,
        dream_gates,
        dreaming_report,
        load_state,
        model_problem,
    )
    from pi_memory.extensions.memory.turns import collect_turns

    where = _where(settings, store)
    state_path = _state_path(where)
    state = load_state(state_path)
    now = time.time() * 1000 if now_ms is None else now_ms
    turns = None
    if count_turns:
        turns = len(collect_turns(include_global=settings.uses_default_dir, session_dir=session_dir,
                                  since_ms=state.last_ms))
    gates = dream_gates(settings.dreaming, state, now, turns)
    background = dreaming_report(settings.dreaming, registry, state_path)
    model, reason, problem = model_problem(registry, settings.dreaming.model)
    report = state.extra.get(REPORT_KEY)
    failure = state.extra.get(FAILURE_KEY)
    return {
        "store": describe_store(store),
        "stateFile": str(state_path),
        "lastRun": state.last_consolidated_at,
        "lastTurnCount": state.last_session_count,
        "gates": gates.to_json(),
        "background": background.to_json(),
        "model": str(settings.dreaming.model),
        "dreamNow": {"available": model is not None, "reason": reason or None, "message": problem or None},
        "lastReport": report if isinstance(report, dict) else None,
        "lastFailure": failure if isinstance(failure, dict) else None,
    }


def dream_options(settings: MemorySettings, store: MemoryStore, registry: ModelRegistry, *,
                  session_dir: str | None) -> DreamOptions:
    """What ``pi-memory dream`` would run with: the settings' store, limits and model, every
    project's sessions for the default memory directory, the gates not applied."""
    from pi_memory.extensions.memory import DreamOptions

    return DreamOptions(
        **_where(settings, store), model_registry=registry, session_dir=session_dir,
        include_global_sessions=settings.uses_default_dir, dreaming=replace(settings.dreaming, enabled=True),
        memory_char_limit=settings.memory_char_limit, user_char_limit=settings.user_char_limit, ignore_gates=True)


@dataclass
class _Job:
    id: int
    started: float
    events: list[dict[str, Any]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    done: threading.Event = field(default_factory=threading.Event)


def _action_event(tool: str, args: dict[str, Any], result: dict[str, Any]) -> dict[str, Any] | None:
    from pi_memory.extensions.memory.agent import MemoryAction

    action = MemoryAction(tool, args, result)
    if tool == "memory_read":
        return None
    text = str(args.get("content") or args.get("newContent") or result.get("removedEntry") or args.get("oldText") or "")
    return {"type": "action", "tool": tool, "target": str(args.get("target", "memory")), "success": action.succeeded,
            "duplicate": action.duplicate, "text": text,
            "error": None if action.succeeded else str(result.get("error", "failed"))}


class DreamJobs:
    """At most one dream-now at a time, run in a thread; its events kept for polling."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._job: _Job | None = None
        self._count = 0

    def start(self, options: DreamOptions, on_done: Callable[[], None] | None = None) -> int:
        """Start a dream; its job id. Raises :class:`DreamRefused` without a usable model or while
        one runs."""
        from pi_memory.extensions.memory.readiness import model_problem

        ref = options.dreaming.model if options.dreaming else None
        if ref is not None:
            model, reason, message = model_problem(options.model_registry, ref)
            if model is None:
                raise DreamRefused(reason, message)
        with self._lock:
            if self._job is not None and not self._job.done.is_set():
                raise DreamRefused("running", "A dream started from this page is still running.")
            self._count += 1
            job = self._job = _Job(self._count, time.time())
        options.progress = self._progress(job)
        thread = threading.Thread(target=self._run, args=(job, options, on_done), name="ui-dream", daemon=True)
        thread.start()
        return job.id

    def _progress(self, job: _Job) -> Callable[[str, Any], None]:
        calls = 0
        pending: dict[str, dict[str, Any]] = {}

        def tell(kind: str, detail: Any) -> None:
            nonlocal calls
            event: dict[str, Any] | None = None
            if kind == "turns":
                event = {"type": "turns", "turns": len(detail), "sessions": len({t.session_id for t in detail})}
            elif kind == "agent":
                if detail["type"] == "turn_start":
                    calls += 1
                    event = {"type": "model-call", "call": calls}
                elif detail["type"] == "tool_execution_start":
                    pending[str(detail["toolCallId"])] = dict(detail.get("args") or {})
                elif detail["type"] == "tool_execution_end":
                    result = detail["result"].structured_content or {}
                    event = _action_event(str(detail["toolName"]), pending.pop(str(detail["toolCallId"]), {}),
                                          dict(result))
            if event is not None:
                with self._lock:
                    job.events.append(event)

        return tell

    def _run(self, job: _Job, options: DreamOptions, on_done: Callable[[], None] | None) -> None:
        from pi_memory.extensions.memory import dream

        try:
            outcome: DreamOutcome = asyncio.run(dream(options))
            summary: dict[str, Any] = outcome.report(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
            summary["ran"] = outcome.ran
        except Exception as exc:  # reported to the page; the next dream may start
            summary = {"ran": False, "reason": "failed", "message": f"Dreaming failed: {exc}"}
        finally:
            if on_done is not None:
                on_done()
        with self._lock:
            job.outcome = summary
            job.events.append({"type": "done", "ran": summary["ran"], "reason": summary.get("reason"),
                               "message": summary.get("message")})
        job.done.set()

    def snapshot(self, since: int = 0) -> dict[str, Any]:
        """The current (or last) job: its events from index ``since`` on, and its outcome when done."""
        with self._lock:
            job = self._job
            if job is None:
                return {"job": None}
            return {"job": job.id, "running": not job.done.is_set(), "events": list(job.events[since:]),
                    "next": len(job.events), "outcome": job.outcome}

    def wait(self, timeout: float | None = None) -> bool:
        """Until the current job is done (tests, shutdown)."""
        job = self._job
        return True if job is None else job.done.wait(timeout)


# --- HTTP --------------------------------------------------------------------------------------


def routes(config: Any) -> list[BaseRoute]:
    """``GET /dreaming[?turns=0]``, ``POST /dreaming/run`` and ``GET /dreaming/run?since=N`` (under ``/api``).

    ``config`` gives the memory settings and the shared store; the model registry is built from
    the host's settings as ``pi-memory dream`` builds it (``config.model_registry()`` when the app
    was given one), and the session directory is the working directory's, as for the dream command.
    """
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from pi_memory.backends import store_problem
    from pi_memory.session.paths import get_default_session_dir_path

    jobs = DreamJobs()
    session_dir = get_default_session_dir_path(str(config.cwd))

    def registry() -> ModelRegistry:
        make = getattr(config, "model_registry", None)
        if callable(make):
            made: ModelRegistry = make()
            return made
        from pi_memory.providers import ModelRegistry

        return ModelRegistry(config.settings.merged)

    async def status(request: Request) -> Response:
        count = request.query_params.get("turns", "1") != "0"

        def run() -> dict[str, Any]:
            return dreaming_status(config.memory, config.store(), registry(), session_dir=session_dir,
                                   count_turns=count)

        return JSONResponse(await run_in_threadpool(run))

    async def start(request: Request) -> Response:
        def run() -> int:
            store = config.store()
            problem = store_problem(store)
            if problem is not None:
                raise DreamRefused("unavailable", problem)
            return jobs.start(dream_options(config.memory, store, registry(), session_dir=session_dir))

        try:
            job = await run_in_threadpool(run)
        except DreamRefused as exc:
            return JSONResponse({"error": str(exc), "reason": exc.reason}, status_code=409)
        return JSONResponse({"job": job}, status_code=202)

    async def progress(request: Request) -> Response:
        raw = request.query_params.get("since", "0")
        since = int(raw) if raw.isdigit() else 0
        return JSONResponse(jobs.snapshot(since))

    return [
        Route("/dreaming", status, methods=["GET"]),
        Route("/dreaming/run", start, methods=["POST"]),
        Route("/dreaming/run", progress, methods=["GET"]),
    ]
