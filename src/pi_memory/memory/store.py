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

from pi_memory.base.js import js_trim
from pi_memory.base.lock import DEFAULT_TIMEOUT
from pi_memory.memory.backend import (
    BACKUP_FAILED,
    BackendBlocked,
    BackendBusy,
    RawText,
    StorageBackend,
    StorageError,
    Transaction,
)
from pi_memory.memory.changes import Changed, add_entry, edit_entry, remove_entry, replace_entry, set_all
from pi_memory.memory.entries import (
    ENTRY_DELIMITER,
    INVALID_UTF8,
    Drift,
    dedupe,
    find_drift,
    joined_length,
    parse_checked,
    parse_entries,
    serialize_entries,
)
from pi_memory.memory.files import FileBackend, default_memory_dir
from pi_memory.memory.snapshot import bound_snapshot, format_usage, join_blocks, render_block
from pi_memory.memory.validation import Result, coerce_limit, content_error, fail, named_text

__all__ = ["DEFAULT_MEMORY_CHAR_LIMIT", "DEFAULT_USER_CHAR_LIMIT", "ENTRY_DELIMITER", "TARGETS",
           "MemoryStore", "Result", "default_memory_dir"]

TARGETS = ("memory", "user")
DEFAULT_MEMORY_CHAR_LIMIT = 2200
DEFAULT_USER_CHAR_LIMIT = 1375

