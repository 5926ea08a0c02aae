"""Labelling tool results on a terminal when the calls of one message run at the same time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ConcurrentCalls:
    """Tracks the open tool calls of a batch, so a result line can say which call it belongs to.

    A lone call reads ``▶ tool(args)`` then ``✓ result``; once two calls of a message are open at
    once (the host runs them concurrently), every result of that batch is prefixed ``tool: ``
    until the batch is done."""

    def __init__(self) -> None:
        self._open: list[str] = []
        self._overlap = False

    def started(self, event: Mapping[str, Any]) -> None:
        self._overlap = self._overlap or bool(self._open)
        self._open.append(str(event.get("toolCallId")))

    def ended(self, event: Mapping[str, Any]) -> str:
        """The label for this result line: ``"tool: "`` inside an overlapping batch, else ``""``."""
        call_id = str(event.get("toolCallId"))
        if call_id in self._open:
            self._open.remove(call_id)
        label = f"{event.get('toolName')}: " if self._overlap else ""
        if not self._open:
            self._overlap = False
        return label
