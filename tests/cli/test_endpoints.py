"""Where ``pi-memory chat`` and ``pi-memory dream`` send their requests: ``OPENAI_BASE_URL`` /
``ANTHROPIC_BASE_URL`` for the built-in providers, ``--base-url`` / ``--api-key`` over both, a
connection error that names the URL it tried, and a missing key that exits 2 (a configuration
problem). Real ``pi-memory`` subprocesses, the real SDKs, a loopback server in their wire formats."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import loopback

TESTS = Path(__file__).resolve().parents[1]
PI_MEMORY = str(Path(sys.executable).parent / "pi-memory")
_KEYS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OPENROUTER_API_KEY")


def flat(text: str) -> str:
    """Output with the terminal's line wrapping undone."""
    return "".join(text.split("\n"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


def run(project: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in _KEYS}
    environ.update(env)
    return subprocess.run([PI_MEMORY, *args], cwd=project, env=environ, capture_output=True, text=True, timeout=60)


def chat(project: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return run(project, "chat", "--no-extensions", "-p", "hi", *args, **env)


def answer(server: Any, text: str = "hello") -> None:
    server.openai_stream([loopback.chunk({"role": "assistant", "content": text}), loopback.chunk({}, "stop")])


def test_openai_base_url_moves_the_builtin_openai_provider(project: Path, server: Any) -> None:
    answer(server)
    proc = chat(project, "--model", "openai/x", OPENAI_BASE_URL=server.url + "/v1", OPENAI_API_KEY="sk-env")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "hello\n"
    (request,) = server.requests
    assert request.path == "/v1/chat/completions" and request.body["model"] == "x"
    assert request.headers["authorization"] == "Bearer sk-env"


def test_anthropic_base_url_moves_the_builtin_anthropic_provider(project: Path, server: Any) -> None:
    server.anthropic_stream([
        {"type": "message_start", "message": {
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x", "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 3, "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "bonjour"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
         "usage": {"output_tokens": 2}},
        {"type": "message_stop"}])
    proc = chat(project, "--model", "anthropic/claude-x", ANTHROPIC_BASE_URL=server.url,
                ANTHROPIC_API_KEY="sk-ant-env")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "bonjour\n"
    (request,) = server.requests
    assert request.path == "/v1/messages"
    assert request.headers["authorization"] == "Bearer sk-ant-env"  # anthropic 2.x: a bearer token


def test_base_url_and_api_key_flags_win_over_the_environment(project: Path, server: Any, refused_url: str) -> None:
    answer(server)
    proc = chat(project, "--model", "openai/x", "--base-url", server.url + "/v1", "--api-key", "sk-flag",
                OPENAI_BASE_URL=refused_url + "/v1", OPENAI_API_KEY="sk-env")
    assert proc.returncode == 0, proc.stderr
    assert server.requests[0].headers["authorization"] == "Bearer sk-flag"


def test_base_url_flag_makes_an_unknown_provider_openai_compatible(project: Path, server: Any) -> None:
    answer(server, "local answer")
    proc = chat(project, "--model", "local/qwen3:8b", "--base-url", server.url + "/v1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "local answer\n" and server.requests[0].body["model"] == "qwen3:8b"


def test_a_connection_error_names_the_url_it_tried(project: Path, refused_url: str) -> None:
    proc = chat(project, "--model", "openai/x", OPENAI_BASE_URL=refused_url + "/v1", OPENAI_API_KEY="sk-env")
    assert proc.returncode == 1
    assert f"{refused_url}/v1/chat/completions" in flat(proc.stderr)


def test_a_missing_api_key_is_a_configuration_problem(project: Path, server: Any) -> None:
    proc = chat(project, "--model", "openai/gpt-4.1", OPENAI_BASE_URL=server.url + "/v1")
    assert proc.returncode == 2
    assert "OPENAI_API_KEY" in proc.stderr and server.requests == []


def test_flags_without_a_provider_are_a_usage_error(project: Path) -> None:
    proc = chat(project, "--base-url", "http://127.0.0.1:1/v1")
    assert proc.returncode == 2 and "--model provider/model-id" in " ".join(proc.stderr.split())


def test_dream_takes_base_url_and_api_key(project: Path, server: Any) -> None:
    answer(server, "noted")
    assert chat(project, "--model", "local/m", "--base-url", server.url + "/v1").returncode == 0
    answer(server, "Nothing worth keeping.")
    proc = run(project, "dream", "--model", "openai/gpt-4.1-mini", "--base-url", server.url + "/v1",
               "--api-key", "sk-dream", "--json")
    assert proc.returncode == 0, proc.stderr + proc.stdout
    dream_request = server.requests[-1]
    assert dream_request.body["model"] == "gpt-4.1-mini"
    assert dream_request.headers["authorization"] == "Bearer sk-dream"
