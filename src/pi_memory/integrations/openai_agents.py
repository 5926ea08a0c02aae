"""The OpenAI Agents SDK: a pi session as the agent's ``Session``, the memory tools as
``FunctionTool``s, and the frozen memory block as ``instructions``.

    from agents import Agent, Runner
    from pi_memory.integrations.openai_agents import PiSession, memory_instructions, memory_tools

    agent = Agent(name="assistant", instructions=memory_instructions(store), tools=memory_tools(store))
    await Runner.run(agent, "hello", session=PiSession("my-chat"))

**How items live in a pi session file.** A ``PiSession`` keeps its history in a pi v3 session
file (``<agentDir>/sessions/--<cwd>--/…_<id>.jsonl``) that ``pi-memory chat --session`` and pi
itself open. A user or assistant *message* item becomes a pi ``message`` entry (text content,
so pi and our host show and continue the conversation) carrying the original item under
``openaiAgentsItem``; every other item (tool calls and their outputs, reasoning, system or
developer messages, which pi would treat as a system-prompt change) becomes a ``custom`` entry
of type ``openai-agents:item``. ``get_items`` returns exactly the items that were added, in
order. A message pi appended itself (someone continued the file in pi) comes back as a plain
``{"role", "content"}`` item.

**Removing on an append-only tree.** A session file only grows. ``pop_item`` moves the leaf to
the entry before the last item and records that with a ``custom`` entry
``openai-agents:pop`` there (a new branch: the popped entry stays in the file, off the current
branch, as pi's ``/tree`` leaves an abandoned branch); ``clear_session`` starts a new root with a
``custom`` entry ``openai-agents:clear``. pi opens a file at its last entry, so both survive a
reopen; neither marker reaches a model.

**Several processes.** Every operation holds the session's lock (the proper-lockfile protocol
the memory files use) and re-reads the file, so two processes adding to one session interleave
their items on one branch and lose none.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agents import FunctionTool, RunContextWrapper
from agents.memory import SessionSettings
from agents.memory.session_settings import resolve_session_limit
from agents.strict_schema import ensure_strict_json_schema

from pi_memory.memory import file_lock, memory_prompt
from pi_memory.recall import RecallService
from pi_memory.recall.backfill import records_from_entries
from pi_memory.session import SessionManager, uuidv7

from .common import PiTool, pi_tools, strict_parameters, tool_arguments
from .sources import MemorySource, open_memory

__all__ = ["CLEAR_TYPE", "ITEM_KEY", "ITEM_TYPE", "POP_TYPE", "PiSession", "memory_instructions", "memory_tools"]

ITEM_KEY = "openaiAgentsItem"
"""The key of a pi message that holds the original Agents SDK item."""
ITEM_TYPE = "openai-agents:item"
POP_TYPE = "openai-agents:pop"
CLEAR_TYPE = "openai-agents:clear"
_MARKERS = (POP_TYPE, CLEAR_TYPE)
_ZERO_USAGE = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
               "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}


# ----------------------------------------------------------------------------- items ↔ entries


def _is_message(item: Mapping[str, Any]) -> bool:
    return item.get("role") in ("user", "assistant") and item.get("type", "message") == "message"


def _text_blocks(content: Any) -> list[dict[str, Any]]:
    """pi content blocks for a Responses message's content (text parts; others noted)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    blocks: list[dict[str, Any]] = []
    for part in content if isinstance(content, list) else []:
        if not isinstance(part, Mapping):
            continue
        kind = part.get("type")
        if kind in ("input_text", "output_text", "text") and isinstance(part.get("text"), str):
            blocks.append({"type": "text", "text": part["text"]})
        elif kind == "refusal" and isinstance(part.get("refusal"), str):
            blocks.append({"type": "text", "text": part["refusal"]})
        elif isinstance(kind, str):
            blocks.append({"type": "text", "text": f"[{kind}]"})
    return blocks


def _pi_message(item: Mapping[str, Any], model: str) -> dict[str, Any]:
    """The pi message for a user or assistant item, holding the item itself."""
    now = int(time.time() * 1000)
    content = _text_blocks(item.get("content"))
    if item["role"] == "user":
        return {"role": "user", "content": content, "timestamp": now, ITEM_KEY: dict(item)}
    return {"role": "assistant", "content": content, "api": "openai-responses", "provider": "openai-agents",
            "model": model, "usage": _ZERO_USAGE, "stopReason": "stop", "timestamp": now, ITEM_KEY: dict(item)}


