"""The client setup snippets of ``docs/mcp.md``, read the way each client reads them.

Each snippet is parsed with the client's own format (JSON, TOML, YAML, a shell command line) and
checked for the keys that client requires; what comes out is the exact command line or URL the
client would use, so a test can launch or reach it. A snippet that drifts from its client's format
fails here rather than in a user's config file.

Sources for the formats (checked 2026-11-30): Claude's ``mcpServers`` (the existing tests), Cursor's
``mcpServers`` with ``command``/``args``/``env`` or ``url``/``headers`` (cursor.com/docs/context/mcp),
Codex's ``[mcp_servers.<name>]`` (the real ``codex`` CLI, ``tests/interop/test_codex_interop.py``),
and Goose's ``extensions.<key>`` entries: ``enabled`` plus an ``ExtensionConfig`` tagged by
``type`` whose ``stdio`` variant requires ``name``, ``cmd`` and ``args`` (aaif-goose/goose,
``crates/goose/src/agents/extension.rs`` and ``documentation/docs/guides/config-files.md``).
"""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

DOC = Path(__file__).resolve().parents[2] / "docs" / "mcp.md"
SERVER = "pi-memory"

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
_HEADING = re.compile(r"^(#{2,3}) (.+)$", re.M)
_INLINE = re.compile(r"`([^`\n]+)`")


@dataclass(frozen=True)
class Snippet:
    """One code sample: the ``##``/``###`` headings above it, its language and its text."""

    section: str
    client: str
    lang: str
    text: str
    ordinal: int

    @property
    def id(self) -> str:
        return f"{self.client or self.section}-{self.lang}{self.ordinal}".replace(" ", "_")


@dataclass(frozen=True)
class Launch:
    """A stdio server as a client starts it: ``command`` and ``args``, plus the ``env`` it sets."""

    command: str
    args: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Remote:
    """A streamable-HTTP server as a client reaches it: the URL and the headers it sends."""

    url: str
    headers: dict[str, str]


def snippets(doc: Path = DOC) -> list[Snippet]:
    """Fenced blocks and inline commands (``goose session …``) in document order."""
    text = doc.read_text(encoding="utf-8")
    headings = [(m.start(), len(m.group(1)), m.group(2).strip()) for m in _HEADING.finditer(text)]
    fences = [(m.start(), m.end(), m.group(1), m.group(2)) for m in _FENCE.finditer(text)]
    headings = [h for h in headings if not any(start < h[0] < end for start, end, _, _ in fences)]
    found: list[tuple[int, str, str]] = [(start, lang, body) for start, _, lang, body in fences]
    prose = _FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)  # same offsets, no code blocks
    for match in _INLINE.finditer(prose):
        if match.group(1).startswith("goose session"):
            found.append((match.start(), "shell", match.group(1)))
    out: list[Snippet] = []
    counts: dict[tuple[str, str], int] = {}
    for start, lang, body in sorted(found):
        section = client = ""
        for offset, level, title in headings:
            if offset > start:
                break
            if level == 2:
                section, client = title, ""
            else:
                client = title
        counts[(client or section, lang)] = counts.get((client or section, lang), 0) + 1
        out.append(Snippet(section, client, lang, body, counts[(client or section, lang)]))
    return out


def setup_snippets() -> list[Snippet]:
    """Every sample under ``## Setup`` that configures a client (the per-client subsections)."""
    return [s for s in snippets() if s.section == "Setup" and s.client and s.client != "Any other client"]


def http_snippets() -> list[Snippet]:
    """The client samples under ``## Streamable HTTP`` (not the lines that start the server)."""
    return [s for s in snippets() if s.section == "Streamable HTTP" and not _starts_server(s)]


def http_server_snippet() -> Snippet:
    """The sample that starts the HTTP server (``pi-memory mcp --http …``)."""
    return next(s for s in snippets() if s.section == "Streamable HTTP" and _starts_server(s))


def _starts_server(snippet: Snippet) -> bool:
    return snippet.lang == "bash" and "pi-memory mcp --http" in snippet.text


# ----------------------------------------------------------------------------- stdio, per client


def launch_of(snippet: Snippet) -> Launch:
    """What the client would run for ``snippet``; ``AssertionError`` says what is wrong with it."""
    if snippet.lang == "json":
        return _mcp_servers_json(snippet.text)
    if snippet.lang == "toml":
        return _codex_toml(snippet.text)
    if snippet.lang == "yaml":
        return _goose_yaml(snippet.text)
    if snippet.lang in ("bash", "shell"):
        return _command_line(snippet.text)
    raise AssertionError(f"no reader for a {snippet.lang!r} snippet under {snippet.client!r}")


def _server_entry(servers: Any, where: str) -> dict[str, Any]:
    assert isinstance(servers, dict) and list(servers) == [SERVER], f"{where} must name exactly {SERVER!r}"
    entry = servers[SERVER]
    assert isinstance(entry, dict), f"{where}.{SERVER} must be a table/object"
    return entry


def _strings(value: Any, what: str) -> tuple[str, ...]:
    assert isinstance(value, list) and all(isinstance(v, str) for v in value), f"{what} must be a list of strings"
    return tuple(value)


def _mcp_servers_json(text: str) -> Launch:
    """Claude Desktop, Claude Code (``.mcp.json``) and Cursor: ``{"mcpServers": {name: {command, args}}}``."""
    document = json.loads(text)
    assert list(document) == ["mcpServers"], "the file holds one key, mcpServers"
    entry = _server_entry(document["mcpServers"], "mcpServers")
    known = {"type", "command", "args", "env", "envFile"}
    assert set(entry) <= known, f"unknown keys {sorted(set(entry) - known)}"
    assert entry.get("type", "stdio") == "stdio"
    assert isinstance(entry.get("command"), str), "command is required"
    env = entry.get("env", {})
    assert isinstance(env, dict)
    return Launch(entry["command"], _strings(entry.get("args", []), "args"), dict(env))


