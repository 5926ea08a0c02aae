"""The real Codex CLI (``@openai/codex``, pinned in ``package.json``) with the Codex snippets of
``docs/mcp.md``.

* ``codex mcp add pi-memory -- pi-memory mcp`` writes exactly the TOML the docs show, and ``codex
  mcp list --json`` reads both documented tables (stdio and streamable HTTP) as intended.
* End to end: ``codex exec`` with the documented table in ``config.toml`` and a model provider whose
  ``base_url`` is a loopback server speaking the OpenAI Responses wire format. The scripted "model"
  calls ``memory_add`` once Codex offers it; Codex launches ``pi-memory mcp`` itself, forwards the
  call, and the entry lands in ``~/.pi/agent/memories/USER.md`` of the temporary HOME.

Nothing leaves the machine: Codex's home, the user's HOME and the model are all local, and no
API key is set. Codex starts MCP servers in the background, so the scripted model keeps Codex busy
with a harmless built-in tool (``get_goal``) until the pi-memory tools appear in a request.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import threading
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytestmark = pytest.mark.interop

ROOT = Path(__file__).resolve().parents[2]
CODEX = ROOT / "tests" / "interop" / "node_modules" / ".bin" / "codex"
VENV_BIN = Path(sys.executable).parent
#: How Codex 0.171 files an MCP server's tools: a namespace named after the server.
NAMESPACE = "mcp__pi_memory"
#: Steps the scripted model waits for the MCP tools before giving up (each a real round trip).
MAX_WAITING_STEPS = 300


def _doc_snippets() -> ModuleType:
    """``tests/mcp/doc_snippets.py`` (the same reader the snippet tests use)."""
    if "doc_snippets" in sys.modules:
        return sys.modules["doc_snippets"]
    spec = importlib.util.spec_from_file_location("doc_snippets", ROOT / "tests" / "mcp" / "doc_snippets.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules["doc_snippets"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


snippets = _doc_snippets()


def codex_snippet(lang: str, section: str = "Setup") -> str:
    found = [s.text for s in snippets.snippets() if s.section == section and s.lang == lang
             and (s.client == "Codex" or (section != "Setup" and "mcp_servers" in s.text))]
    assert len(found) == 1, f"one Codex {lang} snippet under {section}, found {len(found)}"
    return str(found[0])


@pytest.fixture
def codex_env(tmp_path: Path) -> dict[str, str]:
    """Codex's home and the user's HOME in ``tmp_path``; this checkout's ``pi-memory`` on PATH."""
    if not CODEX.exists():
        pytest.fail(f"{CODEX} is missing: run `bash scripts/test.sh` (npm ci --prefix tests/interop)")
    (tmp_path / "codex").mkdir()
    (tmp_path / "home").mkdir()
    (tmp_path / "work").mkdir()
    keep = {k: v for k, v in os.environ.items() if k in ("LANG", "LC_ALL", "TERM", "TMPDIR")}
    return {**keep, "HOME": str(tmp_path / "home"), "CODEX_HOME": str(tmp_path / "codex"),
            "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


def codex(env: dict[str, str], *args: str, cwd: Path | None = None,
          timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CODEX), *args], env=env, cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=timeout)


def test_codex_mcp_add_writes_the_documented_table(codex_env: dict[str, str]) -> None:
    line = codex_snippet("bash").strip()
    assert line.startswith("codex ")
    proc = codex(codex_env, *line.split()[1:])
    assert proc.returncode == 0, proc.stderr
    written = (Path(codex_env["CODEX_HOME"]) / "config.toml").read_text(encoding="utf-8")
    assert tomllib.loads(written) == tomllib.loads(codex_snippet("toml"))


@pytest.mark.parametrize(
    ("section", "transport"),
    [("Setup", {"type": "stdio", "command": "pi-memory", "args": ["mcp"]}),
     ("Streamable HTTP", {"type": "streamable_http", "url": "http://127.0.0.1:8765/mcp",
                          "bearer_token_env_var": "PI_MEMORY_MCP_TOKEN"})],
)
def test_codex_reads_the_documented_tables(codex_env: dict[str, str], section: str, transport: dict[str, Any]) -> None:
    (Path(codex_env["CODEX_HOME"]) / "config.toml").write_text(codex_snippet("toml", section), encoding="utf-8")
    proc = codex(codex_env, "mcp", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    [server] = json.loads(proc.stdout)
    assert server["name"] == "pi-memory" and server["enabled"] is True
    assert {k: server["transport"][k] for k in transport} == transport


# ----------------------------------------------------------------------------- end to end


def _sse(kind: str, **body: Any) -> bytes:
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **body})}\n\n".encode()


