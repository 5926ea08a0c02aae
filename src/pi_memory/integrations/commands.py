"""The ``memory_20250818`` command set over a :class:`~pi_memory.memory.MemoryStore`, framework-free.

Anthropic's memory tool — also spoken by Pydantic AI's ``MemoryTool`` capability and LangChain's
Anthropic middleware — lets the model ``view``, ``create``, ``str_replace``, ``insert``, ``delete``
and ``rename`` files under ``/memories``. Here ``/memories`` is a virtual directory holding exactly
the store's two files, ``MEMORY.md`` and ``USER.md``, shown as their ``§``-separated entries:

* ``view /memories`` lists both files with their usage; ``view`` of a file numbers its lines
  (``view_range`` honoured);
* ``create`` sets a file's entries (split on lines holding only ``§``; the old text is backed up
  when entries are dropped), ``str_replace`` edits the one entry holding ``old_str`` (which must
  occur exactly once), ``insert`` adds an entry;
* ``delete``, ``rename`` and every other path are refused with a message saying what works.

Every write is a :class:`MemoryStore` call, so the scanner, the budgets, drift detection and the
cross-process lock apply exactly as they do to ``memory_add``. A refusal raises
:class:`CommandError`, whose message the adapter hands to the model as an error result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from pi_memory.memory import MEMORY_GUIDANCE, TARGETS, MemoryStore, memory_prompt
from pi_memory.memory.entries import serialize_entries

__all__ = [
    "COMMANDS",
    "COMMAND_GUIDANCE",
    "MEMORY_COMMAND_DESCRIPTION",
    "MEMORY_COMMAND_SCHEMA",
    "ROOT",
    "CommandError",
    "MemoryCommands",
    "memory_system_prompt",
    "split_file_text",
]

ROOT = "/memories"
#: The commands of ``memory_20250818``; the first four are served, the last two refused.
COMMANDS = ("view", "create", "str_replace", "insert", "delete", "rename")
_LINE_NUMBER_WIDTH = 6  # Anthropic's reference tool pads line numbers to six columns
_ABOUT = {
    "memory": "your notes: projects, environment, tools, conventions",
    "user": "the user profile: who the user is, how they like to work",
}

CAPABILITIES = (
    f"This memory tool serves exactly two files: {ROOT}/MEMORY.md (your notes) and {ROOT}/USER.md (the user "
    f"profile). It can `view` {ROOT} or either file, `create` a file (its text becomes the file's entries, "
    "separated by lines holding only §), `str_replace` text inside one entry, and `insert` a new entry. Files "
    "cannot be deleted or renamed, and no other path exists; to drop an entry, `str_replace` its whole text "
    "with an empty string."
)

COMMAND_GUIDANCE = f"""\
## The memory tool
Memory is served by the `memory` tool as two files under {ROOT}: `MEMORY.md` and `USER.md`, each
a list of entries separated by lines holding only `§`. `view {ROOT}/USER.md` reads live entries
(what `memory_read` does above), `insert` adds one entry (`memory_add`), `str_replace` edits text
inside one entry and must match exactly once (`memory_replace`; replacing a whole entry with an
empty string removes it), and `create` rewrites a whole file from its entries. Files cannot be
deleted or renamed.
"""

MEMORY_COMMAND_DESCRIPTION = (
    "Persistent memory across sessions, as Anthropic's memory tool (memory_20250818) over two files. " + CAPABILITIES
)

#: JSON Schema of the ``memory_20250818`` command arguments, for a framework that needs the ``memory``
#: tool as a plain function tool (Pydantic AI swaps it for Anthropic's native tool when it can).
MEMORY_COMMAND_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "command": {"type": "string", "enum": list(COMMANDS)},
        "path": {"type": "string", "description": f"{ROOT}, {ROOT}/MEMORY.md or {ROOT}/USER.md."},
        "view_range": {
            "type": "array",
            "items": {"type": "integer"},
            "minItems": 2,
            "maxItems": 2,
            "description": "view: first and last line to show (-1 for the end).",
        },
        "file_text": {"type": "string", "description": "create: the file's entries, separated by lines holding §."},
        "old_str": {"type": "string", "description": "str_replace: text that occurs exactly once."},
        "new_str": {"type": "string", "description": "str_replace: the replacement (may be empty)."},
        "insert_line": {"type": "integer", "description": "insert: accepted; new entries go at the end."},
        "insert_text": {"type": "string", "description": "insert: the new entry."},
        "old_path": {"type": "string"},
        "new_path": {"type": "string"},
    },
    "required": ["command"],
    "additionalProperties": False,
}


class CommandError(Exception):
    """A command the tool refuses or the store did not carry out; ``str(exc)`` is for the model."""


def memory_system_prompt(store: MemoryStore) -> str:
    """The frozen snapshot plus the memory guidance (and how the ``memory`` tool maps onto it), for ``system=``.

    Frozen: the text changes only when ``store.load_from_disk()`` runs, so a conversation that keeps
    passing it keeps a cacheable prompt prefix; a new run (a new store) shows what the last one saved.
    """
    return memory_prompt(store.frozen_snapshot(), f"{MEMORY_GUIDANCE.rstrip()}\n\n{COMMAND_GUIDANCE}")


def split_file_text(text: str) -> list[str]:
    """The entries of a file's text: pieces between lines holding only ``§`` (spaces around it allowed)."""
    pieces: list[str] = []
    current: list[str] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        if line.strip() == "§":
            pieces.append("\n".join(current))
            current = []
        else:
            current.append(line)
    pieces.append("\n".join(current))
    return pieces


