"""``MemoryStore``: curated ``MEMORY.md`` / ``USER.md`` memory for an agent.

Two states per target, as in pi-memory and hermes-agent:

* the *live entries*, refreshed from storage by ``read`` and by every
  mutation (inside the lock, so writes from other processes are merged), and
* the *frozen snapshot* for the system prompt, rebuilt only by
  ``load_from_disk`` so the prompt stays byte-identical within a session.

Every method returns a plain JSON-ready dict with pi-memory's keys (``success``,
``target``, ``entries``, ``usage``, ``entryCount``, ``message``, ``error``,
``currentEntries``, ``matches``, ``driftBackup``, ``remediation``); problems the
model or user can fix are results with a next step, never exceptions.
Budgets count Unicode code points (``len``), as in hermes; one entry must also fit its limit in
UTF-16 units, as pi-memory counts it, so a directory shared with pi-memory never drifts for it.
Text that cannot be stored as UTF-8 (lone surrogates: invalid UTF-8 on a command line, a bad
``"\\ud800"`` escape) is refused as invalid text, never raised as ``UnicodeEncodeError``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pi_memory.base.js import js_trim
from pi_memory.base.lock import DEFAULT_TIMEOUT
from pi_memory.base.settings import whole_number
from pi_memory.memory.backend import (
    BACKUP_FAILED,
    BackendBlocked,
    BackendBusy,
    RawText,
    StorageBackend,
    StorageError,
    Transaction,
)
from pi_memory.memory.entries import (
    ENTRY_DELIMITER,
    INVALID_UTF8,
    Drift,
    contains_delimiter,
    dedupe,
    entry_length,
    find_drift,
    joined_length,
    parse_checked,
    parse_entries,
    serialize_entries,
)
from pi_memory.memory.files import FileBackend, default_memory_dir
from pi_memory.memory.snapshot import bound_snapshot, format_usage, join_blocks, render_block
from pi_memory.security.threats import MAX_SCAN_CHARS, first_threat_message

__all__ = ["DEFAULT_MEMORY_CHAR_LIMIT", "DEFAULT_USER_CHAR_LIMIT", "ENTRY_DELIMITER", "TARGETS",
           "MemoryStore", "Result", "default_memory_dir"]

TARGETS = ("memory", "user")
DEFAULT_MEMORY_CHAR_LIMIT = 2200
DEFAULT_USER_CHAR_LIMIT = 1375
_PREVIEW_CHARS = 80

Result = dict[str, Any]


def _coerce_limit(name: str, value: object) -> int:
    """Accept ints and digit strings (settings after ``${VAR}`` interpolation)."""
    number = whole_number(value)
    if number is None:
        raise ValueError(f"{name} must be a whole number of characters (e.g. 2200), got {value!r}")
    if number < 0:
        raise ValueError(f"{name} must be 0 or more, got {number}")
    return number


def _fail(error: str, **extra: Any) -> Result:
    return {"success": False, "error": error, **extra}


def _invalid_text(value: str, field: str) -> Result | None:
    """A failed result when ``value`` cannot be encoded as UTF-8 (it holds a lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        return _fail(
            f"{field} is not valid text: character {exc.start + 1} is U+{ord(value[exc.start]):04X}, a lone "
            "surrogate, which cannot be stored as UTF-8 (it comes from bytes that were not valid UTF-8, e.g. "
            "on a command line, or from half of an escaped UTF-16 pair). Nothing was changed; send the text "
            "as valid UTF-8."
        )
    return None


def _preview(entry: str) -> str:
    return entry if len(entry) <= _PREVIEW_CHARS else entry[:_PREVIEW_CHARS] + "..."


class MemoryStore:
    """Curated memory in ``dir`` (or any :class:`StorageBackend`).

    ``lock_timeout`` bounds how long a mutation waits for another writer
    before returning a retryable "busy" result.
    """

    def __init__(
        self,
        dir: Path | str | None = None,
        memory_char_limit: int | str = DEFAULT_MEMORY_CHAR_LIMIT,
        user_char_limit: int | str = DEFAULT_USER_CHAR_LIMIT,
        *,
        backend: StorageBackend | None = None,
        lock_timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        if backend is not None and dir is not None:
            raise ValueError("pass either dir or backend, not both")
        self.backend: StorageBackend = backend if backend is not None else FileBackend(
            dir if dir is not None else default_memory_dir()
        )
        self.dir: Path | None = getattr(self.backend, "dir", None)
        self.memory_char_limit = _coerce_limit("memory_char_limit", memory_char_limit)
        self.user_char_limit = _coerce_limit("user_char_limit", user_char_limit)
        self.lock_timeout = float(lock_timeout)
        self._state = threading.RLock()
        self._entries: dict[str, list[str]] = {t: [] for t in TARGETS}
        self._snapshot: dict[str, str] = {t: "" for t in TARGETS}
        self._loaded = False
        # The text this store last wrote per target, with its limit and entries: when the re-read
        # under the lock finds exactly that text, it is our own canonical output and needs no parse.
        self._written: dict[str, tuple[str, int, list[str]]] = {}

    # ------------------------------------------------------------------ reading

    def char_limit(self, target: str) -> int:
        return self.memory_char_limit if target == "memory" else self.user_char_limit

    def usage(self, target: str) -> str:
        """``"<pct>% — <cur>/<limit> chars"`` for the live entries."""
        return format_usage(joined_length(self.get_entries(target)), self.char_limit(target))

    def get_entries(self, target: str) -> list[str]:
        """A copy of the live entries (no storage access)."""
        self._check_target(target)
        with self._state:
            return list(self._entries[target])

    def load_from_disk(self) -> None:
        """Read both targets and freeze a new system-prompt snapshot."""
        self.backend.prepare()
        with self._state:
            for target in TARGETS:
                raw = self.backend.read(target)
                entries = parse_entries(raw.text) if raw.readable else []
                self._entries[target] = entries
                self._snapshot[target] = render_block(
                    target, entries, self.backend.label(target), self.char_limit(target)
                )
            self._loaded = True

    def drift_reason(self, target: str) -> str | None:
        """Why the stored text would not round-trip (and writes are refused), or ``None``.

        Reads storage without locking and changes nothing; an unreadable target is reported too.
        """
        self._check_target(target)
        raw = self.backend.read(target)
        if not raw.readable:
            return raw.error
        drift = self.drift(target, raw)
        return None if drift is None else drift.reason

    def drift(self, target: str, raw: RawText) -> Drift | None:
        """The drift in ``raw`` (what a read of ``target`` found), with its cause and fix, or ``None``."""
        if raw.invalid is not None:
            return INVALID_UTF8
        return find_drift(raw.text, self.char_limit(target))

    def format_for_system_prompt(self, target: str) -> str:
        """The frozen block for ``target`` as of the last ``load_from_disk`` ("" when empty)."""
        self._check_target(target)
        with self._state:
            return self._snapshot[target]

    def format_all_for_system_prompt(self) -> str:
        """Both frozen blocks, memory first, separated by a blank line."""
        with self._state:
            return join_blocks(self._snapshot["memory"], self._snapshot["user"])

    def frozen_snapshot(self) -> str:
        """Both frozen blocks fitted to the system-prompt cap (loading storage once if never loaded).

        What every host puts in a system prompt: it changes only on :meth:`load_from_disk`, so the
        prompt prefix stays byte-identical (and cacheable) for as long as the caller keeps it.
        """
        if not self._loaded:
            self.load_from_disk()
        with self._state:
            return bound_snapshot(self._snapshot["memory"], self._snapshot["user"])

    def read(self, target: str) -> Result:
        """Live entries and usage, fresh from storage; the snapshot is not touched."""
        if (bad := self._target_error(target)) is not None:
            return bad
        if not self._loaded:
            self.load_from_disk()
        raw = self.backend.read(target)
        if not raw.readable:
            return _fail(f"{raw.error}. Nothing was changed; fix that and retry.")
        entries, drift = parse_checked(raw.text, self.char_limit(target))
        with self._state:
            self._entries[target] = entries
        result = self._success(target)
        label = self.backend.label(target)
        if raw.invalid is not None:
            result["warning"] = (
                f"{label} is not valid UTF-8; undecodable bytes are shown as U+FFFD. "
                "Writes are refused until the file is fixed."
            )
        elif drift is not None:
            # Said now, so the model does not plan a remove or replace the store will refuse.
            result["warning"] = (
                f"{label} does not round-trip ({drift.reason}), so writes are refused until it is fixed. "
                f"{drift.next_step(self.backend.location(target))}"
            )
        return result

    # ---------------------------------------------------------------- mutations

    def add(self, target: str, content: str) -> Result:
        """Append ``content`` as a new entry (an exact duplicate is a no-op success)."""
        if (bad := self._target_error(target)) is not None:
            return bad
        content = js_trim(str(content))
        if (bad := self._content_error(content, "Content", self.char_limit(target))) is not None:
            return bad

        def mutate(entries: list[str], limit: int) -> Result | list[str]:
            if content in entries:
                return self._success(target, "Entry already exists (no duplicate added).")
            current = joined_length(entries)
            if joined_length([*entries, content]) > limit:
                return _fail(
                    f"Memory at {current:,}/{limit:,} chars. Adding this entry ({len(content):,} chars) "
                    "would exceed the limit. Replace or remove existing entries first.",
                    currentEntries=list(entries),
                    usage=f"{current:,}/{limit:,}",
                )
            return [*entries, content]

        return self._mutate(target, mutate, "Entry added.")

    def replace(self, target: str, old_text: str, new_content: str) -> Result:
        """Replace the whole entry that ``old_text`` identifies with ``new_content``."""
        if (bad := self._target_error(target)) is not None:
            return bad
        old_text = js_trim(str(old_text))
        new_content = js_trim(str(new_content))
        if not old_text:
            return _fail("oldText cannot be empty.")
        if (bad := _invalid_text(old_text, "oldText")) is not None:
            return bad
        if not new_content:
            return _fail("newContent cannot be empty. Use 'remove' to delete entries.")
        if (bad := self._content_error(new_content, "newContent", self.char_limit(target))) is not None:
            return bad
        replaced: list[str] = []

        def mutate(entries: list[str], limit: int) -> Result | list[str]:
            found = self._find_one(entries, old_text)
            if isinstance(found, dict):
                return found
            updated = dedupe([new_content if i == found else e for i, e in enumerate(entries)])
            new_total = joined_length(updated)
            if new_total > limit:
                current = joined_length(entries)
                return _fail(
                    f"Replacement would put memory at {new_total:,}/{limit:,} chars. Shorten the new "
                    "content or remove other entries first.",
                    currentEntries=list(entries),
                    usage=f"{current:,}/{limit:,}",
                )
            replaced.append(entries[found])
            return updated

        result = self._mutate(target, mutate, "Entry replaced.")
        if result.get("success") and replaced:
            result["replacedEntry"] = replaced[0]
        return result

    def remove(self, target: str, old_text: str) -> Result:
        """Delete the entry that ``old_text`` identifies."""
        if (bad := self._target_error(target)) is not None:
            return bad
        old_text = js_trim(str(old_text))
        if not old_text:
            return _fail("oldText cannot be empty.")
        if (bad := _invalid_text(old_text, "oldText")) is not None:
            return bad
        removed: list[str] = []

        def mutate(entries: list[str], limit: int) -> Result | list[str]:
            found = self._find_one(entries, old_text)
            if isinstance(found, dict):
                return found
            removed.append(entries[found])
            return [e for i, e in enumerate(entries) if i != found]

        result = self._mutate(target, mutate, "Entry removed.")
        if result.get("success") and removed:
            result["removedEntry"] = removed[0]
        return result

    def set_entries(self, target: str, entries: Sequence[str]) -> Result:
        """Make ``entries`` the whole content of ``target`` (what a file-shaped tool's ``create`` means).

        Each entry is trimmed and checked like an added one (delimiter, size, threat scan); empty
        ones are dropped and duplicates kept once; the total must fit the budget. When the new list
        leaves out an entry that was stored, the old content is first saved as a ``.bak`` (its
        location is in ``backup``), so a model rewriting a file from a stale view loses nothing.
        """
        if (bad := self._target_error(target)) is not None:
            return bad
        wanted = dedupe(e for e in (js_trim(str(entry)) for entry in entries) if e)
        limit = self.char_limit(target)
        for n, entry in enumerate(wanted, 1):
            if (bad := self._content_error(entry, f"Entry {n}", limit)) is not None:
                return bad

        def mutate(current: list[str], limit: int) -> Result | list[str]:
            total = joined_length(wanted)
            if total > limit:
                return _fail(
                    f"These entries total {total:,} chars; the limit is {limit:,}. Shorten or merge entries "
                    "and retry.",
                    currentEntries=list(current),
                    usage=f"{joined_length(current):,}/{limit:,}",
                )
            return wanted

        return self._mutate(target, mutate, "Entries set.", backup_dropped=True)

    def edit(self, target: str, old_str: str, new_str: str) -> Result:
        """Replace the one occurrence of ``old_str`` in the one entry holding it (``str_replace``).

        Unlike :meth:`replace` (a short substring names a whole entry), this edits text in place:
        ``old_str`` must occur exactly once across all entries, verbatim. No match or several is a
        failure listing the candidates; an edit that empties the entry removes it.
        """
        if (bad := self._target_error(target)) is not None:
            return bad
        old_str, new_str = str(old_str), str(new_str)
        if not old_str:
            return _fail("old_str cannot be empty.")
        edited: list[str] = []

        def mutate(entries: list[str], limit: int) -> Result | list[str]:
            holding = [(i, entry.count(old_str)) for i, entry in enumerate(entries) if old_str in entry]
            occurrences = sum(count for _, count in holding)
            if occurrences == 0:
                spans = old_str in serialize_entries(entries)
                return _fail(
                    f"old_str spans more than one entry of {self.backend.label(target)}; edit one entry at a time."
                    if spans else f"No entry contains {old_str!r} verbatim.",
                    currentEntries=list(entries),
                )
            if occurrences > 1:
                numbers = ", ".join(str(i + 1) for i, _ in holding)
                return _fail(
                    f"{old_str!r} occurs {occurrences} times (entries {numbers}); include more of the entry so "
                    "it is unique.",
                    matches=[_preview(entries[i]) for i, _ in holding],
                )
            index = holding[0][0]
            new_entry = js_trim(entries[index].replace(old_str, new_str))
            if new_entry and (bad := self._content_error(new_entry, "The edited entry", limit)) is not None:
                return bad
            updated = dedupe(new_entry if i == index else e for i, e in enumerate(entries) if i != index or new_entry)
            new_total = joined_length(updated)
            if new_total > limit:
                return _fail(
                    f"The edit would put memory at {new_total:,}/{limit:,} chars. Shorten it or remove other "
                    "entries first.",
                    currentEntries=list(entries),
                    usage=f"{joined_length(entries):,}/{limit:,}",
                )
            edited.append(new_entry)
            return updated

        result = self._mutate(target, mutate, "Entry edited.")
        if result.get("success") and edited:
            result["editedEntry"] = edited[0]
        return result

    # ----------------------------------------------------------------- helpers

    def _mutate(
        self,
        target: str,
        mutate: Callable[[list[str], int], Result | list[str]],
        message: str,
        *,
        backup_dropped: bool = False,
    ) -> Result:
        """Lock, re-read, check drift, apply ``mutate``, write; all under the lock.

        ``backup_dropped``: before writing a list that leaves out a stored entry, back up the old text.
        """
        label = self.backend.label(target)
        limit = self.char_limit(target)
        backup: str | None = None
        try:
            with self.backend.transaction(target, self.lock_timeout) as txn:
                raw = txn.raw
                if not raw.readable:
                    return _fail(f"{raw.error}. Refusing to write so nothing is lost; fix that and retry.")
                entries, drift = self._parse_under_lock(target, raw, limit)
                with self._state:
                    self._entries[target] = entries
                if raw.invalid is not None:
                    drift = INVALID_UTF8
                if drift is not None:
                    return self._drift_result(txn, raw, label, self.backend.location(target), drift)
                outcome = mutate(list(entries), limit)
                if isinstance(outcome, dict):
                    return outcome
                if backup_dropped and any(entry not in outcome for entry in entries):
                    backup = txn.backup(raw)
                    if BACKUP_FAILED in backup:
                        return _fail(f"Could not back up {label} before replacing entries ({backup}); "
                                     "nothing was changed. Fix the directory (permissions? space?) and retry.")
                text = serialize_entries(outcome)
                txn.write(text)
                with self._state:
                    self._entries[target] = outcome
                    self._written[target] = (text, limit, list(outcome))
        except BackendBlocked as exc:
            return _fail(f"{exc} Nothing was changed.")
        except BackendBusy as exc:
            # The backend says why (a lock held elsewhere, a lost connection); either way nothing was written.
            return _fail(
                f"{label} is busy ({exc or 'another writer holds its lock'}; waited up to {self.lock_timeout:g}s). "
                "Nothing was changed; retry in a moment.",
                retryable=True,
            )
        except StorageError as exc:
            return _fail(f"{label} could not be written: {exc}. Nothing was changed.")
        result = self._success(target, message)
        if backup is not None:
            result["backup"] = backup
        return result

    def _parse_under_lock(self, target: str, raw: RawText, limit: int) -> tuple[list[str], Drift | None]:
        """``parse_checked``, skipped when storage holds exactly what this store last wrote.

        That text came from entries that passed every check (trimmed, non-empty, unique, no
        delimiter line, within this limit), so it parses back to them with no drift.
        """
        with self._state:
            written = self._written.get(target)
        if written is not None and raw.invalid is None and written[1] == limit and written[0] == raw.text:
            return list(written[2]), None
        return parse_checked(raw.text, limit)

    @staticmethod
    def _drift_result(txn: Transaction, raw: RawText, label: str, location: str, drift: Drift) -> Result:
        backup = txn.backup(raw)
        fix = drift.next_step(location)
        return _fail(
            f"Refusing to write {label}: file on disk has content that wouldn't round-trip through the "
            f"memory tool ({drift.reason}; {drift.cause}). A snapshot was saved to {backup}. Resolve the "
            f"drift first: {fix} Then retry. This guard exists to prevent silent data loss.",
            driftBackup=backup,
            remediation=(
                f"Open {backup} to see the exact content. {fix} If you moved text out of {label}, re-add the "
                "facts you still need one at a time with memory_add."
            ),
        )

    @staticmethod
    def _find_one(entries: list[str], old_text: str) -> int | Result:
        """Index of the one entry ``old_text`` names; an exact whole-entry match wins."""
        if old_text in entries:
            return entries.index(old_text)
        matches = [i for i, e in enumerate(entries) if old_text in e]
        if not matches:
            return _fail(f"No entry matched '{old_text}'.")
        if len({entries[i] for i in matches}) > 1:
            return _fail(
                f"Multiple entries matched '{old_text}'. Be more specific.",
                matches=[_preview(entries[i]) for i in matches],
            )
        return matches[0]

    @staticmethod
    def _content_error(content: str, field: str, limit: int) -> Result | None:
        if not content:
            return _fail(f"{field} cannot be empty.")
        if (bad := _invalid_text(content, field)) is not None:
            return bad
        if contains_delimiter(content):
            return _fail(
                f"{field} contains the entry delimiter (a line holding only '§', maybe with a Windows "
                "line ending); it would be split into several entries on reload. Remove that line or add "
                "each part as its own entry."
            )
        if len(content) <= limit < (units := entry_length(content)):
            # Within the budget in code points, over it as pi-memory counts: a Node process sharing
            # the directory would then refuse every write to the file as drift.
            return _fail(
                f"{field} is {len(content):,} chars but {units:,} UTF-16 units (each emoji or other character "
                f"beyond U+FFFF counts 2); one entry must fit the {limit:,}-char limit in both counts, so "
                "that pi-memory (TypeScript) sharing this directory can still write to it. Shorten it or "
                "split it into two entries."
            )
        if len(content) > MAX_SCAN_CHARS:
            return _fail(
                f"{field} is {len(content):,} chars; entries over {MAX_SCAN_CHARS:,} chars cannot be "
                "scanned safely. Store a shorter summary."
            )
        return _fail(threat) if (threat := first_threat_message(content, "strict")) else None

    def _target_error(self, target: object) -> Result | None:
        if target in TARGETS:
            return None
        return _fail(f"Invalid target {target!r}. Use 'memory' or 'user'.")

    def _check_target(self, target: str) -> None:
        if target not in TARGETS:
            raise ValueError(f"target must be 'memory' or 'user', got {target!r}")

    def _success(self, target: str, message: str | None = None) -> Result:
        entries = self.get_entries(target)
        result: Result = {
            "success": True,
            "target": target,
            "entries": entries,
            "usage": format_usage(joined_length(entries), self.char_limit(target)),
            "entryCount": len(entries),
        }
        if message is not None:
            result["message"] = message
        return result
