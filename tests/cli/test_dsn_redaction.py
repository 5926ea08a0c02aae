"""No command prints a DSN's password: malformed DSNs (which fail before connecting, in libpq's
parser, whose messages quote the URI or the bad token) and unreachable ones, given by ``--dsn``,
by ``pi-memory.dsn`` in settings or by ``$PI_MEMORY_DSN``, × every command that opens one.

The commands run in-process through Typer's runner (stdout, stderr and log output captured) and,
for the first DSN, as real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pi_memory.cli.main import app

PW = "Hunter2Secret"
SCRIPT = Path(sys.executable).with_name("pi-memory")

URL_DSNS = [
    f"postgresql://agent:{PW}@[::1",                       # libpq quotes the whole URI
    f"postgresql://agent:{PW}%zz@localhost/memory",        # libpq quotes the token: the password itself
    f"postgresql://agent@localhost/memory?password={PW}&bogus=1",
    f"postgresql://agent:{PW}@127.0.0.1:1/memory",         # well formed, nothing listens
]
KEYWORD_DSNS = [
    f"host=localhost password='{PW}",                      # unterminated quote
    f"host=127.0.0.1 port=1 user=agent password={PW} bogus=1",
]
STORE_COMMANDS = [["status"], ["read"], ["add", "x"], ["replace", "a", "b"], ["remove", "a"],
                  ["--json", "status"], ["--json", "add", "x"]]
DB_COMMANDS = [["db", "status"], ["db", "init"], ["db", "migrate"], ["db", "backups"], ["db", "status", "--json"]]


def run(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, args, env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback is a failure of its own
    return result.exit_code, result.stdout + result.stderr


def write_settings(home: Path, settings: dict[str, object]) -> None:
    folder = home / ".pi" / "agent"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps(settings), encoding="utf-8")


@pytest.fixture(autouse=True)
def _no_env_dsn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PI_MEMORY_DSN", raising=False)
    monkeypatch.delenv("PI_MEMORY_RECALL_URL", raising=False)


@pytest.mark.parametrize("dsn", URL_DSNS + KEYWORD_DSNS)
def test_store_and_db_commands_never_print_the_password(dsn: str, _isolated_home: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    for args in STORE_COMMANDS:  # --dsn on the command line
        code, output = run(["--dsn", dsn, *args])
        assert code in (1, 2) and PW not in output and "Traceback" not in output, (args, output)
    for args in DB_COMMANDS:
        code, output = run([*args, "--dsn", dsn])
        assert code in (1, 2) and PW not in output and "Traceback" not in output, (args, output)
        assert "PostgreSQL" in output
    write_settings(_isolated_home, {"pi-memory": {"backend": "postgres", "dsn": dsn}})  # in settings
    for args in [*STORE_COMMANDS, ["db", "status"], ["dream"]]:
        code, output = run(args)
        assert code in (1, 2) and PW not in output, (args, output)
    write_settings(_isolated_home, {"pi-memory": {"backend": "postgres"}})  # in the environment
    monkeypatch.setenv("PI_MEMORY_DSN", dsn)
    for args in [["read"], ["--json", "add", "x"], ["db", "status"]]:
        code, output = run(args)
        assert code in (1, 2) and PW not in output, (args, output)


@pytest.mark.parametrize("dsn", URL_DSNS)
def test_recall_commands_never_print_the_password(dsn: str, _isolated_home: Path, tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    for args in (["status"], ["status", "--json"], ["search", "deploy"], ["index", "--sessions", str(sessions)],
                 ["reindex"]):
        code, output = run(["recall", *args, "--index", dsn])
        assert code == 1 and PW not in output and "Traceback" not in output, (args, output)
        assert "the recall index postgresql://" in output and "cannot be used" in output, (args, output)


def test_a_malformed_dsn_says_what_to_fix() -> None:
    code, output = run(["read", "--dsn", URL_DSNS[1]])
    assert code == 1
    assert "the PostgreSQL DSN is not valid (invalid percent-encoded token" in output
    assert "percent-encoded" in output and "user@host" not in output


def test_as_a_subprocess_neither_stream_holds_the_password(tmp_path: Path) -> None:
    """Real processes, real stderr: nothing is captured away by a test runner. PGPASSWORD (read
    by libpq when the DSN has no password) is never printed either."""
    home = tmp_path / "home"
    write_settings(home, {"pi-memory": {"backend": "postgres", "dsn": URL_DSNS[0]},
                          "pi-memory-recall": {"url": URL_DSNS[0]}})
    env = {**os.environ, "HOME": str(home), "PI_AGENT_HOME": str(home / ".pi" / "agent"), "COLUMNS": "200",
           "PGPASSWORD": "FromTheEnvironment"}
    env.pop("PI_MEMORY_DSN", None)
    for args in (["status"], ["add", "x"], ["db", "status"], ["recall", "status", "--index", URL_DSNS[1]],
                 ["read", "--dsn", "postgresql://agent@127.0.0.1:1/memory"],
                 ["db", "status", "--dsn", "host=127.0.0.1 port=1 user=agent"]):
        proc = subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, env=env, timeout=60, cwd=tmp_path)
        assert proc.returncode in (1, 2), (args, proc.stderr)
        both = proc.stdout + proc.stderr
        assert PW not in both and "FromTheEnvironment" not in both and "Traceback" not in both, (args, both)
