"""``pi-memory chat`` offline (scripted echo model): print mode, the interactive loop driven through
stdin, slash commands, extension commands and their completion."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from pi_memory.cli.chat import Chat
from pi_memory.host import HeadlessUI, SessionRuntime
from pi_memory.providers import ScriptedProvider, scripted_model
from pi_memory.session import SessionManager

PI_MEMORY = str(Path(sys.executable).parent / "pi-memory")


def run_chat(cwd: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PI_MEMORY, "chat", *args], cwd=cwd, env=os.environ.copy(), input=stdin,
                          capture_output=True, text=True, timeout=60)


def sessions(home: Path) -> list[Path]:
    return sorted((home / ".pi" / "agent" / "sessions").rglob("*.jsonl"))


def test_print_mode_and_continue(tmp_path: Path, _isolated_home: Path) -> None:
    proc = run_chat(tmp_path, "-p", "hello there", "--model", "scripted/echo")
    assert (proc.returncode, proc.stdout) == (0, "You said: hello there\n"), proc.stderr
    (first,) = sessions(_isolated_home)
    proc = run_chat(tmp_path, "-p", "again", "--continue")  # the model is restored from the session
    assert proc.returncode == 0 and proc.stdout == "You said: again\n", proc.stderr
    assert sessions(_isolated_home) == [first]
    users = [e["message"] for e in SessionManager.open(str(first)).get_entries()
             if e["type"] == "message" and e["message"]["role"] == "user"]
    assert len(users) == 2


def test_print_mode_without_a_model_explains_what_to_set(tmp_path: Path) -> None:
    env_free = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    proc = subprocess.run([PI_MEMORY, "chat", "-p", "hi"], cwd=tmp_path, env=env_free, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2
    assert "No model configured" in proc.stderr and "--model" in proc.stderr


def test_conflicting_session_options(tmp_path: Path) -> None:
    proc = run_chat(tmp_path, "-p", "x", "--continue", "--session", str(tmp_path / "s.jsonl"))
    assert proc.returncode == 2 and "only one of" in proc.stderr


def test_fork_option_copies_a_session(tmp_path: Path, _isolated_home: Path) -> None:
    source = tmp_path / "source.jsonl"
    assert run_chat(tmp_path, "-p", "original", "--model", "scripted/echo", "--session", str(source)).returncode == 0
    written = source.read_text()
    proc = run_chat(tmp_path, "-p", "more", "--fork", str(source))
    assert proc.returncode == 0, proc.stderr
    (forked,) = sessions(_isolated_home)
    header = json.loads(forked.read_text().splitlines()[0])
    assert header["parentSession"] == str(source)
    assert source.read_text() == written  # the source is untouched


def test_interactive_session_through_stdin(tmp_path: Path, _isolated_home: Path) -> None:
    ext = tmp_path / "greet.py"
    ext.write_text("def extension(pi):\n"
                   "    pi.register_command('greet', {'description': 'Greet someone',\n"
                   "        'handler': lambda args, ctx: ctx.ui.notify('Hello, ' + args)})\n")
    script = "\n".join(["/help", "/name Tea talk", "I like green tea", "/greet Ada", "/model", "/new",
                        "second session", "/resume", "1", "/quit"]) + "\n"
    proc = run_chat(tmp_path, "--model", "scripted/echo", "-e", str(ext), stdin=script)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "/greet" in out and "Greet someone" in out
    assert "You said: I like green tea" in out and "Hello, Ada" in out
    assert "* scripted/echo" in out
    assert "Tea talk" in out  # the /resume picker lists the named session
    files = sessions(_isolated_home)
    assert len(files) == 2
    names = [SessionManager.open(str(f)).get_session_name() for f in files]
    assert "Tea talk" in names


@pytest.mark.anyio
async def test_completion_of_commands_and_arguments(tmp_path: Path) -> None:
    def ext(pi: Any) -> None:
        pi.register_command("deploy", handler=lambda a, c: None,
                            get_argument_completions=lambda prefix: [t for t in ("staging", "prod")
                                                                     if t.startswith(prefix)])

    async def go() -> list[list[str]]:
        rt = await SessionRuntime.create(cwd=str(tmp_path), session_manager=SessionManager.in_memory(str(tmp_path)),
                                         model=scripted_model(), provider=ScriptedProvider([]), factories=[ext],
                                         ui=HeadlessUI(), use_entry_points=False, discover=False)
        chat = Chat(rt, Console(file=open(os.devnull, "w")), Console(file=open(os.devnull, "w")))  # noqa: SIM115
        return [chat.completions("/de"), chat.completions("/deploy st"), chat.completions("/n"),
                chat.completions("hello")]

    assert await go() == [["/deploy"], ["/deploy staging"], ["/name", "/new"], []]
