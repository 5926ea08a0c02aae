"""What a newcomer sees in a terminal, through real ``pi-memory`` subprocesses: help shows flags as
flags, counts read "1 entry", the chat banner has no dangling separator, output that is not a
terminal is never hard-wrapped (paths and JSON snippets stay copyable), ``recall search`` takes the
Python API's filters, and the chat's system prompt lists each tool once, cleanly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import loopback
from pi_memory.memory import MEMORY_GUIDANCE
from pi_memory.recall import SQLiteIndex

PI_MEMORY = str(Path(sys.executable).parent / "pi-memory")
TESTS = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path | None = None, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {key: value for key, value in os.environ.items() if key != "COLUMNS"}  # rich's default width
    environ.update(env)
    return subprocess.run([PI_MEMORY, *args], cwd=cwd, input=stdin, capture_output=True, text=True, env=environ,
                          timeout=120)


# ----------------------------------------------------------------------------- help


@pytest.mark.parametrize("command", [[], ["status"], ["read"], ["chat"], ["dream"], ["mcp"], ["recall", "search"],
                                     ["recall", "index"], ["db", "status"]], ids=lambda c: " ".join(c) or "top")
def test_help_shows_flags_without_a_value(command: list[str]) -> None:
    shown = run(*command, "--help", COLUMNS="200")
    assert shown.returncode == 0, shown.stderr
    assert "--help" in shown.stdout and "<bool>" not in shown.stdout
    flag_lines = [line for line in shown.stdout.splitlines() if "--json " in line or "--help " in line]
    assert flag_lines and all("<" not in line.split("--", 1)[1].split("  ")[0] for line in flag_lines)


# ----------------------------------------------------------------------------- /memory and the chat banner


def test_memory_status_says_1_entry(tmp_path: Path) -> None:
    assert run("add", "Project uses pytest").returncode == 0
    assert run("add", "user", "Prefers short answers").returncode == 0
    chat = run("chat", "--model", "scripted/echo", cwd=tmp_path, stdin="/memory status\n/quit\n")
    assert chat.returncode == 0, chat.stderr
    assert "MEMORY.md: 1 entry (" in chat.stdout and "USER.md: 1 entry (" in chat.stdout
    assert "1 entries" not in chat.stdout


def test_chat_banner_and_a_long_session_path_print_whole(tmp_path: Path) -> None:
    """Piped output is not a terminal: the session path (far over 80 columns) stays on one line."""
    project = tmp_path / ("a-project-folder-with-a-rather-long-name-" * 3).rstrip("-")
    project.mkdir()
    chat = run("chat", "--model", "scripted/echo", cwd=project, stdin="/quit\n")
    assert chat.returncode == 0, chat.stderr
    lines = chat.stdout.splitlines()
    assert "pi-memory chat · scripted/echo" in lines
    assert not any(line.rstrip().endswith("·") for line in lines)
    session = next(line for line in lines if line.startswith("Session: "))
    path = Path(session.removeprefix("Session: "))
    assert len(str(path)) > 120 and path.suffix == ".jsonl" and project.name.replace("-", "") in str(path).replace(
        "-", "")


def test_an_error_hints_json_snippet_is_not_wrapped(tmp_path: Path) -> None:
    failed = run("chat", "-p", "hi", "--model", "nowhere/some-model", cwd=tmp_path)
    assert failed.returncode != 0
    line = next(line for line in failed.stderr.splitlines() if '{"providers"' in line)
    snippet = json.loads(line[line.index('{"providers"'):].rstrip(" ."))
    assert "nowhere" in snippet["providers"]


# ----------------------------------------------------------------------------- recall search filters


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "recall.db"
    rows = [("s1:a", "user", "2025-03-02T10:00:00.000Z", "s1"),
            ("s1:b", "assistant", "2025-03-02T10:00:04.000Z", "s1"),
            ("s2:a", "user", "2025-03-05T18:00:00.000Z", "s2"),
            ("s3:a", "toolResult", "2025-03-06T09:30:00.000Z", "s3")]
    with SQLiteIndex(path) as built:
        built.add([{"id": id_, "text": f"The staging deploy note number {n}", "role": role, "timestamp": stamp,
                    "session_id": session} for n, (id_, role, stamp, session) in enumerate(rows)])
    yield path


def found(index: Path, *filters: str) -> set[str]:
    searched = run("recall", "search", "staging deploy", "--index", str(index), "--top-k", "10", "--json", *filters)
    assert searched.returncode == 0, searched.stderr
    return {hit["id"] for hit in json.loads(searched.stdout)["hits"]}


@pytest.mark.slow
def test_recall_search_filters_like_the_python_api(index: Path) -> None:
    assert found(index) == {"s1:a", "s1:b", "s2:a", "s3:a"}
    assert found(index, "--since", "2025-03-03") == {"s2:a", "s3:a"}
    assert found(index, "--until", "2025-03-05T18:00Z") == {"s1:a", "s1:b"}  # exclusive
    assert found(index, "--since", "2025-03-02T11:00:00+01:00", "--until", "2025-03-02T10:00:01Z") == {"s1:a"}
    assert found(index, "--role", "user", "--role", "toolResult") == {"s1:a", "s2:a", "s3:a"}
    assert found(index, "--session", "s1") == {"s1:a", "s1:b"}
    assert found(index, "--session", "s1", "--session", "s3", "--role", "toolResult") == {"s3:a"}


def test_recall_search_refuses_a_time_it_cannot_read(index: Path) -> None:
    refused = run("recall", "search", "deploy", "--index", str(index), "--since", "last tuesday")
    assert refused.returncode == 2 and "--since" in refused.stderr and "last tuesday" in refused.stderr


# ----------------------------------------------------------------------------- the chat system prompt


EXTENSION = '''
def extension(pi, config=None):
    pi.register_tool({"name": "get_weather", "description": "Current weather for a city",
                      "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
                      "execute": lambda args: "Sunny"})
    pi.register_tool({"name": "get_time", "description": "The time in a city", "promptSnippet": "  Tell the time.  ",
                      "promptGuidelines": ["Ask for the city first.", "  Ask for the city first.  ", ""],
                      "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
                      "execute": lambda args: "Noon"})
'''


def test_the_chat_system_prompt_lists_each_tool_once(tmp_path: Path, _isolated_home: Path, server: Any) -> None:
    agent = _isolated_home / ".pi" / "agent"
    agent.mkdir(parents=True, exist_ok=True)
    (agent / "settings.json").write_text(json.dumps({"providers": {"loop": {
        "api": "openai-completions", "baseUrl": server.url + "/v1", "apiKey": "sk-test",
        "models": [{"id": "m1", "contextWindow": 100000}]}}}))
    extension = tmp_path / "tools.py"
    extension.write_text(EXTENSION)
    server.openai_stream([loopback.chunk({"role": "assistant", "content": "Hello."}), loopback.chunk({}, "stop")])
    chat = run("chat", "-p", "hi", "--model", "loop/m1", "-e", str(extension), cwd=tmp_path)
    assert chat.returncode == 0, chat.stderr
    prompt = server.requests[0].body["messages"][0]["content"]
    assert isinstance(prompt, str)
    listed = prompt.split("Available tools:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    names = [line.removeprefix("- ").split(":", 1)[0] for line in listed]
    # memory, recall and decay (installed) plus get_time; get_weather has no snippet, so pi leaves it out
    assert sorted(names) == sorted({"memory_add", "memory_replace", "memory_remove", "memory_read",
                                    "search_memory", "get_important_memories", "get_time"})
    for line, name in zip(listed, names, strict=True):
        snippet = line.removeprefix(f"- {name}: ")
        assert snippet == snippet.strip() and not snippet.startswith(f"{name}:"), line
    assert "- get_time: Tell the time." in listed
    rules = prompt.split("Guidelines:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert all(rule.startswith("- ") and not rule.startswith("- #") for rule in rules), rules
    assert rules.count("- Ask for the city first.") == 1 and "- " not in rules
    assert prompt.count("# Memory Guidance") == 1 and MEMORY_GUIDANCE.strip() in prompt
