"""Where things live and whether dreaming can run, as a newcomer sees it: ``pi-memory status``
names each location and what chose it; reads and in-memory sessions leave nothing on disk; a
``--dir`` that does not exist is refused by a read and created (and said) by a write; dreaming
that cannot run says so once, with the fix; a dream with nothing new calls no model.

Real ``pi-memory`` subprocesses in a temporary HOME, the real SDK against a loopback server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import loopback

TESTS = Path(__file__).resolve().parents[1]
PI_MEMORY = str(Path(sys.executable).parent / "pi-memory")
_CLEAR = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OPENROUTER_API_KEY",
          "PI_AGENT_HOME", "PI_CODING_AGENT_DIR", "PI_MEMORY_RECALL_URL", "PI_MEMORY_DSN")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    (folder / "project").mkdir(parents=True)
    return folder


def run(home: Path, *args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in _CLEAR}
    environ.update(HOME=str(home), COLUMNS="400", **env)
    return subprocess.run([PI_MEMORY, *args], cwd=home / "project", env=environ, capture_output=True, text=True,
                          input=stdin, timeout=60)


def settings(home: Path, data: dict[str, Any]) -> Path:
    path = home / ".pi" / "agent" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def status_json(home: Path, *args: str, **env: str) -> dict[str, Any]:
    proc = run(home, "status", "--json", *args, **env)
    assert proc.returncode == 0, proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def located(data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {entry["name"]: (entry["path"], entry["chosenBy"]) for entry in data["locations"]}


def answer(server: Any, text: str = "hello") -> None:
    server.openai_stream([loopback.chunk({"role": "assistant", "content": text}), loopback.chunk({}, "stop")])


# --- locations ---------------------------------------------------------------------------------


def test_status_names_each_location_and_what_chose_it(home: Path) -> None:
    agent = home / "elsewhere"
    where = located(status_json(home, PI_CODING_AGENT_DIR=str(agent)))
    # PI_CODING_AGENT_DIR moves settings, sessions and the recall index; memories follow PI_AGENT_HOME only.
    assert where["settings (global)"] == (str(home / ".pi/agent/settings.json"), "default (always read)")
    assert where["settings (config)"] == (str(agent / "settings.json"), "$PI_CODING_AGENT_DIR")
    assert where["memories"] == (str(home / ".pi/agent/memories"), "default")
    assert where["sessions"][0].startswith(str(agent / "sessions")) and where["sessions"][1] == "$PI_CODING_AGENT_DIR"
    assert where["recall index"] == (str(agent / "recall.db"), "$PI_CODING_AGENT_DIR")
    moved = located(status_json(home, PI_AGENT_HOME=str(home / "agent-home")))
    assert moved["memories"] == (str(home / "agent-home/memories"), "$PI_AGENT_HOME")
    text = run(home, "status", PI_CODING_AGENT_DIR=str(agent)).stdout
    assert f"memories: {home / '.pi/agent/memories'} (not there yet) ← default" in text
    assert not (home / ".pi").exists() and not agent.exists()  # status created nothing


def test_settings_and_flags_are_named_as_the_choosers(home: Path) -> None:
    file = settings(home, {"pi-memory": {"dataDir": str(home / "notes")},
                           "pi-memory-recall": {"url": str(home / "idx.db")}})
    where = located(status_json(home))
    assert where["memories"] == (str(home / "notes"), f"settings {file} (pi-memory.dataDir)")
    assert where["recall index"] == (str(home / "idx.db"), f"settings {file} (pi-memory-recall.url)")
    (home / "given").mkdir()
    assert located(status_json(home, "--dir", str(home / "given")))["memories"] == (str(home / "given"), "flag --dir")


@pytest.mark.slow
def test_reads_create_nothing_and_a_missing_dir_is_created_by_the_first_write(home: Path) -> None:
    for command in (("read",), ("read", "user"), ("recall", "status"), ("recall", "search", "tea"),
                    ("dream", "--dry-run", "--model", "scripted/x")):
        assert run(home, *command).returncode in (0, 1)
        assert not (home / ".pi").exists(), command
    missing = home / "new-memory"
    for command in (("read",), ("status",)):
        proc = run(home, "--dir", str(missing), *command)
        assert proc.returncode == 2 and "does not exist" in proc.stderr and not missing.exists()
    proc = run(home, "--dir", str(missing), "add", "Project uses pnpm")
    assert proc.returncode == 0 and f"Created the memory directory {missing}." in proc.stderr
    assert (missing / "MEMORY.md").read_text() == "Project uses pnpm"
    again = run(home, "--dir", str(missing), "add", "Second fact")
    assert again.returncode == 0 and "Created" not in again.stderr


IN_MEMORY_SESSION = textwrap.dedent('''
    import asyncio
    from pi_memory.host import SessionRuntime
    from pi_memory.providers import ScriptedProvider, scripted_model
    from pi_memory.session import SessionManager

    async def main():
        provider = ScriptedProvider(["Noted.", {"tool_calls": [{"name": "search_memory",
                                                                "arguments": {"query": "tea"}}]}, "Tea."])
        runtime = await SessionRuntime.create(session_manager=SessionManager.in_memory("/tmp"),
                                              model=scripted_model(), provider=provider)  # default extensions
        for prompt in ("I drink green tea.", "What do I drink?"):
            await runtime.prompt(prompt)
        print(sorted(runtime.runner.tools))
        await runtime.shutdown()

    asyncio.run(main())
''')


def test_an_in_memory_session_leaves_nothing_on_disk(home: Path) -> None:
    script = home / "project" / "session.py"
    script.write_text(IN_MEMORY_SESSION)
    environ = {k: v for k, v in os.environ.items() if k not in _CLEAR}
    proc = subprocess.run([sys.executable, str(script)], cwd=home / "project", env={**environ, "HOME": str(home)},
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "search_memory" in proc.stdout and "memory_add" in proc.stdout  # the extensions did load
    assert not (home / ".pi").exists()


# --- dreaming -------------------------------------------------------------------------------


def test_status_says_why_dreaming_is_off_and_what_fixes_it(home: Path) -> None:
    report = status_json(home)["dreaming"]
    assert report["on"] is False and report["reason"] == "no-auth" and report["model"] == "openai/gpt-4.1-mini"
    assert "OPENAI_API_KEY" in report["message"] and "pi-memory.dreaming.model" in report["message"]
    assert "Dreaming is off:" in run(home, "status").stdout
    settings(home, {"pi-memory": {"dreaming": {"model": "local/m"}},
                    "providers": {"local": {"baseUrl": "http://127.0.0.1:1/v1", "models": [{"id": "m"}]}}})
    assert status_json(home)["dreaming"] == {"on": True, "model": "local/m", "reason": None, "message": None}


def test_chat_and_memory_status_say_once_that_dreaming_is_off(home: Path, server: Any) -> None:
    settings(home, {"providers": {"loop": {"baseUrl": server.url + "/v1", "models": [{"id": "m"}]}}})
    answer(server)
    printed = run(home, "chat", "-p", "hi", "--model", "loop/m")
    assert printed.returncode == 0, printed.stderr
    assert printed.stderr.count("Dreaming is off") == 1 and "OPENAI_API_KEY" in printed.stderr
    interactive = run(home, "chat", "--model", "loop/m", stdin="/memory status\n/new\n/quit\n")
    assert interactive.returncode == 0, interactive.stderr
    shown = interactive.stdout + interactive.stderr
    # once at start (not again after /new), and once more because /memory status was asked
    assert shown.count("Dreaming is off") == 2
    assert "MEMORY.md: 0 entries" in shown


@pytest.mark.slow
def test_an_unreachable_dreaming_model_is_named_with_its_url(home: Path, server: Any) -> None:
    dead = loopback.free_url()
    settings(home, {"providers": {"loop": {"baseUrl": server.url + "/v1", "models": [{"id": "m"}]},
                                  "dead": {"baseUrl": dead + "/v1", "models": [{"id": "m"}]}},
                    "pi-memory": {"dreaming": {"model": "dead/m"}}})
    answer(server)
    assert run(home, "chat", "-p", "remember that I like tea", "--model", "loop/m").returncode == 0
    dreamt = run(home, "dream", "--json")
    assert dreamt.returncode == 1 and f"{dead}/v1/chat/completions" in json.loads(dreamt.stdout)["message"]
    report = status_json(home)["dreaming"]
    assert report["reason"] == "unreachable" and f"{dead}/v1/chat/completions" in report["message"]
    assert "baseUrl" in report["message"]
    answer(server)
    printed = run(home, "chat", "-p", "hi", "--model", "loop/m")
    assert printed.stderr.count("Dreaming is off") == 1 and dead in "".join(printed.stderr.split("\n"))


def test_a_dream_with_nothing_new_does_not_call_the_model(home: Path, server: Any) -> None:
    settings(home, {"providers": {"loop": {"baseUrl": server.url + "/v1", "models": [{"id": "m"}]}},
                    "pi-memory": {"dreaming": {"model": "loop/m"}}})
    empty = run(home, "dream", "--json")
    assert empty.returncode == 1 and json.loads(empty.stdout)["reason"] == "nothing-new" and server.requests == []
    answer(server)
    assert run(home, "chat", "-p", "I like tea", "--model", "loop/m").returncode == 0
    answer(server, "Nothing worth keeping.")
    first = run(home, "dream", "--json")
    assert first.returncode == 0, first.stdout + first.stderr
    calls = len(server.requests)
    again = run(home, "dream", "--json")
    assert json.loads(again.stdout)["reason"] == "nothing-new" and len(server.requests) == calls
