"""The memory extension on a shared PostgreSQL: two "machines" (their own agent homes, cwds and
settings files, one DSN + namespace) share memory through the real host — ``pi-memory chat -p``
as a subprocess with the scripted model — and ``/memory``, extraction, dreaming and outages work
on the database. The PostgreSQL server is the suite's real one (``postgres_dsn``)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
from memext_helpers import DREAM_MODEL, NO_DREAMS, blocked_dreamer, dream_registry, start, write_session
from psycopg import conninfo
from storage_fixtures import fresh_namespace

from pi_memory.backends.postgres import PostgresBackend
from pi_memory.extensions.memory import DreamOptions, DreamState, dream, read_state
from pi_memory.extensions.memory.settings import DreamingSettings, ModelRef, parse_settings
from pi_memory.memory import MemoryStore
from pi_memory.session import SessionManager

pytestmark = [pytest.mark.postgres, pytest.mark.anyio]

PI_MEMORY = str(Path(sys.executable).parent / "pi-memory")
UNREACHABLE = "postgresql://agent:hunter2@127.0.0.1:1/memory"
SCRIPT_EXTENSION = textwrap.dedent('''
    """Test stand-in for the LLM: the scripted provider, replies from $PI_TEST_SCRIPT, then echoes
    the system prompt it was sent (so a subprocess test can see the frozen memory block)."""
    import json
    import os

    from pi_memory.providers import ScriptedProvider


    def extension(pi):
        script = json.loads(os.environ.get("PI_TEST_SCRIPT", "[]"))

        def reply(context):
            return script.pop(0) if script else "SYSTEM PROMPT:\\n" + (context.system_prompt or "")

        def install(event, ctx):
            ctx.model_registry.set_provider("scripted", ScriptedProvider(reply))

        pi.on("session_start", install)
''')


def stored(dsn: str, namespace: str, target: str = "memory") -> str | None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute("SELECT content FROM pi_memory_files WHERE namespace = %s AND target = %s",
                           (namespace, target)).fetchone()
    return None if row is None else row[0]


class Machine:
    """One machine: its own home (agent dir and settings.json), its own project folder."""

    def __init__(self, root: Path, section: dict[str, Any]) -> None:
        self.home = root / "home"
        self.agent = self.home / ".pi" / "agent"
        self.agent.mkdir(parents=True)
        (self.agent / "settings.json").write_text(json.dumps({"pi-memory": section}), encoding="utf-8")
        self.cwd = root / "project"
        self.cwd.mkdir()
        self.extension = root / "scripted_llm.py"
        self.extension.write_text(SCRIPT_EXTENSION, encoding="utf-8")

    def env(self, script: list[Any] | None = None) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if not k.endswith("_API_KEY") and k not in ("PI_CODING_AGENT_DIR", "PI_MEMORY_DSN")}
        env.update(HOME=str(self.home), PI_AGENT_HOME=str(self.agent), COLUMNS="200",
                   PI_TEST_SCRIPT=json.dumps(script or []))
        return env

    def run(self, *args: str, script: list[Any] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([PI_MEMORY, *args], cwd=self.cwd, env=self.env(script), capture_output=True,
                              text=True, timeout=120)

    def chat(self, prompt: str, script: list[Any] | None = None) -> subprocess.CompletedProcess[str]:
        return self.run("chat", "-p", prompt, "--model", "scripted/echo", "-e", str(self.extension), script=script)

    def sessions(self) -> list[Path]:
        return sorted((self.agent / "sessions").rglob("*.jsonl"))


def test_a_memory_saved_on_machine_a_is_in_machine_bs_next_session_and_cli(postgres_dsn: str, tmp_path: Path) -> None:
    shared = {"backend": "postgres", "dsn": postgres_dsn, "namespace": fresh_namespace()}
    # B keeps dreaming on (the default): its background dream must not get in the way of the chat.
    a, b = Machine(tmp_path / "a", {**shared, **NO_DREAMS}), Machine(tmp_path / "b", shared)

    saved = a.chat("We deploy payments with the change-freeze calendar checked first.", [
        {"tool_calls": [{"name": "memory_add", "arguments": {
            "target": "memory", "content": "Payments deploys need the change-freeze calendar checked first"}}]},
        "Saved to memory."])
    assert saved.returncode == 0, saved.stderr
    assert saved.stdout.strip() == "Saved to memory."
    assert stored(postgres_dsn, shared["namespace"]) == "Payments deploys need the change-freeze calendar checked first"
    assert not (a.agent / "memories").exists()  # nothing went to machine A's files

    shown = b.chat("How do we deploy payments?")
    assert shown.returncode == 0, shown.stderr
    assert "background dream failed" not in shown.stderr and "Traceback" not in shown.stderr
    assert shown.stdout.startswith("SYSTEM PROMPT:")
    assert "Payments deploys need the change-freeze calendar checked first" in shown.stdout
    (session,) = b.sessions()  # the frozen block is saved in B's own session file
    snapshots = [e for e in SessionManager.open(str(session)).get_entries()
                 if e["type"] == "custom" and e["customType"] == "pi-memory:system-prompt-snapshot"]
    assert "change-freeze calendar" in snapshots[0]["data"]["snapshot"]

    listed = b.run("read")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[1] == "1. Payments deploys need the change-freeze calendar checked first"
    status = b.run("status")
    assert status.returncode == 0, status.stderr
    assert "Backend: PostgreSQL postgres@" in status.stdout and f"namespace {shared['namespace']}" in status.stdout


def test_an_unreachable_database_is_reported_and_no_empty_snapshot_is_frozen(tmp_path: Path) -> None:
    machine = Machine(tmp_path, {"backend": "postgres", "dsn": UNREACHABLE, **NO_DREAMS})
    proc = machine.chat("hello")
    assert proc.returncode == 0, proc.stderr  # the chat goes on without memory
    assert "PostgreSQL at agent@127.0.0.1:1/memory is unreachable" in proc.stderr
    assert "pi-memory.dsn" in proc.stderr and "hunter2" not in proc.stderr + proc.stdout
    (session,) = machine.sessions()
    assert "pi-memory:system-prompt-snapshot" not in session.read_text(encoding="utf-8")


# ------------------------------------------------------------------ in-process: the extension


async def test_tools_command_and_status_on_postgres(postgres_dsn: str, tmp_path: Path) -> None:
    namespace = fresh_namespace()
    config = {"backend": "postgres", "dsn": postgres_dsn, "namespace": namespace, **NO_DREAMS}
    h = await start(tmp_path, config, chat=[
        {"tool_calls": [{"name": "memory_add", "arguments": {"target": "user", "content": "User prefers tabs"}}]},
        "Noted."])
    assert h.ui.statuses["pi-memory"] == "memory: empty"
    await h.prompt("I prefer tabs.")
    assert stored(postgres_dsn, namespace, "user") == "User prefers tabs"
    assert await h.command("add memory CI runs on arm64") == [("Added to memory.", "info")]
    assert await h.command("replace memory arm64 -> CI runs on the arm64 pool") == [("Replaced in memory.", "info")]
    (message, level), = await h.command("status")
    assert level == "info"
    assert message.splitlines()[:2] == ["MEMORY.md: 1 entry (1% — 25/2,200 chars)",
                                        "USER.md: 1 entry (1% — 17/1,375 chars)"]
    assert message.splitlines()[2].startswith("Stored in PostgreSQL postgres@")
    assert await h.command("remove memory arm64") == [("Removed from memory.", "info")]
    assert stored(postgres_dsn, namespace) == ""
    backend = h.ext.store.backend if h.ext.store else None
    assert isinstance(backend, PostgresBackend)
    await h.close()
    assert backend._pool.closed  # the extension closes the connections it opened


async def test_a_database_that_goes_away_keeps_the_frozen_block(postgres_dsn: str, tmp_path: Path) -> None:
    namespace = fresh_namespace()
    with PostgresBackend(postgres_dsn, namespace) as backend:
        MemoryStore(backend=backend).add("memory", "Builds use Bazel")
    config = {"backend": "postgres", "dsn": postgres_dsn, "namespace": namespace, **NO_DREAMS}
    h = await start(tmp_path, config, chat=lambda context: "ok")
    assert "Builds use Bazel" in await h.prompt("hi")
    session_file = h.session.get_session_file()
    await h.close()

    # The database is unreachable when the session is resumed: its saved block still shows,
    # the status says why memory is unavailable, and tools answer with what to check.
    resumed = await start(tmp_path, {**config, "dsn": UNREACHABLE}, session=SessionManager.open(str(session_file)),
                          chat=[{"tool_calls": [{"name": "memory_read", "arguments": {"target": "memory"}}]}, "ok"])
    assert resumed.ui.statuses["pi-memory"] == "memory: unavailable"
    assert any("is unreachable" in text and level == "error" for text, level in resumed.ui.notifications)
    assert "Builds use Bazel" in await resumed.prompt("what do we build with?")
    result = resumed.runtime.session_manager.get_entries()[-2]["message"]
    assert result["role"] == "toolResult" and result["isError"] is True
    assert "unreachable" in result["content"][0]["text"]
    assert len(resumed.snapshot_entries()) == 1  # nothing new was frozen
    (message, level), = await resumed.command("status")
    assert level == "warning" and message.startswith("MEMORY.md: failed: PostgreSQL at agent@127.0.0.1:1/memory")
    await resumed.close()


@pytest.mark.parametrize("dsn", ["postgresql://agent:Hunter2Secret@[::1",
                                 "postgresql://agent:Hunter2Secret%zz@localhost/memory",
                                 "host=localhost password='Hunter2Secret"])
async def test_a_malformed_dsn_makes_memory_unavailable_without_showing_the_password(tmp_path: Path,
                                                                                    dsn: str) -> None:
    """libpq's parse errors quote the URI or the bad token: neither the "memory: unavailable"
    notice, nor the tool result the model reads, nor /memory shows the password."""
    h = await start(tmp_path, {"backend": "postgres", "dsn": dsn, **NO_DREAMS},
                    chat=[{"tool_calls": [{"name": "memory_read", "arguments": {"target": "memory"}}]}, "ok"])
    assert h.ui.statuses["pi-memory"] == "memory: unavailable"
    notices = " ".join(text for text, _ in h.ui.notifications)
    assert "the PostgreSQL DSN is not valid" in notices
    await h.prompt("what do you remember?")
    result = h.runtime.session_manager.get_entries()[-2]["message"]
    assert result["role"] == "toolResult" and result["isError"] is True
    assert "the PostgreSQL DSN is not valid" in result["content"][0]["text"]
    shown = await h.command("status")
    session_text = Path(h.session.get_session_file() or "").read_text(encoding="utf-8")
    await h.close()
    assert "Hunter2Secret" not in notices + json.dumps(result) + json.dumps(shown) + session_text


async def test_a_compaction_while_the_database_is_gone_keeps_the_block(postgres_dsn: str, tmp_path: Path) -> None:
    name = f"outage_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    dsn = conninfo.make_conninfo(postgres_dsn, dbname=name)
    with PostgresBackend(dsn) as backend:
        MemoryStore(backend=backend).add("memory", "Deploys go through Argo")
    h = await start(tmp_path, {"backend": "postgres", "dsn": dsn, **NO_DREAMS}, chat=lambda context: "noted")
    assert "Deploys go through Argo" in await h.prompt("hi")
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:  # the database goes away mid-session
        conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')

    def summary(event: Any) -> dict[str, Any]:
        prep = event.preparation
        return {"compaction": {"summary": "Talked.", "firstKeptEntryId": prep["firstKeptEntryId"],
                               "tokensBefore": prep["tokensBefore"]}}

    h.ext.pi.on("session_before_compact", summary)
    for n in range(3):
        await h.prompt(f"question {n} {'tea ' * 8000}")
    await h.runtime.compact()
    assert any("not refreshed after compaction" in text and "does not exist" in text
               for text, _ in h.ui.notifications)
    assert "Deploys go through Argo" in await h.prompt("after compaction")
    assert len(h.snapshot_entries()) == 1
    await h.close()


async def test_settings_without_a_dsn_say_what_to_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PI_MEMORY_DSN", raising=False)
    h = await start(tmp_path, {"backend": "postgres", **NO_DREAMS})
    assert h.ui.statuses["pi-memory"] == "memory: unavailable"
    (error,) = [text for text, level in h.ui.notifications if level == "error"]
    assert "pi-memory.dsn" in error and "$PI_MEMORY_DSN" in error
    await h.close()
    with pytest.raises(ValueError, match='must be "file" or "postgres"'):
        parse_settings({"backend": "sqlite"})
    monkeypatch.setenv("PI_MEMORY_DSN", "postgresql://from-env@db/agents")
    assert parse_settings({"backend": "postgres"}).dsn == "postgresql://from-env@db/agents"


async def test_background_extraction_writes_to_the_database(postgres_dsn: str, tmp_path: Path) -> None:
    namespace = fresh_namespace()
    registry, _ = dream_registry([
        {"tool_calls": [{"name": "memory_add", "arguments": {"target": "user", "content": "User is Ada"}}]},
        "Saved."])
    config = {"backend": "postgres", "dsn": postgres_dsn, "namespace": namespace, **NO_DREAMS,
              "extractionModel": DREAM_MODEL, "extractionInterval": 1}
    h = await start(tmp_path, config, registry=registry)
    await h.prompt("I'm Ada.")
    runner = h.ext.extraction
    assert runner is not None and runner.task is not None
    assert await runner.task == 1  # the review's one memory action
    assert stored(postgres_dsn, namespace, "user") == "User is Ada"
    await h.close()


# ------------------------------------------------------------------ dreaming on PostgreSQL

MODEL = ModelRef("scripted", "dreamer")
_opened: list[PostgresBackend] = []


@pytest.fixture(autouse=True)
def _close_backends() -> Any:
    yield
    while _opened:
        _opened.pop().close()


def pg_options(dsn: str, namespace: str, local: Path, registry: Any, **kw: Any) -> DreamOptions:
    """A dream over ``namespace`` by a "machine" whose own state lives under ``local``; the
    sessions are the test's ``sessions`` directory (next to ``local``'s first component)."""
    backend = PostgresBackend(dsn, namespace, pool_size=2)
    _opened.append(backend)
    kw.setdefault("dreaming", DreamingSettings(min_hours_since_last_run=0, min_turns_since_last_run=1, model=MODEL))
    kw.setdefault("session_dir", str(local / "sessions"))
    return DreamOptions(memory_dir=local / "state", state_file=local / "state" / "dreaming-state.pg-test.json",
                        model_registry=registry, backend=backend, **kw)


async def test_a_dream_writes_its_entries_to_the_database_and_keeps_state_locally(postgres_dsn: str,
                                                                                 tmp_path: Path) -> None:
    namespace = fresh_namespace()
    write_session(tmp_path / "sessions", str(tmp_path), [("I moved to Lisbon last month.", "Noted!")])
    registry, _ = dream_registry([
        {"tool_calls": [{"name": "memory_add", "arguments": {"target": "user", "content": "User lives in Lisbon"}}]},
        "Added the user's city."])
    opts = pg_options(postgres_dsn, namespace, tmp_path, registry)
    outcome = await dream(opts)
    assert (outcome.ran, outcome.reason) == (True, "done"), outcome.message
    assert stored(postgres_dsn, namespace, "user") == "User lives in Lisbon"
    assert outcome.after["user"] == ["User lives in Lisbon"]
    state = json.loads((tmp_path / "state" / "dreaming-state.pg-test.json").read_text(encoding="utf-8"))
    assert state["lastSessionCount"] == 1
    assert read_state(tmp_path / "state") == DreamState()  # the file memory's state is not this one
    assert not (tmp_path / "state" / "MEMORY.md").exists() and not (tmp_path / "state" / "USER.md").exists()

    # The gates read that state: a second dream right away is too soon.
    again = await dream(DreamOptions(**{**opts.__dict__, "dreaming": DreamingSettings(model=MODEL)}))
    assert again.reason == "too-soon"


async def test_a_second_dream_skips_while_another_holds_the_advisory_lock(postgres_dsn: str, tmp_path: Path) -> None:
    namespace = fresh_namespace()
    write_session(tmp_path / "sessions", str(tmp_path), [("fact", "ok")])
    gate = asyncio.Event()
    registry, provider = dream_registry(blocked_dreamer(gate))
    sessions = str(tmp_path / "sessions")
    first = asyncio.ensure_future(dream(pg_options(postgres_dsn, namespace, tmp_path / "one", registry,
                                                   session_dir=sessions)))
    while not provider.requests:  # the first dream holds the lock and waits for its model
        assert not first.done(), first.result().message
        await asyncio.sleep(0.01)
    # Another machine: its own backend (its own connections) on the same namespace.
    second_opts = pg_options(postgres_dsn, namespace, tmp_path / "two", registry, session_dir=sessions)
    second = await dream(second_opts)
    assert (second.ran, second.reason) == (False, "locked")
    assert "Another dream holds the lock on PostgreSQL" in second.message and namespace in second.message
    # Another namespace is another memory: not locked.
    quick, _ = dream_registry(lambda context: "Nothing to change.")
    other = await dream(pg_options(postgres_dsn, fresh_namespace(), tmp_path / "three", quick, session_dir=sessions))
    assert other.reason == "done"
    gate.set()
    assert (await first).ran is True
    after = await dream(pg_options(postgres_dsn, namespace, tmp_path / "two", quick, session_dir=sessions))
    assert after.reason == "done"  # released: the next dream may run


LOCK_HOLDER = """
import sys
from pi_memory.backends.postgres import PostgresBackend
backend = PostgresBackend(sys.argv[1], sys.argv[2])
with backend.advisory_lock("dreaming", dedicated=True) as held:
    print("held" if held else "not held", flush=True)
    sys.stdin.readline()