def _refuse(message: str) -> NoReturn:
    raise CommandError(message)


def _failure_text(result: Mapping[str, Any]) -> str:
    """A failed store result as one message: the error, then what the result offers to fix it."""
    parts = [str(result.get("error", "The memory store refused the change."))]
    if matches := result.get("matches"):
        parts.append("Matching entries:\n" + "\n".join(f"- {m}" for m in matches))
    if remediation := result.get("remediation"):
        parts.append(str(remediation))
    return "\n".join(parts)


class MemoryCommands:
    """The command handlers over one store; each returns the text the model reads or raises :class:`CommandError`."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.paths = {f"{ROOT}/{store.backend.label(target)}": target for target in TARGETS}

    def run(self, command: Mapping[str, Any]) -> str:
        """Dispatch one tool input (``{"command": "view", "path": ...}``) to its handler."""
        name = command.get("command")
        if name == "view":
            return self.view(_text(command, "path"), command.get("view_range"))
        if name == "create":
            return self.create(_text(command, "path"), _text(command, "file_text"))
        if name == "str_replace":
            return self.str_replace(_text(command, "path"), _text(command, "old_str"), _text(command, "new_str"))
        if name == "insert":
            return self.insert(_text(command, "path"), _text(command, "insert_text"))
        return self.refuse(str(name))

    def refuse(self, name: str) -> NoReturn:
        """Refuse ``delete``, ``rename`` or an unknown command, saying what the tool can do."""
        what = f"`{name}` is not available" if name in COMMANDS else f"Unknown command {name!r}"
        _refuse(f"{what}. {CAPABILITIES}")

    def target(self, path: str) -> str | None:
        """``None`` for the directory, else the target a file path names; any other path is refused."""
        clean = path.strip()
        if clean.rstrip("/") == ROOT:
            return None
        if (target := self.paths.get(clean)) is not None:
            return target
        _refuse(f"The path {path!r} does not exist. {CAPABILITIES}")

    def _file(self, path: str) -> tuple[str, str]:
        target = self.target(path)
        if target is None:
            _refuse(f"{path} is a directory; name a file: {', '.join(self.paths)}.")
        return target, path.strip()

    # ------------------------------------------------------------------------ commands

    def view(self, path: str, view_range: Sequence[int] | None = None) -> str:
        target = self.target(path)
        if target is None:
            lines = [f"Here're the files in {ROOT} (persistent memory, shown in every new session's system prompt):"]
            for file_path, name in self.paths.items():
                result = self._read(name)
                lines.append(f"{result['usage']}\t{file_path}\t{_count(result['entryCount'])} — {_ABOUT[name]}")
            lines.append("Entries in a file are separated by lines holding only §.")
            return "\n".join(lines)
        result = self._read(target)
        text = serialize_entries(result["entries"])
        lines = text.split("\n") if text else []
        start, end = 1, len(lines)
        if view_range is not None:
            if len(view_range) != 2 or not all(isinstance(n, int) for n in view_range):
                _refuse(f"view_range must be two line numbers [first, last] (last may be -1), got {view_range!r}.")
            start = max(1, view_range[0])
            end = len(lines) if view_range[1] == -1 else min(len(lines), view_range[1])
        numbered = [f"{n:>{_LINE_NUMBER_WIDTH}}\t{lines[n - 1]}" for n in range(start, end + 1)]
        header = (
            f"Here's the content of {path.strip()} with line numbers ({_count(result['entryCount'])}, "
            f"{result['usage']}; entries are separated by lines holding only §):"
        )
        body = "\n".join(numbered) if numbered else ("(no entries yet)" if not lines else "(no lines in that range)")
        warning = f"\n{result['warning']}" if result.get("warning") else ""
        return f"{header}\n{body}{warning}"

    def create(self, path: str, file_text: str) -> str:
        target, shown = self._file(path)
        result = self._write(self.store.set_entries(target, split_file_text(file_text)))
        text = f"File {shown} now holds {_count(result['entryCount'])} ({result['usage']})."
        if backup := result.get("backup"):
            text += f" The previous content had entries this one leaves out; it was saved to {backup}."
        return text

    def str_replace(self, path: str, old_str: str, new_str: str) -> str:
        target, shown = self._file(path)
        result = self._write(self.store.edit(target, old_str, new_str))
        edited = result.get("editedEntry")
        change = f"The entry now reads: {edited}" if edited else "The entry became empty and was removed."
        return f"The memory file {shown} has been edited. {change} ({result['usage']})"

    def insert(self, path: str, insert_text: str) -> str:
        target, shown = self._file(path)
        result = self._write(self.store.add(target, insert_text))
        message = result.get("message", "Entry added.")
        return f"{message} {shown} holds {_count(result['entryCount'])} ({result['usage']})."

    # ------------------------------------------------------------------------ store calls

    def _read(self, target: str) -> dict[str, Any]:
        result = self.store.read(target)
        if not result.get("success"):
            _refuse(_failure_text(result))
        return result

    @staticmethod
    def _write(result: dict[str, Any]) -> dict[str, Any]:
        if not result.get("success"):
            _refuse(_failure_text(result))
        return result


def _count(n: int) -> str:
    return "1 entry" if n == 1 else f"{n} entries"


def _text(command: Mapping[str, Any], key: str) -> str:
    value = command.get(key)
    if value is None:
        _refuse(f"`{command.get('command')}` needs `{key}`.")
    return value if isinstance(value, str) else str(value)
