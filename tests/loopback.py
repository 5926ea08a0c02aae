"""The one loopback HTTP server of the suite: it speaks the OpenAI and Anthropic wire formats.

The real SDK clients talk to it over TCP, so every byte of request building and SSE parsing is the
SDKs' own; only the model is scripted. Each test queues responses (streamed or whole, in either
vendor's format) and then inspects what the server received. The ``server`` and ``refused_url``
fixtures in tests/conftest.py hand it to every folder.
"""

from __future__ import annotations

import json
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    chunks: list[bytes] = field(default_factory=list)
    content_type: str = "text/event-stream"
    delay: float = 0.0  # seconds before each chunk after the first
    hold_open: float = 0.0  # keep the connection open this long after the last chunk


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: Any


class FakeLLMServer:
    """``POST`` anything: records each request (:class:`Received`), answers with the next queued :class:`Reply`."""

    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.requests: list[Received] = []
        self.release = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                server.requests.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()},
                                                json.loads(raw)))
                reply = server.replies.pop(0) if server.replies else Reply(500, [b'{"error":"no reply queued"}'],
                                                                          "application/json")
                self.send_response(reply.status)
                self.send_header("content-type", reply.content_type)
                # the connection is closed after every answer, so every answer says so: a client
                # that kept it for the next request raced the close ("Server disconnected")
                self.send_header("connection", "close")
                if reply.content_type != "text/event-stream":
                    self.send_header("content-length", str(sum(len(c) for c in reply.chunks)))
                self.end_headers()
                try:
                    for n, chunk in enumerate(reply.chunks):
                        if n and reply.delay:
                            server.release.wait(reply.delay)
                        self.wfile.write(chunk)
                        self.wfile.flush()
                    if reply.hold_open:
                        server.release.wait(reply.hold_open)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.01,), daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    # --- replies in each wire format ----------------------------------------------------------

    def openai_stream(self, chunks: list[dict[str, Any] | bytes], *, done: bool = True, **kw: Any) -> None:
        """``data: {chunk}`` events, then ``data: [DONE]``; raw bytes are sent as given."""
        body = [c if isinstance(c, bytes) else b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks]
        if done:
            body.append(b"data: [DONE]\n\n")
        self.replies.append(Reply(chunks=body, **kw))

    def anthropic_stream(self, events: list[dict[str, Any] | bytes], **kw: Any) -> None:
        """``event: <type>`` + ``data: {event}`` pairs, as the Messages API streams them."""
        body = [e if isinstance(e, bytes) else f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode()
                for e in events]
        self.replies.append(Reply(chunks=body, **kw))

    def json_reply(self, status: int, body: Any) -> None:
        self.replies.append(Reply(status, [json.dumps(body).encode()], "application/json"))

    @property
    def bodies(self) -> list[Any]:
        """The JSON body of every request received, in order."""
        return [received.body for received in self.requests]

    # --- whole Anthropic Messages replies (the integrations' SDK clients do not stream) --------

    def anthropic_message(self, content: list[dict[str, Any]], stop: str) -> None:
        """Queue one ``message`` object as ``POST /v1/messages`` returns it."""
        n = len(self.replies) + len(self.requests) + 1
        self.json_reply(200, {
            "id": f"msg_{n}", "type": "message", "role": "assistant", "model": "claude-test",
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5},
        })

    def tool_use(self, tool_input: dict[str, Any], *, tool_id: str = "toolu_1", name: str = "memory") -> None:
        """Queue an Anthropic assistant turn calling ``name`` with ``tool_input``."""
        self.anthropic_message([{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}], "tool_use")

    def text(self, text: str) -> None:
        """Queue a final Anthropic assistant turn."""
        self.anthropic_message([{"type": "text", "text": text}], "end_turn")


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, *, usage: dict[str, Any] | None = None,
          choices: bool = True) -> dict[str, Any]:
    """One ``chat.completion.chunk`` as OpenAI sends it."""
    body: dict[str, Any] = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1700000000,
                            "model": "test-model"}
    body["choices"] = [{"index": 0, "delta": delta or {}, "finish_reason": finish}] if choices else []
    if usage is not None:
        body["usage"] = usage
    return body


def free_url() -> str:
    """A loopback URL where nothing listens."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"