"""


async def test_a_dream_in_another_process_holds_the_lock_until_it_ends(postgres_dsn: str, tmp_path: Path) -> None:
    namespace = fresh_namespace()
    write_session(tmp_path / "sessions", str(tmp_path), [("fact", "ok")])
    registry, _ = dream_registry(["Nothing to change."])
    holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, postgres_dsn, namespace], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        opts = pg_options(postgres_dsn, namespace, tmp_path, registry)
        assert (await dream(opts)).reason == "locked"
    finally:
        holder.kill()  # a crashed holder: the server frees its lock with the connection
        holder.wait()
    assert (await dream(opts)).reason == "done"


async def test_an_unreachable_database_skips_the_dream_and_a_dry_run_changes_nothing(postgres_dsn: str,
                                                                                   tmp_path: Path) -> None:
    write_session(tmp_path / "sessions", str(tmp_path), [("fact", "ok")])
    registry, _ = dream_registry(["unused"])
    gone = DreamOptions(memory_dir=tmp_path / "state", model_registry=registry, session_dir=str(tmp_path / "sessions"),
                        backend=PostgresBackend(UNREACHABLE, connect_timeout=2),
                        dreaming=DreamingSettings(min_hours_since_last_run=0, min_turns_since_last_run=1, model=MODEL))
    outcome = await dream(gone)
    assert (outcome.ran, outcome.reason) == (False, "unavailable")
    assert "is unreachable" in outcome.message and "hunter2" not in outcome.message
    assert not (tmp_path / "state").exists()

    namespace = fresh_namespace()
    with PostgresBackend(postgres_dsn, namespace) as backend:
        MemoryStore(backend=backend).add("memory", "Old fact")
    registry, _ = dream_registry([
        {"tool_calls": [{"name": "memory_replace", "arguments": {
            "target": "memory", "oldText": "Old fact", "newContent": "New fact"}}]}, "Done."])
    planned = await dream(pg_options(postgres_dsn, namespace, tmp_path / "dry", registry, dry_run=True,
                                     session_dir=str(tmp_path / "sessions")))
    assert planned.ran is True and planned.after["memory"] == ["New fact"]
    assert stored(postgres_dsn, namespace) == "Old fact"
    assert not (tmp_path / "dry" / "state" / "dreaming-state.pg-test.json").exists()


async def test_the_extension_dreams_on_the_database(postgres_dsn: str, tmp_path: Path) -> None:
    namespace = fresh_namespace()
    write_session(tmp_path / "sessions", str(tmp_path), [("Our staging deploys from the release branch.", "OK")])
    registry, _ = dream_registry([
        {"tool_calls": [{"name": "memory_add", "arguments": {
            "target": "memory", "content": "Staging deploys from the release branch"}}]}, "Done."])
    config = {"backend": "postgres", "dsn": postgres_dsn, "namespace": namespace, "dataDir": str(tmp_path / "local"),
              "dreaming": {"minHoursSinceLastRun": 0, "minTurnsSinceLastRun": 1, "model": DREAM_MODEL}}
    h = await start(tmp_path, config, registry=registry)
    task = h.ext.dream_task
    assert task is not None and h.ext.dream_options is not None
    assert await task is True
    assert stored(postgres_dsn, namespace) == "Staging deploys from the release branch"
    state_file = h.ext.dream_options.state_file
    assert state_file is not None and state_file.parent == tmp_path / "local"
    assert state_file.name.startswith("dreaming-state.pg-") and state_file.exists()
    assert not (tmp_path / "local" / "MEMORY.md").exists()
    await h.close()
