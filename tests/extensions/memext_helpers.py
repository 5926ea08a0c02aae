"""Builders for the memory-extension tests: the real host, real session files, the scripted model.

The extension always runs inside :class:`SessionRuntime`; nothing about the ``pi`` object is
faked. The conversation model and the dreaming/extraction model are two scripted providers: the
first answers the runtime, the second is installed in the runtime's model registry under the
``scripted`` API, which is where the extension looks its models up.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from e2e_helpers import write_memory, write_session  # noqa: F401  (re-exported for the extension tests)
from peer_modules import load_test_module  # noqa: F401  (re-exported for the extension tests)
from pi_memory.extensions.memory import MemoryExtension, memory_extension
from pi_memory.host import HeadlessUI, SessionRuntime
from pi_memory.memory import MEMORY_GUIDANCE
from pi_memory.providers import ModelRegistry, Reply, ScriptedProvider, scripted_model
from pi_memory.session import SessionManager

TESTS = Path(__file__).resolve().parents[1]
NO_DREAMS = {"dreaming": {"enabled": False}}
DREAM_MODEL = {"provider": "scripted", "model": "dreamer"}


class Harness:
    """One runtime with the memory extension; ``ext`` is the extension instance the host loaded."""

    def __init__(self, runtime: SessionRuntime, chat: ScriptedProvider, extensions: list[MemoryExtension]) -> None:
        self.runtime, self.chat, self._extensions = runtime, chat, extensions

    @property
    def ext(self) -> MemoryExtension:
        return self._extensions[-1]  # /new, /fork, /reload build a fresh one

    @property
    def ui(self) -> HeadlessUI:
        ui = self.runtime.ui
        assert isinstance(ui, HeadlessUI)
        return ui

    @property
    def session(self) -> SessionManager:
        return self.runtime.session_manager

    async def prompt(self, text: str) -> str:
        """Run one prompt and return the system prompt the model received."""
        before = len(self.chat.requests)
        await self.runtime.prompt(text)
        return self.chat.requests[before].system_prompt

    async def command(self, args: str) -> list[tuple[str, str]]:
        before = len(self.ui.notifications)
        await self.runtime.prompt(f"/memory {args}".rstrip())
        return self.ui.notifications[before:]

    def snapshot_entries(self) -> list[dict[str, Any]]:
        return [e for e in self.session.get_entries()
                if e["type"] == "custom" and e["customType"] == "pi-memory:system-prompt-snapshot"]

    async def close(self) -> None:
        await self.runtime.shutdown()


async def start(tmp_path: Path, config: dict[str, Any] | None = None, *, session: SessionManager | None = None,
                chat: Iterable[Reply] | Callable[..., Reply] | None = None, registry: ModelRegistry | None = None,
                **kwargs: Any) -> Harness:
    """A runtime on a real session directory, the memory extension loaded in-process with ``config``."""
    extensions: list[MemoryExtension] = []
    provider = ScriptedProvider(chat if chat is not None else (lambda context: "ok"))
    sm = session or SessionManager.create(str(tmp_path), str(tmp_path / "sessions"))

    def factory(pi: Any) -> None:
        extensions.append(memory_extension(pi, config))

    runtime = await SessionRuntime.create(cwd=str(tmp_path), session_manager=sm, model=scripted_model(),
                                          provider=provider, factories=[factory], ui=HeadlessUI(),
                                          use_entry_points=False, discover=False, registry=registry, **kwargs)
    return Harness(runtime, provider, extensions)


def dream_registry(script: Iterable[Reply] | Callable[..., Any]) -> tuple[ModelRegistry, ScriptedProvider]:
    """A registry whose ``scripted/*`` models are answered by ``script`` (the dreaming model)."""
    registry = ModelRegistry()
    provider = ScriptedProvider(script)
    registry.set_provider("scripted", provider)
    return registry, provider


def blocked_dreamer(gate: asyncio.Event) -> Callable[..., Any]:
    """A dreaming model that waits for ``gate`` before its first answer (a dream "in progress")."""
    async def reply(context: Any) -> Reply:
        await gate.wait()
        return "Nothing to change."
    return reply


def guidance_count(prompt: str) -> int:
    return prompt.count(MEMORY_GUIDANCE)


def edit_session(path: str, edit: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Rewrite every record of a session file through ``edit`` (a user tampering with it)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    Path(path).write_text("".join(json.dumps(edit(json.loads(line)), ensure_ascii=False) + "\n" for line in lines),
                          encoding="utf-8")