_CODEX_STDIO_KEYS = {"command", "args", "env", "env_vars", "cwd", "enabled", "required", "startup_timeout_sec",
                     "tool_timeout_sec", "enabled_tools", "disabled_tools"}


def _codex_toml(text: str) -> Launch:
    """Codex: ``[mcp_servers.<name>]`` with ``command`` and ``args``."""
    document = tomllib.loads(text)
    assert list(document) == ["mcp_servers"], "the table is [mcp_servers.<name>]"
    entry = _server_entry(document["mcp_servers"], "mcp_servers")
    assert set(entry) <= _CODEX_STDIO_KEYS, f"unknown keys {sorted(set(entry) - _CODEX_STDIO_KEYS)}"
    assert isinstance(entry.get("command"), str), "command is required"
    return Launch(entry["command"], _strings(entry.get("args", []), "args"), dict(entry.get("env", {})))


_GOOSE_STDIO_KEYS = {"enabled", "type", "name", "description", "cmd", "args", "envs", "env_keys", "timeout",
                     "bundled", "available_tools", "display_name"}


def _goose_yaml(text: str) -> Launch:
    """Goose: ``extensions.<key>`` = ``enabled`` + a ``type: stdio`` config (``name``, ``cmd``, ``args``)."""
    document = yaml.safe_load(text)
    assert isinstance(document, dict) and list(document) == ["extensions"], "the map is extensions.<key>"
    entry = _server_entry(document["extensions"], "extensions")
    assert set(entry) <= _GOOSE_STDIO_KEYS, f"unknown keys {sorted(set(entry) - _GOOSE_STDIO_KEYS)}"
    assert isinstance(entry.get("enabled"), bool), "enabled (true/false) is required"
    assert entry.get("type") == "stdio", "type must be stdio"
    assert entry.get("name") == SERVER, "name is required (and is the key Goose files it under)"
    assert isinstance(entry.get("cmd"), str), "cmd is required"
    assert "args" in entry, "args is required (an empty list when there are none)"
    timeout = entry.get("timeout")
    assert timeout is None or (isinstance(timeout, int) and not isinstance(timeout, bool) and timeout > 0)
    envs = entry.get("envs", {})
    assert isinstance(envs, dict)
    return Launch(entry["cmd"], _strings(entry["args"], "args"), {str(k): str(v) for k, v in envs.items()})


def _command_line(text: str) -> Launch:
    """``claude mcp add … NAME -- CMD ARGS``, ``codex mcp add NAME -- CMD ARGS`` and
    ``goose session --with-extension "CMD ARGS"``."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    assert len(lines) == 1, "one command line"
    words = shlex.split(lines[0])
    if words[:3] in (["claude", "mcp", "add"], ["codex", "mcp", "add"]):
        assert "--" in words, "the server command follows --"
        split = words.index("--")
        assert words[split - 1] == SERVER, f"the server is named {SERVER!r} right before --"
        command = words[split + 1 :]
    elif words[:2] == ["goose", "session"]:
        assert words[2] == "--with-extension" and len(words) == 4, 'goose session --with-extension "CMD ARGS"'
        command = shlex.split(words[3])
    else:
        raise AssertionError(f"not a client command line: {lines[0]!r}")
    assert command, "a command to launch"
    return Launch(command[0], tuple(command[1:]))


# ----------------------------------------------------------------------------- streamable HTTP


def remote_of(snippet: Snippet, environ: dict[str, str]) -> Remote:
    """The URL and headers a client sends for an HTTP snippet, with ``environ`` expanded the way
    that client expands it (Cursor ``${env:NAME}``, Codex ``bearer_token_env_var``, the shell)."""
    if snippet.lang == "json":
        document = json.loads(snippet.text)
        entry = _server_entry(document["mcpServers"], "mcpServers")
        known = {"type", "url", "headers"}
        assert set(entry) <= known, f"unknown keys {sorted(set(entry) - known)}"
        headers = entry.get("headers", {})
        assert isinstance(entry.get("url"), str) and isinstance(headers, dict)
        expand = re.compile(r"\$\{env:(\w+)\}")
        return Remote(entry["url"], {k: expand.sub(lambda m: environ[m.group(1)], v) for k, v in headers.items()})
    if snippet.lang == "toml":
        entry = _server_entry(tomllib.loads(snippet.text)["mcp_servers"], "mcp_servers")
        assert set(entry) <= {"url", "bearer_token_env_var", "http_headers", "env_http_headers",
                              "startup_timeout_sec", "tool_timeout_sec", "enabled"}, f"unknown keys {sorted(entry)}"
        headers = dict(entry.get("http_headers", {}))
        if "bearer_token_env_var" in entry:
            headers["Authorization"] = f"Bearer {environ[entry['bearer_token_env_var']]}"
        return Remote(entry["url"], headers)
    if snippet.lang == "bash":
        words = shlex.split(snippet.text.replace("\\\n", " "))
        assert words[:3] == ["claude", "mcp", "add"], "a claude mcp add line"
        assert words[words.index("--transport") + 1] == "http"
        url = next(w for w in words if w.startswith("http://") or w.startswith("https://"))
        assert words[words.index(url) - 1] == SERVER, f"the server is named {SERVER!r} right before the URL"
        headers = {}
        for n, word in enumerate(words):
            if word == "--header":
                name, _, value = words[n + 1].partition(":")
                headers[name.strip()] = re.sub(r"\$(\w+)", lambda m: environ[m.group(1)], value.strip())
        return Remote(url, headers)
    raise AssertionError(f"no reader for a {snippet.lang!r} HTTP snippet")
