"""``pi-memory db``: create, migrate and inspect the PostgreSQL schema, list and print drift
backups, and fail clearly without a reachable database. Real subprocesses, the suite's real
PostgreSQL server (``postgres_dsn``; ``fresh_db`` is an empty database on it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from storage_fixtures import fresh_namespace

from pi_memory.backends.postgres import PostgresBackend
from pi_memory.backends.schema import LATEST_VERSION, schema_status
from pi_memory.memory import MemoryStore

pytestmark = pytest.mark.postgres

UNREACHABLE = "postgresql://agent:hunter2@127.0.0.1:1/memory"
CLI = [sys.executable, "-m", "pi_memory.cli"]


def db(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, "db", *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})


def test_db_init_migrate_status(fresh_db: str) -> None:
    before = db("status", "--json", "--dsn", fresh_db)
    assert before.returncode == 1 and json.loads(before.stdout)["version"] is None
    assert "pi-memory db init" in json.loads(before.stdout)["error"]

    backend = PostgresBackend(fresh_db, auto_migrate=False)
    refused = MemoryStore(backend=backend).add("memory", "x")
    assert refused["success"] is False and "run `pi-memory db init`" in refused["error"]

    created = db("init", "--dsn", fresh_db)
    assert created.returncode == 0 and f"no schema → version {LATEST_VERSION}" in created.stdout
    again = db("migrate", "--json", env={"PI_MEMORY_DSN": fresh_db})
    assert again.returncode == 0 and json.loads(again.stdout)["applied"] == []

    fresh_backend = PostgresBackend(fresh_db, "team", auto_migrate=False)
    assert MemoryStore(backend=fresh_backend).add("user", "Works in UTC")["success"] is True
    status = json.loads(db("status", "--json", "--dsn", fresh_db).stdout)
    assert status["version"] == LATEST_VERSION and status["pending"] == []
    assert [(n["namespace"], n["target"], n["chars"]) for n in status["namespaces"]] == [("team", "user", 12)]
    assert "team" in db("status", "--dsn", fresh_db).stdout
    backend.close()
    fresh_backend.close()


def test_a_newer_schema_is_never_written_to(fresh_db: str) -> None:
    assert db("init", "--dsn", fresh_db).returncode == 0
    with psycopg.connect(fresh_db, autocommit=True) as conn:
        conn.execute("INSERT INTO pi_memory_schema_version (version, description) VALUES (999, 'from the future')")
        assert schema_status(conn).too_new
    result = MemoryStore(backend=PostgresBackend(fresh_db)).add("memory", "x")
    assert result["success"] is False and "upgrade pi-memory" in result["error"]
    migrated = db("migrate", "--dsn", fresh_db)
    assert migrated.returncode == 1 and "newer than this pi-memory supports" in migrated.stderr


def test_db_backups_lists_and_prints_drift_backups(postgres_dsn: str) -> None:
    namespace = fresh_namespace()
    drifted = "one\n§\n\n§\ntwo"
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO pi_memory_files VALUES (%s, 'memory', %s)", (namespace, drifted))
    location = MemoryStore(backend=PostgresBackend(postgres_dsn, namespace)).add("memory", "x")["driftBackup"]
    listed = json.loads(db("backups", "--namespace", namespace, "--json", "--dsn", postgres_dsn).stdout)
    assert [b["location"] for b in listed["backups"]] == [location]
    shown = db("backups", location, "--dsn", postgres_dsn)
    assert shown.returncode == 0 and shown.stdout == drifted + "\n"
    missing = db("backups", f"postgres:{namespace}/MEMORY.md.bak.1", "--dsn", postgres_dsn)
    assert missing.returncode == 1 and "no backup" in missing.stderr
    assert "no backups" in db("backups", "--namespace", fresh_namespace(), "--dsn", postgres_dsn).stdout


def test_db_commands_fail_clearly_without_a_reachable_database(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "PI_AGENT_HOME": str(tmp_path / "agent"), "PI_MEMORY_DSN": ""}
    missing = db("status", env=env)
    assert missing.returncode == 2 and "--dsn" in missing.stderr
    down = db("init", "--dsn", UNREACHABLE, env=env)
    assert down.returncode == 1 and "unreachable" in down.stderr and "hunter2" not in down.stderr
