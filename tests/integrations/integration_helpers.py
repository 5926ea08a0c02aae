"""A loopback server speaking the Anthropic Messages API, for the integration tests.

The real SDK client talks to it over TCP, so the request the SDK builds (tools, ``system``, the
``tool_result`` blocks of the memory round trip) and the response it parses are the SDK's own;
only the model is scripted: each test queues the assistant turns and inspects what arrived.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class MessagesServer:
    """``POST /v1/messages``: records each request body, answers with the next queued message."""

    def __init__(self) -> None:
        self.replies: list[dict[str, Any]] = []
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
                server.requests.append(body)
                if server.replies:
                    status, payload = 200, server.replies.pop(0)
                else:
                    status, payload = 500, {"type": "error", "error": {"type": "api_error", "message": "no reply"}}
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.01,), daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _message(self, content: list[dict[str, Any]], stop: str) -> None:
        n = len(self.replies) + len(self.requests) + 1
        self.replies.append({
            "id": f"msg_{n}", "type": "message", "role": "assistant", "model": "claude-test",
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5},
        })

    def tool_use(self, tool_input: dict[str, Any], *, tool_id: str = "toolu_1", name: str = "memory") -> None:
        """Queue an assistant turn calling ``name`` with ``tool_input``."""
        self._message([{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}], "tool_use")

    def text(self, text: str) -> None:
        """Queue a final assistant turn."""
        self._message([{"type": "text", "text": text}], "end_turn")


def tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``tool_result`` blocks of a request's last user message."""
    last = request["messages"][-1]
    assert last["role"] == "user"
    return [block for block in last["content"] if block.get("type") == "tool_result"]


def result_text(block: dict[str, Any]) -> str:
    """A ``tool_result`` block's text, whether its content is a string or text blocks."""
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content or [])


def system_text(request: dict[str, Any]) -> str:
    system = request.get("system", "")
    return system if isinstance(system, str) else "".join(block.get("text", "") for block in system)

