"""What ``pi-memory chat`` shows on a terminal: :class:`ConsoleUI` is ``ctx.ui`` there (notices
printed, dialogs answered on stdin), :class:`Renderer` streams the assistant's text and shows tool
calls as they run. The chat loop itself is in :mod:`pi_memory.cli.chat`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

from pi_memory.base import content_text
from pi_memory.cli.calls import ConcurrentCalls
from pi_memory.host import Event
from pi_memory.host.types import NotifyLevel

__all__ = ["STYLES", "ConsoleUI", "Renderer", "clip"]

#: The colour of each notice level.
STYLES = {"info": "cyan", "warning": "yellow", "error": "red"}


class ConsoleUI:
    """``ctx.ui`` on a terminal: notices printed, dialogs answered on stdin."""

    has_ui = True

    def __init__(self, console: Console) -> None:
        self.console = console
        self.statuses: dict[str, str] = {}

    def notify(self, message: str, level: NotifyLevel = "info") -> None:
        self.console.print(f"[{STYLES.get(level, 'cyan')}]{escape(message)}[/]")

    def set_status(self, key: str, text: str | None) -> None:
        if text is None:
            self.statuses.pop(key, None)
        else:
            self.statuses[key] = text
            self.console.print(f"[dim]{escape(key)}: {escape(text)}[/]")

    async def _ask(self, prompt: str) -> str | None:
        try:
            return await asyncio.to_thread(input, prompt)
        except EOFError:
            return None

    async def confirm(self, title: str, message: str, *, timeout: float | None = None) -> bool:
        self.console.print(f"[bold]{escape(title)}[/] {escape(message)}")
        answer = await self._ask("[y/N] ")
        return (answer or "").strip().lower() in ("y", "yes")

    async def select(self, title: str, options: Sequence[str], *, timeout: float | None = None) -> str | None:
        self.console.print(f"[bold]{escape(title)}[/]")
        for n, option in enumerate(options, 1):
            self.console.print(f"  {n}. {escape(option)}")
        answer = (await self._ask("number> ") or "").strip()
        return options[int(answer) - 1] if answer.isdigit() and 0 < int(answer) <= len(options) else None

    async def input(self, title: str, placeholder: str | None = None) -> str | None:
        return await self._ask(f"{title}{f' ({placeholder})' if placeholder else ''}: ")


class Renderer:
    """Streams assistant text and shows tool calls as they run."""

    def __init__(self, console: Console, err: Console, stream: bool) -> None:
        self.console, self.err, self.stream = console, err, stream
        self._open_line = False
        self._calls = ConcurrentCalls()

    def __call__(self, event: Event) -> None:
        kind = event["type"]
        if kind == "message_update" and self.stream:
            update = event["assistantMessageEvent"]
            if update["type"] == "text_delta":
                self.console.file.write(update["delta"])
                self.console.file.flush()
                self._open_line = True
        elif kind == "message_end" and event["message"].get("role") == "assistant":
            self._end_line()
            message = event["message"]
            if message.get("stopReason") in ("error", "aborted"):
                self.err.print(f"[red]{escape(str(message.get('errorMessage') or message.get('stopReason')))}[/]")
        elif kind == "tool_execution_start" and self.stream:
            self._end_line()
            self._calls.started(event)
            args = json.dumps(event.get("args") or {}, ensure_ascii=False)
            self.console.print(f"[dim cyan]→ {escape(str(event['toolName']))}({escape(clip(args, 200))})[/]")
        elif kind == "tool_execution_end" and self.stream:
            result = event["result"]
            text = clip(content_text(result.content).replace("\n", " "), 200)
            style = "red" if event.get("isError") else "dim"
            self.console.print(f"[{style}]← {escape(self._calls.ended(event) + text)}[/]")
        elif kind == "auto_compaction_start" and self.stream:
            self.console.print(f"[dim]compacting ({escape(str(event.get('reason')))})…[/]")

    def _end_line(self) -> None:
        if self._open_line:
            self.console.file.write("\n")
            self.console.file.flush()
            self._open_line = False


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the last one an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