_USAGE = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
          "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}


@dataclass
class ScriptedResponses:
    """A loopback ``POST /v1/responses`` endpoint: waits (``get_goal``) until Codex offers the
    pi-memory tools, calls ``memory_add`` once, then answers with the tool's output."""

    requests: list[dict[str, Any]] = field(default_factory=list)
    mcp_tools: list[str] = field(default_factory=list)

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        n = len(self.requests)
        outputs = {item.get("call_id"): item.get("output") for item in body.get("input", [])
                   if item.get("type") == "function_call_output"}
        namespace = next((t for t in body.get("tools", []) if t.get("type") == "namespace"
                          and t.get("name") == NAMESPACE), None)
        if "call_mem" in outputs:
            text = f"TOOL OUTPUT: {outputs['call_mem']}"
            return {"type": "message", "role": "assistant", "id": f"msg_{n}", "status": "completed",
                    "content": [{"type": "output_text", "text": text, "annotations": []}]}
        if namespace is not None:
            self.mcp_tools = [tool["name"] for tool in namespace["tools"]]
            return {"type": "function_call", "id": f"fc_{n}", "call_id": "call_mem", "namespace": NAMESPACE,
                    "name": "memory_add", "status": "completed",
                    "arguments": json.dumps({"target": "user", "content": "Prefers tabs (via Codex)"})}
        if n > MAX_WAITING_STEPS:
            return {"type": "message", "role": "assistant", "id": f"msg_{n}", "status": "completed",
                    "content": [{"type": "output_text", "text": "GAVE UP: no pi-memory tools", "annotations": []}]}
        return {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_wait_{n}", "name": "get_goal",
                "arguments": "{}", "status": "completed"}


@pytest.fixture
def responses_server() -> Iterator[tuple[ScriptedResponses, str]]:
    script = ScriptedResponses()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
            if self.path != "/v1/responses":
                self.send_error(404)
                return
            with lock:
                item = script.reply(body)
                script.requests.append(body)
                rid = f"resp_{len(script.requests)}"
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("connection", "close")
            self.end_headers()
            self.wfile.write(_sse("response.created", response={"id": rid}))
            self.wfile.write(_sse("response.output_item.done", output_index=0, item=item))
            self.wfile.write(_sse("response.completed", response={"id": rid, "usage": _USAGE}))
            self.wfile.flush()
            self.close_connection = True

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield script, f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_codex_exec_launches_pi_memory_from_the_documented_table_and_calls_a_tool(
    codex_env: dict[str, str], responses_server: tuple[ScriptedResponses, str], tmp_path: Path
) -> None:
    script, base_url = responses_server
    # Top-level keys first, then the provider table, then the documented table exactly as written.
    text = (
        'model = "scripted"\nmodel_provider = "loopback"\n\n'
        f'[model_providers.loopback]\nname = "loopback"\nbase_url = "{base_url}"\nwire_api = "responses"\n'
        "request_max_retries = 0\nstream_max_retries = 0\n\n" + codex_snippet("toml")
    )
    (Path(codex_env["CODEX_HOME"]) / "config.toml").write_text(text, encoding="utf-8")

    proc = codex(codex_env, "exec", "--skip-git-repo-check", "Remember that I prefer tabs.",
                 cwd=tmp_path / "work", timeout=300)

    assert proc.returncode == 0, proc.stderr[-4000:]
    assert script.mcp_tools == ["get_important_memories", "memory_add", "memory_read", "memory_remove",
                                "memory_replace", "search_memory"]
    assert "mcp: pi-memory/memory_add (completed)" in proc.stderr
    final = proc.stdout.strip()
    assert final.startswith("TOOL OUTPUT:") and '"success":true' in final, final
    user_md = Path(codex_env["HOME"]) / ".pi" / "agent" / "memories" / "USER.md"
    assert user_md.read_text(encoding="utf-8") == "Prefers tabs (via Codex)"
