"""The JSONL file behind a session: written lazily, appended line by line, rewritten atomically.

pi 1.6.0 writes nothing until the session holds a user or assistant message; then the header and
every buffered entry go out at once, and each later entry is one appended line (fsynced here).
Lines of an opened file that cannot be read are kept: they stay in the file, are copied to
``<file>.damaged``, and a rewrite that would drop them while they exist nowhere else is refused.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence

from . import jsjson
from .entries import Entry
from .errors import SessionError, SessionFileDamagedWarning
from .store import (
    DamagedLine,
    LoadResult,
    append_line,
    damaged_sidecar_path,
    load_records,
    rewrite_file,
    save_damaged_lines,
    serialize_records,
    write_new_file,
)

__all__ = ["SessionFile"]


class SessionFile:
    """Where a session's records go; ``path`` is None in memory (``persist`` False)."""

    def __init__(self, persist: bool) -> None:
        self.persist = persist
        self.path: str | None = None
        self.flushed = False
        """Whether the file holds the header (later entries are appended to it)."""
        self.damaged_lines: list[DamagedLine] = []
        self.damaged_sidecar: str | None = None
        self._unsaved_damage: tuple[str, str] | None = None
        """(file, why) when damaged lines of ``file`` could not be copied to its sidecar."""

    def open(self, path: str, preloaded: LoadResult | None, stacklevel: int) -> LoadResult | None:
        """Make ``path`` this session's file and read it (None when it does not exist yet).

        Raises :class:`SessionError` for a non-empty file that is not a session: it is never
        overwritten. An empty file comes back as an invalid result (the caller starts it afresh).
        """
        self.path = path
        self.damaged_lines = []
        self.damaged_sidecar = None
        self._unsaved_damage = None
        if not os.path.exists(path):
            return None
        loaded = preloaded if preloaded is not None else load_records(path)
        self._note_damage(path, loaded, stacklevel + 1)
        if not loaded.valid and os.path.getsize(path) > 0:
            raise SessionError(f"Session file is not a valid pi session: {path}")
        return loaded

    def _note_damage(self, path: str, loaded: LoadResult, stacklevel: int) -> None:
        """Copy ``loaded``'s unreadable lines to ``<path>.damaged`` and warn (they stay in the file)."""
        if not loaded.damaged:
            return
        self.damaged_lines = list(loaded.damaged)
        sidecar = damaged_sidecar_path(path)
        try:
            self.damaged_sidecar = save_damaged_lines(path, loaded.damaged)
            kept = f"; copied to {sidecar}"
        except OSError as exc:
            why = f"they could not be copied to {sidecar} ({exc.strerror or exc})"
            self._unsaved_damage = (path, why)
            kept = f"; {why}"
        where = ", ".join(f"line {d.line} ({d.reason})" for d in loaded.damaged[:5])
        more = f" and {len(loaded.damaged) - 5} more" if len(loaded.damaged) > 5 else ""
        warnings.warn(
            f"{path}: skipped {len(loaded.damaged)} unreadable line(s): {where}{more}. "
            f"The lines stay in the file{kept}.",
            SessionFileDamagedWarning,
            stacklevel=stacklevel,
        )

    def rewrite(self, records: Sequence[Entry]) -> None:
        """Replace the whole file with ``records`` (atomically); refused while it alone holds
        unreadable lines the rewrite would leave out."""
        if not self.persist or not self.path:
            return
        if self._unsaved_damage is not None and self._unsaved_damage[0] == self.path:
            raise SessionError(
                f"{self.path} must be rewritten (an old session version is migrated to "
                f"v3, which leaves unreadable lines out), but {len(self.damaged_lines)} unreadable "
                f"line(s) exist only in this file: {self._unsaved_damage[1]}. Nothing was changed. Move "
                f"{damaged_sidecar_path(self.path)} aside or make it writable, then open the "
                "session again."
            )
        rewrite_file(self.path, serialize_records(records))

    def write(self, entry: Entry, records: Sequence[Entry], has_conversation: bool) -> None:
        """Persist the just-appended ``entry``: the whole buffer on the first conversation entry."""
        if not self.persist or not self.path:
            return
        if not self.flushed:
            if not has_conversation:
                return
            write_new_file(self.path, serialize_records(records))
            self.flushed = True
        else:
            append_line(self.path, jsjson.dumps(entry) + "\n")