#: What a write does to the entries re-read under the lock (see :mod:`pi_memory.memory.changes`).
Change = Callable[[list[str], int], "Result | Changed"]


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
        self.memory_char_limit = coerce_limit("memory_char_limit", memory_char_limit)
        self.user_char_limit = coerce_limit("user_char_limit", user_char_limit)
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
            return fail(f"{raw.error}. Nothing was changed; fix that and retry.")
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
        if (bad := content_error(content, "Content", self.char_limit(target))) is not None:
            return bad

        def change(entries: list[str], limit: int) -> Result | Changed:
            if content in entries:
                return self._success(target, "Entry already exists (no duplicate added).")
            return add_entry(entries, limit, content)

        return self._mutate(target, change, "Entry added.")

    def replace(self, target: str, old_text: str, new_content: str) -> Result:
        """Replace the whole entry that ``old_text`` identifies with ``new_content``."""
        if (bad := self._target_error(target)) is not None:
            return bad
        if isinstance(named := named_text(old_text), dict):
            return named
        new_content = js_trim(str(new_content))
        if not new_content:
            return fail("newContent cannot be empty. Use 'remove' to delete entries.")
        if (bad := content_error(new_content, "newContent", self.char_limit(target))) is not None:
            return bad
        return self._mutate(target, lambda entries, limit: replace_entry(entries, limit, named, new_content),
                            "Entry replaced.")

    def remove(self, target: str, old_text: str) -> Result:
        """Delete the entry that ``old_text`` identifies."""
        if (bad := self._target_error(target)) is not None:
            return bad
        if isinstance(named := named_text(old_text), dict):
            return named
        return self._mutate(target, lambda entries, limit: remove_entry(entries, limit, named), "Entry removed.")

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
            if (bad := content_error(entry, f"Entry {n}", limit)) is not None:
                return bad
        return self._mutate(target, lambda current, limit: set_all(current, limit, wanted), "Entries set.",
                            backup_dropped=True)

    def restore(self, target: str, entries: Sequence[str], *, rebuild: bool = False) -> Result:
        """Put entries back (chosen from a drift backup), each checked as an added one; one write.

        Each entry is trimmed and checked like :meth:`add` (delimiter, size, threat scan), then
        appended while the budget allows; one already stored stays as it is, and nothing stored
        is removed. The result lists ``added``, ``present`` and ``refused`` (``{"entry",
        "error"}``, the reason an add would give). A drifted target is refused like any write,
        unless ``rebuild``: then its current text is first saved as a backup (as a refused write
        saves it; ``backup`` says where) and the target is rebuilt from the chosen entries alone —
        if none of them can be stored, nothing is changed.
        """
        if (bad := self._target_error(target)) is not None:
            return bad
        limit = self.char_limit(target)
        refused: list[dict[str, str]] = []
        checked: list[str] = []
        for entry in dedupe(e for e in (js_trim(str(entry)) for entry in entries) if e):
            if (bad := content_error(entry, "Entry", limit)) is not None:
                refused.append({"entry": entry, "error": str(bad["error"])})
            else:
                checked.append(entry)

        def change(current: list[str], limit: int) -> Result | Changed:
            outcome, added, present, over = list(current), [], [], []
            for entry in checked:
                if entry in outcome:
                    present.append(entry)
                    continue
                step = add_entry(outcome, limit, entry)
                if isinstance(step, dict):
                    over.append({"entry": entry, "error": str(step["error"])})
                    continue
                outcome = step[0]
                added.append(entry)
            if not outcome:
                return fail("None of the chosen entries can be stored; nothing was changed.",
                            added=[], present=present, refused=refused + over)
            return outcome, {"added": added, "present": present, "refused": refused + over}

        return self._mutate(target, change, "Entries restored.", rebuild_drifted=rebuild)

    def edit(self, target: str, old_str: str, new_str: str) -> Result:
        """Replace the one occurrence of ``old_str`` in the one entry holding it (``str_replace``).

        Unlike :meth:`replace` (a short substring names a whole entry), this edits text in place:
        ``old_str`` must occur exactly once across all entries, verbatim. No match or several is a
        failure listing the candidates; an edit that empties the entry removes it.
        """
        if (bad := self._target_error(target)) is not None:
            return bad
        old, new = str(old_str), str(new_str)
        if not old:
            return fail("old_str cannot be empty.")
        label = self.backend.label(target)
        return self._mutate(target, lambda entries, limit: edit_entry(entries, limit, old, new, label),
                            "Entry edited.")

    # ----------------------------------------------------------------- helpers

    def _mutate(
        self,
        target: str,
        change: Change,
        message: str,
        *,
        backup_dropped: bool = False,
        rebuild_drifted: bool = False,
    ) -> Result:
        """Lock, re-read, check drift, apply ``change``, write; all under the lock.

        ``backup_dropped``: before writing a list that leaves out a stored entry, back up the old text.
        ``rebuild_drifted``: a drifted target is backed up, then ``change`` starts from no entries.
        """
        label = self.backend.label(target)
        limit = self.char_limit(target)
        backup: str | None = None
        try:
            with self.backend.transaction(target, self.lock_timeout) as txn:
                raw = txn.raw
                if not raw.readable:
                    return fail(f"{raw.error}. Refusing to write so nothing is lost; fix that and retry.")
                entries, drift = self._parse_under_lock(target, raw, limit)
                with self._state:
                    self._entries[target] = entries
                if raw.invalid is not None:
                    drift = INVALID_UTF8
                if drift is not None and not rebuild_drifted:
                    return self._drift_result(txn, raw, label, self.backend.location(target), drift)
                if drift is not None:
                    backup = txn.backup(raw)
                    if BACKUP_FAILED in backup:
                        return fail(f"Could not back up {label} before rebuilding it ({backup}); nothing was "
                                    "changed. Fix the directory (permissions? space?) and retry.")
                    entries = []
                changed = change(list(entries), limit)
                if isinstance(changed, dict):
                    return changed
                outcome, extra = changed
                if backup is None and backup_dropped and any(entry not in outcome for entry in entries):
                    backup = txn.backup(raw)
                    if BACKUP_FAILED in backup:
                        return fail(f"Could not back up {label} before replacing entries ({backup}); "
                                    "nothing was changed. Fix the directory (permissions? space?) and retry.")
                text = serialize_entries(outcome)
                txn.write(text)
                with self._state:
                    self._entries[target] = outcome
                    self._written[target] = (text, limit, list(outcome))
        except BackendBlocked as exc:
            return fail(f"{exc} Nothing was changed.")
        except BackendBusy as exc:
            # The backend says why (a lock held elsewhere, a lost connection); either way nothing was written.
            return fail(
                f"{label} is busy ({exc or 'another writer holds its lock'}; waited up to {self.lock_timeout:g}s). "
                "Nothing was changed; retry in a moment.",
                retryable=True,
            )
        except StorageError as exc:
            return fail(f"{label} could not be written: {exc}. Nothing was changed.")
        result = self._success(target, message)
        if backup is not None:
            result["backup"] = backup
        result.update(extra)
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
        return fail(
            f"Refusing to write {label}: file on disk has content that wouldn't round-trip through the "
            f"memory tool ({drift.reason}; {drift.cause}). A snapshot was saved to {backup}. Resolve the "
            f"drift first: {fix} Then retry. This guard exists to prevent silent data loss.",
            driftBackup=backup,
            remediation=(
                f"Open {backup} to see the exact content. {fix} If you moved text out of {label}, re-add the "
                "facts you still need one at a time with memory_add."
            ),
        )

    def _target_error(self, target: object) -> Result | None:
        if target in TARGETS:
            return None
        return fail(f"Invalid target {target!r}. Use 'memory' or 'user'.")

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