def _plain_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = [b.get("text", "") for b in content if isinstance(b, Mapping) and b.get("type") == "text"] \
        if isinstance(content, list) else []
    return "\n".join(p for p in parts if p)


def _item_of(entry: Mapping[str, Any]) -> dict[str, Any] | None:
    """The Agents SDK item an entry stands for, or ``None`` (markers, pi's own bookkeeping)."""
    kind = entry.get("type")
    if kind == "custom" and entry.get("customType") == ITEM_TYPE and isinstance(entry.get("data"), dict):
        return dict(entry["data"])
    if kind != "message" or not isinstance(entry.get("message"), Mapping):
        return None
    message = entry["message"]
    stored = message.get(ITEM_KEY)
    if isinstance(stored, dict):
        return dict(stored)
    if message.get("role") in ("user", "assistant"):  # written by pi or our host: its text
        return {"role": message["role"], "content": _plain_text(message.get("content"))}
    return None


# ----------------------------------------------------------------------------- the session


class PiSession:
    """An ``agents.memory.Session`` kept in a pi v3 session file (see the module docstring).

    ``session_id`` names the session (pi's rule: letters, digits, ``-``, ``_``, ``.``; a new
    UUIDv7 when omitted); the file is found by that id in ``session_dir`` (default: pi's
    directory for ``cwd``), or given directly as ``path`` (the session id is then the file's).
    ``recall`` (a :class:`RecallService`) also queues every message added for search at once;
    without it, messages reach recall the way any session's do, through ``pi-memory recall
    index`` (or the recall extension when the file is continued in ``pi-memory chat``).
    ``model`` is what assistant messages name as their model in the file.
    """

    session_settings: SessionSettings | None

    def __init__(
        self,
        session_id: str | None = None,
        *,
        path: str | os.PathLike[str] | None = None,
        cwd: str | None = None,
        session_dir: str | None = None,
        session_settings: SessionSettings | None = None,
        recall: RecallService | None = None,
        model: str = "openai-agents",
        lock_timeout: float = 10.0,
    ) -> None:
        self._cwd = cwd if cwd is not None else os.getcwd()
        self.session_settings = session_settings
        self.recall = recall
        self.model = model
        self.lock_timeout = lock_timeout
        if path is not None:
            self._sm = SessionManager.open(os.fspath(path), cwd_override=cwd)
            if session_id is not None and session_id != self._sm.get_session_id():
                raise ValueError(f"{os.fspath(path)} holds session {self._sm.get_session_id()!r}, not {session_id!r}; "
                                 "pass either path= or the session id")
            self.session_id = self._sm.get_session_id()
        else:
            self.session_id = session_id if session_id is not None else uuidv7()
            found = SessionManager.find_by_id(self._cwd, self.session_id, session_dir)
            self._sm = (SessionManager.open(found) if found is not None
                        else SessionManager.create(self._cwd, session_dir, id=self.session_id))
        self._session_dir = self._sm.get_session_dir()
        file = self._sm.get_session_file()
        assert file is not None  # a persisted session always has a path
        self._path = file
        # One lock per session id in its directory: a second process that created the same id
        # before the first write (a different file name, from its own clock) serialises with us.
        self._lock_target = Path(self._session_dir) / f"{self._sm.get_session_id()}.jsonl"

    @property
    def path(self) -> str:
        """The session file (it exists once the first message is added)."""
        return self._path

    def __repr__(self) -> str:
        return f"PiSession(session_id={self.session_id!r}, path={self._path!r})"

    # --- the Session protocol ------------------------------------------------------------------

    async def get_items(self, limit: int | None = None) -> list[Any]:
        """The items on the current branch, oldest first; the latest ``limit`` when given."""
        return await asyncio.to_thread(self._get_items, resolve_session_limit(limit, self.session_settings))

    async def add_items(self, items: list[Any]) -> None:
        """Append ``items`` (messages as pi messages, the rest as custom entries)."""
        if items:
            await asyncio.to_thread(self._add_items, list(items))

    async def pop_item(self) -> Any | None:
        """Take the newest item off the current branch (it stays in the file, off the branch)."""
        return await asyncio.to_thread(self._pop_item)

    async def clear_session(self) -> None:
        """Start a new, empty branch (the old one stays in the file)."""
        await asyncio.to_thread(self._clear)

    # --- under the lock ------------------------------------------------------------------------

    def _fresh(self) -> SessionManager:
        """The session as it is on disk now (another process may have appended)."""
        if os.path.exists(self._path):
            self._sm = SessionManager.open(self._path)
        else:  # not written yet here; another process may have written this id under its own name
            found = SessionManager.find_by_id(self._cwd, self.session_id, self._session_dir)
            if found is not None:
                self._sm = SessionManager.open(found)
                self._path = found
        return self._sm

    def _items_on_branch(self, sm: SessionManager) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        pairs = []
        for entry in sm.get_branch():
            item = _item_of(entry)
            if item is not None:
                pairs.append((dict(entry), item))
        return pairs

    def _get_items(self, limit: int | None) -> list[Any]:
        with file_lock(self._lock_target, self.lock_timeout):
            items = [item for _, item in self._items_on_branch(self._fresh())]
        if limit is None:
            return items
        return items[-limit:] if limit > 0 else []

    def _add_items(self, items: Sequence[Any]) -> None:
        written: list[dict[str, Any]] = []
        with file_lock(self._lock_target, self.lock_timeout):
            sm = self._fresh()
            for raw in items:
                item = _as_dict(raw)
                if _is_message(item):
                    entry_id = sm.append_message(_pi_message(item, self.model))
                else:
                    entry_id = sm.append_custom_entry(ITEM_TYPE, item)
                entry = sm.get_entry(entry_id)
                if entry is not None:
                    written.append(dict(entry))
        if self.recall is not None:
            self.recall.index_messages(records_from_entries(written, sm.get_session_id(), source=self._path))

    def _pop_item(self) -> Any | None:
        with file_lock(self._lock_target, self.lock_timeout):
            sm = self._fresh()
            pairs = self._items_on_branch(sm)
            if not pairs:
                return None
            entry, item = pairs[-1]
            parent = entry.get("parentId")
            if isinstance(parent, str):
                sm.branch(parent)
            else:
                sm.reset_leaf()
            sm.append_custom_entry(POP_TYPE, {"popped": entry.get("id")})
            return item

    def _clear(self) -> None:
        with file_lock(self._lock_target, self.lock_timeout):
            sm = self._fresh()
            if not self._items_on_branch(sm):
                return
            sm.reset_leaf()
            sm.append_custom_entry(CLEAR_TYPE, {"sessionId": self.session_id})


