"""``pi-memory status/read/add/replace/remove`` on the shared PostgreSQL: chosen by the same
``pi-memory`` settings the agent reads (or ``--dsn``/``--namespace``), ``--dir`` still forcing
files, ``--json``, exit codes, and clear failures for a missing or unreachable database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from storage_fixtures import fresh_namespace
from typer.testing import CliRunner

from pi_memory.cli.main import app

pytestmark = pytest.mark.postgres

SCRIPT = Path(sys.executable).with_name("pi-memory")
UNREACHABLE = "postgresql://agent:hunter2@127.0.0.1:1/memory"


class Run:
    def __init__(self, code: int, stdout: str, stderr: str) -> None:
        self.code, self.stdout, self.stderr = code, stdout, stderr

    @property
    def json(self) -> Any:
        return json.loads(self.stdout)


def pim(*args: str) -> Run:
    result = CliRunner().invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(result.exit_code, result.stdout, result.stderr)


def settings(home: Path, section: dict[str, Any], where: str = "global") -> None:
    folder = home / ".pi" / "agent" if where == "global" else Path(where) / ".pi"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps({"pi-memory": section}), encoding="utf-8")


def stored(dsn: str, namespace: str, target: str = "memory") -> str | None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute("SELECT content FROM pi_memory_files WHERE namespace = %s AND target = %s",
                           (namespace, target)).fetchone()
    return None if row is None else row[0]


@pytest.fixture
def shared(postgres_dsn: str, _isolated_home: Path) -> dict[str, str]:
    """This machine's settings point at a fresh namespace of the test database."""
    section = {"backend": "postgres", "dsn": postgres_dsn, "namespace": fresh_namespace()}
    settings(_isolated_home, section)
    return section


def test_add_read_replace_remove_and_status_follow_the_settings(shared: dict[str, str], tmp_path: Path) -> None:
    dsn, namespace = shared["dsn"], shared["namespace"]
    added = pim("add", "Project uses pytest with xdist")
    assert (added.code, added.stdout) == (0, "Added to memory (1% — 30/2,200 chars, 1 entry).\n"), added.stderr
    assert stored(dsn, namespace) == "Project uses pytest with xdist"
    assert pim("add", "user", "Prefers concise answers").code == 0
    assert pim("add", "Project uses pytest with xdist").stdout.startswith("Already in memory, no duplicate added")

    read = pim("read")
    assert read.stdout == "memory [1% — 30/2,200 chars]:\n1. Project uses pytest with xdist\n"
    replaced = pim("replace", "xdist", "Project uses pytest; run it with -n 2.")
    assert replaced.code == 0 and "was: Project uses pytest with xdist" in replaced.stdout
    assert stored(dsn, namespace) == "Project uses pytest; run it with -n 2."
    removed = pim("remove", "user", "concise")
    assert removed.code == 0 and stored(dsn, namespace, "user") == ""

    status = pim("status")
    assert status.code == 0
    rows = [[c.strip() for c in line.split("│")[1:8]] for line in status.stdout.splitlines() if line.startswith("│")]
    assert rows == [["memory", "MEMORY.md", "1", "38", "2,200", "1%", "ok"],
                    ["user", "USER.md", "0", "0", "1,375", "0%", "ok"]]
    user = shared["dsn"].partition("://")[2].partition("@")[0].partition(":")[0]
    backend_line = next(line for line in status.stdout.splitlines() if line.startswith("Backend: "))
    assert backend_line.startswith(f"Backend: PostgreSQL {user}@")
    assert backend_line.endswith(f", namespace {namespace}")
    assert not (Path.home() / ".pi" / "agent" / "memories").exists()  # nothing went to the default files


def test_json_output_and_exit_codes(shared: dict[str, str]) -> None:
    namespace = shared["namespace"]
    added = pim("--json", "add", "user", "Likes tea")
    assert added.code == 0 and added.json["success"] is True and added.json["entryCount"] == 1
    assert pim("read", "user", "--json").json["entries"] == ["Likes tea"]
    missing = pim("remove", "nothing", "--json")
    assert missing.code == 1 and missing.json == {"success": False, "error": "No entry matched 'nothing'."}
    refused = pim("--memory-limit", "10", "add", "A fact far too long for ten characters")
    assert refused.code == 1 and "would exceed the limit" in refused.stderr
    assert "Next: Make room first" in refused.stderr
    assert pim("add", "bogus", "text").code == 2

    status = pim("status", "--json")
    assert status.code == 0
    data = status.json
    assert data["backend"] == "postgres" and data["namespace"] == namespace and "dir" not in data
    assert data["database"] and "password" not in data["database"]
    memory, user = data["targets"]
    assert memory["file"] == f"postgres:{namespace}/MEMORY.md" and memory["state"] == "missing"
    assert user["entryCount"] == 1 and user["state"] == "ok"


