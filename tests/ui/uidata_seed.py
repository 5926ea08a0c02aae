"""Seeds a temp agent dir for the Recall, Sessions and Dreaming tests (and the UI benchmark).

Session files are written by the session package's own writer (``SessionManager``); the first
one is a real agent session — ``SessionRuntime`` with the memory extension and the scripted
provider — so its frozen memory snapshot entry is the one the extension writes. The recall index
is built the way ``pi-memory recall index`` builds it (``backfill`` over ``<agentDir>/sessions``).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_memory.memory import MemoryStore
from pi_memory.session import SessionManager

VOCABULARY = [
    "deploy", "staging", "database", "latency", "backup", "invoice", "garden", "tomato", "violin", "lesson",
    "frankfurt", "tuesday", "budget", "review", "branch", "merge", "release", "schema", "index", "query",
    "cache", "holiday", "flight", "hotel", "museum", "recipe", "bread", "oven",
]
PROJECT_CWD = "/home/me/shop"
OTHER_CWD = "/home/me/garden"
NEEDLE = "The staging database moved to Frankfurt on a Tuesday"
XSS_PROBES = [
    '<script>window.__pwned = 1; fetch("http://evil.example/s")</script>',
    '<img src="http://evil.example/i.png" onerror="window.__pwned = 2">',
    "[click me](javascript:window.__pwned=3)",
    "![beacon](http://evil.example/beacon.png)",
    '<a href="javascript:window.__pwned=4">link</a> <iframe src="http://evil.example/f"></iframe>',
]
"""Text an attacker could get into a session; the page must show it as text and fetch nothing."""


def user(text: str, ms: int) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": ms}


def assistant(text: str, ms: int) -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": text}], "api": "scripted",
            "provider": "scripted", "model": "echo",
            "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
                      "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
            "stopReason": "stop", "timestamp": ms}


@dataclass
class Seeded:
    agent_dir: Path
    memory_dir: Path
    sessions_root: Path
    recall_url: str
    main_session: str = ""
    main_file: str = ""
    needle_entry: str = ""
    branch_entry: str = ""
    labelled_entry: str = ""
    xss_session: str = ""
    entries: dict[str, str] = field(default_factory=dict)


async def _agent_session(agent_dir: Path, memory_dir: Path, cwd: str) -> str:
    """One real turn with the memory extension: writes the frozen snapshot entry and the messages."""
    from pi_memory.extensions.memory import memory_extension
    from pi_memory.host import SessionRuntime
    from pi_memory.providers import ScriptedProvider, scripted_model

    store = MemoryStore(memory_dir)
    store.load_from_disk()
    store.add("memory", "The project deploys with pnpm")
    sm = SessionManager.create(cwd, str(agent_dir / "sessions" / _dir(cwd)))
    runtime = await SessionRuntime.create(
        session_manager=sm, model=scripted_model(), provider=ScriptedProvider(["Noted: Frankfurt."]),
        factories=[lambda pi: memory_extension(pi, {"store": store})], use_entry_points=False, discover=False)
    await runtime.prompt(NEEDLE + ", said the ops team.")
    await runtime.shutdown()
    path = sm.get_session_file()
    assert path is not None
    return path


def _in_thread(work: Any) -> Any:
    """Run ``work()`` in a thread of its own: playwright's sync API keeps an event loop running in
    the test's thread, where ``asyncio.run`` is refused."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result()


def _dir(cwd: str) -> str:
    from pi_memory.session.paths import encode_cwd

    return encode_cwd(cwd)


def seed(agent_dir: Path, *, index: bool = True) -> Seeded:
    """A small agent dir: two projects; the main session has a branch, a label, a branch summary,
    a compaction and the memory snapshot; another session holds the XSS probes."""
    memory_dir = agent_dir / "memories"
    sessions_root = agent_dir / "sessions"
    seeded = Seeded(agent_dir, memory_dir, sessions_root, str(agent_dir / "recall.db"))
    path = _in_thread(lambda: asyncio.run(_agent_session(agent_dir, memory_dir, PROJECT_CWD)))
    sm = SessionManager.open(path)
    entries = sm.get_entries()
    needle = next(e for e in entries if e["type"] == "message" and e["message"]["role"] == "user")
    seeded.needle_entry = needle["id"]
    base = int(time.time() * 1000) - 3_600_000
    sm.append_label_change(needle["id"], "decision")
    seeded.labelled_entry = needle["id"]
    follow = sm.append_message(user("Which day did the database move?", base + 10_000))
    sm.append_message(assistant("It moved on a Tuesday.", base + 11_000))
    # a branch back at the follow-up: the other answer, left with a summary
    sm.branch_with_summary(follow, "Tried asking about latency instead; abandoned.")
    other = sm.append_message(user("What about EU latency after the move?", base + 20_000))
    seeded.branch_entry = other
    sm.append_message(assistant("Latency should drop for EU users.", base + 21_000))
    kept = sm.append_message(user("Remind me to check the backups.", base + 30_000))
    sm.append_compaction("The team moved staging to Frankfurt; latency discussed.", kept, tokens_before=4200)
    sm.append_message(assistant("I will remind you about the backups.", base + 31_000))
    sm.append_session_info("Staging move")
    seeded.main_session = sm.get_session_id()
    seeded.main_file = path
    seeded.entries = {"follow": follow, "other": other, "kept": kept}

    xss = SessionManager.create(PROJECT_CWD, str(sessions_root / _dir(PROJECT_CWD)))
    clock = base + 40_000
    for probe in XSS_PROBES:
        clock += 1000
        xss.append_message(user(f"probe xssneedle {probe}", clock))
        clock += 1000
        xss.append_message(assistant(f"echo xssneedle {probe}", clock))
    seeded.xss_session = xss.get_session_id()

    garden = SessionManager.create(OTHER_CWD, str(sessions_root / _dir(OTHER_CWD)))
    garden.append_message(user("Tomatoes need staking in June", base + 50_000))
    garden.append_message(assistant("Noted for the garden.", base + 51_000))
    if index:
        index_sessions(seeded)
    return seeded


def index_sessions(seeded: Seeded) -> int:
    """``pi-memory recall index`` over the agent dir: the CLI's backfill, same state file."""
    from pi_memory.recall import open_index
    from pi_memory.recall.backfill import backfill

    recall = open_index(seeded.recall_url)
    try:
        backfill(recall, seeded.sessions_root, Path(seeded.recall_url + ".backfill.json"))
        return recall.count()
    finally:
        recall.close()


def bulk_sessions(sessions_root: Path, sessions: int, messages_per_session: int, projects: int = 10,
                  words: list[str] | None = None) -> list[str]:
    """Many ordinary sessions (the scale test and benchmark), written by ``SessionManager``."""
    import random

    rng = random.Random(7)
    vocabulary = words or VOCABULARY
    base = int(time.time() * 1000) - sessions * 60_000
    ids = []
    for n in range(sessions):
        cwd = f"/home/me/project-{n % projects:02d}"
        sm = SessionManager.create(cwd, str(sessions_root / _dir(cwd)))
        clock = base + n * 60_000
        for m in range(messages_per_session):
            text = " ".join(rng.choice(vocabulary) for _ in range(12))
            message = user(f"{text} #{n}.{m}", clock) if m % 2 == 0 else assistant(f"{text} #{n}.{m}", clock)
            sm.append_message(message)
            clock += 1000
        ids.append(sm.get_session_id())
    return ids