def _as_dict(item: Any) -> dict[str, Any]:
    """An input item as the plain JSON dict the SDK itself stores (pydantic models dumped)."""
    if isinstance(item, Mapping):
        copied: dict[str, Any] = json.loads(json.dumps(dict(item)))  # deep, JSON-only: comes back as it went in
        return copied
    dump = getattr(item, "model_dump", None)
    if callable(dump):
        dumped: dict[str, Any] = dump(exclude_unset=True, mode="json")
        return dumped
    raise TypeError(f"not a Responses input item: {item!r}")


# ----------------------------------------------------------------------------- tools & instructions


def _function_tool(tool: PiTool) -> FunctionTool:
    schema = ensure_strict_json_schema(strict_parameters(tool.parameters))

    async def invoke(ctx: RunContextWrapper[Any], arguments: str) -> str:
        try:
            parsed = json.loads(arguments) if arguments else {}
        except json.JSONDecodeError as exc:
            return json.dumps({"success": False, "error": f"Arguments are not valid JSON ({exc}); send a JSON object."})
        if not isinstance(parsed, dict):
            return json.dumps({"success": False, "error": "Arguments must be a JSON object."})
        call_id = getattr(ctx, "tool_call_id", None) or f"agents-{tool.name}"
        result = await tool.execute(call_id, tool_arguments(parsed))
        return result.text

    return FunctionTool(
        name=tool.name,
        description=tool.description,
        params_json_schema=schema,
        on_invoke_tool=invoke,
        strict_json_schema=True,
    )


def memory_tools(store: MemorySource = None, recall: bool | RecallService = True) -> list[FunctionTool]:
    """``FunctionTool``s for ``memory_add``, ``memory_replace``, ``memory_remove``, ``memory_read``
    and, with ``recall``, ``search_memory`` and ``get_important_memories``; strict JSON schemas.

    The model reads each result's JSON text (``success``, ``error`` with the next step, ``usage``);
    a refused write (budget, threat scanner, a busy lock) is such a result, never an exception.
    """
    return [_function_tool(tool) for tool in pi_tools(open_memory(store), recall)]


def memory_instructions(store: MemorySource = None) -> str:
    """The memory guidance and the store's frozen snapshot, for ``Agent(instructions=...)``."""
    return memory_prompt(open_memory(store).frozen_snapshot())
