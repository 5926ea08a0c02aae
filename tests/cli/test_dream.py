"""``pi-memory dream`` end to end as real subprocesses: one consolidation pass against a loopback
server speaking OpenAI's wire format to the real ``openai`` SDK — what it prints, ``--dry-run``,
``--gated``, a missing model, the lock between two dreams, a killed dream, the PostgreSQL store."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import psycopg
import pytest
from storage_fixtures import fresh_namespace

from e2e_helpers import (
    PI_MEMORY,
    agent_env,
    held_reply,
    pi_memory,
    system_prompt,
    text_reply,
    tool_reply,
    wait_for,
    write_memory,
    write_session,
)
from pi_memory.extensions.memory import read_state
from pi_memory.memory import MemoryStore, file_lock


@pytest.fixture
def env(tmp_path: Path, _isolated_home: Path, server: Any) -> dict[str, Any]:
    return agent_env(tmp_path, _isolated_home, server)


def dream_args(env: dict[str, Any], *extra: str) -> list[str]:
    return ["dream", "--model", "loop/gpt-loop", "--dir", str(env["mem"]), "--session-dir", str(env["sessions"]),
            "--this-folder", *extra]


def test_dream_runs_against_an_openai_compatible_endpoint(env: dict[str, Any], server: Any) -> None:
    write_memory(env["mem"], ["Project uses npm"])
    write_session(env["sessions"], str(env["cwd"]), [("My name is Ada and we switched to pnpm", "Noted, Ada.")])
    tool_reply(server, "memory_add", {"target": "user", "content": "User is called Ada"})
    tool_reply(server, "memory_replace", {"target": "memory", "oldText": "npm", "newContent": "Project uses pnpm"})
    text_reply(server, "Saved the name and updated the package manager.")
    proc = pi_memory(env, *dream_args(env))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Found 1 turn(s) in 1 session(s)." in out
    assert "+ user: User is called Ada" in out and "~ memory: Project uses npm → Project uses pnpm" in out
    assert "MEMORY.md: 0 added, 1 replaced, 0 removed; usage 0% — 16/2,200 chars → 0% — 17/2,200 chars" in out
    assert "USER.md: 1 added, 0 replaced, 0 removed; usage 0% — 0/1,375 chars → 1% — 18/1,375 chars" in out
    assert "Consolidated 1 turn(s) in 3 model call(s)." in out
    first = server.requests[0].body
    assert "Phase 1 — Orient" in system_prompt(server.requests[0])
    assert "My name is Ada and we switched to pnpm" in json.dumps(first["messages"][-1])
    store = MemoryStore(env["mem"])
    assert store.read("user")["entries"] == ["User is called Ada"]
    assert store.read("memory")["entries"] == ["Project uses pnpm"]
    assert read_state(env["mem"]).last_session_count == 1


def test_dream_dry_run_writes_nothing(env: dict[str, Any], server: Any) -> None:
    write_memory(env["mem"], ["Project uses npm"])
    write_session(env["sessions"], str(env["cwd"]), [("we switched to pnpm", "Noted.")])
    tool_reply(server, "memory_remove", {"target": "memory", "oldText": "npm"})
    text_reply(server, "Removed the stale entry.")
    proc = pi_memory(env, *dream_args(env, "--dry-run", "--json"))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["dryRun"] and report["changes"]["memory"] == {"added": 0, "replaced": 0, "removed": 1}
    assert report["before"]["memory"] == ["Project uses npm"] and report["after"]["memory"] == []
    assert (env["mem"] / "MEMORY.md").read_text() == "Project uses npm"
    assert not (env["mem"] / "dreaming-state.json").exists()


def test_dream_explains_a_missing_model(env: dict[str, Any]) -> None:
    proc = pi_memory(env, "dream", "--dir", str(env["mem"]))  # the default openai/gpt-4.1-mini, no key
    assert proc.returncode == 2
    assert "OPENAI_API_KEY" in proc.stderr and "baseUrl" in proc.stderr and "--model" in proc.stderr
    proc = pi_memory(env, "dream", "--dir", str(env["mem"]), "--model", "nowhere/x")
    assert proc.returncode == 2 and "Unknown provider 'nowhere'" in proc.stderr


def test_dream_gated_respects_enabled_and_the_gates(env: dict[str, Any], _isolated_home: Path) -> None:
    proc = pi_memory(env, *dream_args(env, "--gated"))
    assert proc.returncode == 1 and "Dreaming is disabled" in proc.stderr
    settings_file = _isolated_home / ".pi" / "agent" / "settings.json"
    settings = json.loads(settings_file.read_text())
    settings["pi-memory"]["dreaming"] = {"minTurnsSinceLastRun": 2}
    settings_file.write_text(json.dumps(settings))
    write_session(env["sessions"], str(env["cwd"]), [("only one turn", "ok")])
    proc = pi_memory(env, *dream_args(env, "--gated"))
    assert proc.returncode == 1 and "1 new turn(s) since the last dream; dreaming waits for 2" in proc.stderr


def test_two_concurrent_dreams_one_runs(env: dict[str, Any], server: Any) -> None:
    write_session(env["sessions"], str(env["cwd"]), [("a fact", "ok")])
    held_reply(server)
    first = subprocess.Popen([PI_MEMORY, *dream_args(env)], cwd=env["cwd"], env=env["env"], text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for(lambda: len(server.requests) == 1, "the first dream to call its model")
        second = pi_memory(env, *dream_args(env))
        assert second.returncode == 1 and "Another dream holds the lock" in second.stderr
        with pytest.raises(Exception, match="locked"), file_lock(env["mem"], timeout=0):
            pass
        server.release.set()
        _, errors = first.communicate(timeout=60)
    finally:
        first.kill()
    assert first.returncode == 0, errors
    assert len(server.requests) == 1
    assert read_state(env["mem"]).last_session_count == 1


def test_a_killed_dream_leaves_memory_valid_and_the_next_one_runs(env: dict[str, Any], server: Any) -> None:
    write_memory(env["mem"], ["existing fact"])
    write_session(env["sessions"], str(env["cwd"]), [("I use zsh", "ok")])
    tool_reply(server, "memory_add", {"target": "user", "content": "User uses zsh"})
    held_reply(server)
    victim = subprocess.Popen([PI_MEMORY, *dream_args(env)], cwd=env["cwd"], env=env["env"], text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for(lambda: len(server.requests) == 2, "the dream's second model call (after its write)")
        os.kill(victim.pid, signal.SIGKILL)
        victim.communicate(timeout=30)
    finally:
        victim.kill()
    assert victim.returncode == -signal.SIGKILL
    store = MemoryStore(env["mem"])
    assert store.read("memory")["entries"] == ["existing fact"]
    assert store.read("user")["entries"] == ["User uses zsh"]
    assert store.drift_reason("memory") is None and store.drift_reason("user") is None
    assert not (env["mem"] / "dreaming-state.json").exists()  # the run did not finish
    text_reply(server, "Nothing else.")
    proc = pi_memory(env, *dream_args(env))  # the dead holder's lock is taken over
    assert proc.returncode == 0, proc.stderr
    assert read_state(env["mem"]).last_session_count == 1
    assert not list(env["mem"].glob(".mem_*.tmp"))


@pytest.mark.postgres
@pytest.mark.slow
def test_dream_on_the_shared_postgres_store(env: dict[str, Any], server: Any, _isolated_home: Path,
                                            postgres_dsn: str) -> None:
    """With ``"backend": "postgres"`` in the settings, ``pi-memory dream`` consolidates into the
    database (under its advisory lock), keeps this machine's state in a local file and writes no
    memory files; ``--dir`` still dreams over a directory."""
    namespace = fresh_namespace()
    settings_file = _isolated_home / ".pi" / "agent" / "settings.json"
    settings = json.loads(settings_file.read_text())
    settings["pi-memory"].update(backend="postgres", dsn=postgres_dsn, namespace=namespace)
    settings_file.write_text(json.dumps(settings))
    write_session(env["sessions"], str(env["cwd"]), [("Our CI runs on Buildkite now", "Noted.")])
    tool_reply(server, "memory_add", {"target": "memory", "content": "CI runs on Buildkite"})
    text_reply(server, "Saved the CI change.")
    args = ["dream", "--model", "loop/gpt-loop", "--session-dir", str(env["sessions"]), "--this-folder"]
    proc = pi_memory(env, *args)
    assert proc.returncode == 0, proc.stderr
    assert "Dreaming over PostgreSQL" in proc.stdout and f"namespace {namespace}" in proc.stdout
    assert "+ memory: CI runs on Buildkite" in proc.stdout
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        row = conn.execute("SELECT content FROM pi_memory_files WHERE namespace = %s AND target = 'memory'",
                           (namespace,)).fetchone()
    assert row is not None and row[0] == "CI runs on Buildkite"
    assert not (env["mem"] / "MEMORY.md").exists()
    (state,) = env["mem"].glob("dreaming-state.pg-*.json")
    assert json.loads(state.read_text())["lastSessionCount"] == 1

    again = pi_memory(env, *args, "--gated")  # --gated honours dreaming.enabled=false, as the background does
    assert again.returncode == 1 and "Dreaming is disabled" in again.stderr

    unreachable = dict(settings["pi-memory"], dsn="postgresql://agent:hunter2@127.0.0.1:1/memory")
    settings_file.write_text(json.dumps(dict(settings, **{"pi-memory": unreachable})))
    down = pi_memory(env, *args)
    assert down.returncode == 1 and "hunter2" not in down.stderr and "127.0.0.1:1" in down.stderr