def test_dsn_and_namespace_options_override_and_dir_forces_files(shared: dict[str, str], tmp_path: Path) -> None:
    dsn = shared["dsn"]
    other = fresh_namespace()
    assert pim("add", "In the other namespace", "--namespace", other).code == 0
    assert stored(dsn, other) == "In the other namespace" and stored(dsn, shared["namespace"]) is None
    assert pim("--dsn", dsn, "--namespace", other, "read").stdout.endswith("1. In the other namespace\n")

    files = tmp_path / "files"
    forced = pim("--dir", str(files), "add", "Only in files")
    assert forced.code == 0 and (files / "MEMORY.md").read_text(encoding="utf-8") == "Only in files"
    status = pim("status", "--dir", str(files))
    assert f"Directory: {files}" in status.stdout.splitlines()
    assert stored(dsn, shared["namespace"]) is None

    both = pim("--dir", str(files), "--dsn", dsn, "read")
    assert both.code == 2 and "either --dir (files) or --dsn (PostgreSQL), not both" in both.stderr
    lone = pim("--dir", str(files), "--namespace", "x", "read")
    assert lone.code == 2 and "--namespace only applies to the PostgreSQL backend" in lone.stderr


def test_a_trusted_projects_settings_choose_the_namespace(shared: dict[str, str], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "project"
    project.mkdir()
    namespace = fresh_namespace()
    settings(Path.home(), shared)
    settings(Path.home(), {"namespace": namespace}, where=str(project))
    monkeypatch.chdir(project)
    assert pim("add", "Untrusted project").code == 0  # an untrusted project's settings are ignored
    assert stored(shared["dsn"], shared["namespace"]) == "Untrusted project"
    trust = Path.home() / ".pi" / "agent" / "trust.json"
    trust.write_text(json.dumps({str(project.resolve()): True}), encoding="utf-8")
    assert pim("add", "Trusted project").code == 0
    assert stored(shared["dsn"], namespace) == "Trusted project"


def test_missing_dsn_is_a_settings_error(_isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PI_MEMORY_DSN", raising=False)
    settings(_isolated_home, {"backend": "postgres"})
    for args in (["status"], ["read"], ["add", "x"], ["--json", "read"]):
        proc = pim(*args)
        assert proc.code == 2, args
    proc = pim("add", "x")
    assert "pi-memory.dsn" in proc.stderr and "$PI_MEMORY_DSN" in proc.stderr
    assert pim("--json", "read").json["success"] is False


def test_an_unreachable_database_fails_clearly_as_a_subprocess(tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings(home, {"backend": "postgres", "dsn": UNREACHABLE})
    env = {**os.environ, "HOME": str(home), "PI_AGENT_HOME": str(home / ".pi" / "agent"), "COLUMNS": "200"}
    env.pop("PI_MEMORY_DSN", None)
    for args in (["status"], ["read"], ["add", "Never written"], ["replace", "a", "b"], ["remove", "a"]):
        proc = subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, env=env, timeout=60, cwd=tmp_path)
        assert proc.returncode == 1, (args, proc.stdout, proc.stderr)
        assert "PostgreSQL at agent@127.0.0.1:1/memory is unreachable" in proc.stderr
        assert "pi-memory.dsn" in proc.stderr and "hunter2" not in proc.stderr + proc.stdout
        assert proc.stdout == ""
    as_json = subprocess.run([str(SCRIPT), "status", "--json"], capture_output=True, text=True, env=env, timeout=60,
                             cwd=tmp_path)
    assert as_json.returncode == 1 and "is unreachable" in json.loads(as_json.stdout)["error"]
    assert not (home / ".pi" / "agent" / "memories").exists()  # no fallback to files


def test_status_shows_drift_on_postgres(shared: dict[str, str]) -> None:
    with psycopg.connect(shared["dsn"], autocommit=True) as conn:
        conn.execute("INSERT INTO pi_memory_files (namespace, target, content) VALUES (%s, 'memory', %s)",
                     (shared["namespace"], "one\n§\n\n§\ntwo"))
    status = pim("status")
    assert status.code == 0
    assert "memory: drift:" in status.stdout
    where = f"postgres:{shared['namespace']}/MEMORY.md"
    assert f"Next: Delete the stray '§' line in {where}" in status.stdout
    assert f"({where} is a row of table pi_memory_files;" in status.stdout
    refused = pim("add", "three")
    assert refused.code == 1 and f"postgres:{shared['namespace']}/MEMORY.md.bak." in refused.stderr


def test_dsn_before_a_command_that_does_not_read_it_is_a_usage_error() -> None:
    for command in (["mcp"], ["db", "status"]):
        proc = pim("--dsn", UNREACHABLE, *command)
        assert proc.code == 2 and "put --dsn/--namespace after the command" in proc.stderr
        assert "hunter2" not in proc.stderr
