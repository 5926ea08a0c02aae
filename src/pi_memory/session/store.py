"""Reading and writing session files: tolerant parsing, durable appends, atomic rewrites.

Reading follows pi 1.6.0 (split on ``\\n``, skip blank lines, skip lines ``JSON.parse`` rejects,
the first parsed line must be a header with a string ``id``), but a skipped line is never silent:
it comes back as a :class:`DamagedLine` (1-based line number, byte offset, reason, raw bytes).

Writing never truncates a file in place. Appends go through ``O_APPEND`` in one ``write`` and are
fsynced before returning, so an acknowledged entry survives a crash; if the file does not end in a
newline (a crash mid-append, or a peer's partial line) the append starts a fresh line first, so a
torn line never swallows the next entry. Whole-file rewrites (migration, recovery, branching) go
to a temporary file that is fsynced and renamed over the target.
"""

from __future__ import annotations

import base64
import contextlib
import gc
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from pi_memory.base import js as jsjson
from pi_memory.base.fs import atomic_write, create_durable, write_all
from pi_memory.base.js import js_trim, js_truthy

from .entries import Entry

__all__ = [
    "DamagedLine",
    "LoadResult",
    "append_line",
    "damaged_sidecar_path",
    "load_records",
    "parse_json_line",
    "parse_records",
    "read_session_header",
    "rewrite_file",
    "save_damaged_lines",
    "serialize_records",
    "write_new_file",
]

MAX_HEADER_SCAN_BYTES: Final = 1024 * 1024
#: pi writes session files with the default mode (0644 under the usual umask).
_SESSION_FILE_MODE: Final = 0o644
_JSON_WS: Final = " \t\r\n"
_LEADING_WS_RE: Final = re.compile(r"[ \t\r]*")


@dataclass(frozen=True, slots=True)
class DamagedLine:
    """A line pi would skip. ``raw`` holds its exact bytes (without the ``\\n``)."""

    line: int
    offset: int
    reason: str
    raw: bytes

    def to_record(self, file: str) -> dict[str, Any]:
        """The ``<file>.damaged`` record: text when the bytes are UTF-8, base64 otherwise."""
        record: dict[str, Any] = {"file": file, "line": self.line, "offset": self.offset, "reason": self.reason}
        try:
            record["text"] = self.raw.decode("utf-8")
        except UnicodeDecodeError:
            record["base64"] = base64.b64encode(self.raw).decode("ascii")
        return record


@dataclass(slots=True)
class LoadResult:
    """Parsed records of one file, in file order (header lines included), and what was skipped."""

    records: list[Entry] = field(default_factory=list)
    damaged: list[DamagedLine] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        """pi's rule: the first parsed record is ``{"type": "session", "id": <string>}``."""
        if not self.records:
            return False
        first = self.records[0]
        return first.get("type") == "session" and isinstance(first.get("id"), str)


def parse_json_line(text: str, start: int, stop: int) -> tuple[Any, str | None]:
    """Parse ``text[start:stop]`` as one JSON value, as ``JSON.parse`` would; (value, error)."""
    pos = start
    if pos < stop and text[pos] in " \t\r":
        pos = _LEADING_WS_RE.match(text, pos).end()  # type: ignore[union-attr]
    try:
        value, end = jsjson.scan_value(text, pos)
    except (StopIteration, ValueError, RecursionError):
        return None, _line_error(text[start:stop])
    if end > stop or (end < stop and text[end:stop].strip(" \t\r")):
        return None, _line_error(text[start:stop])
    return value, None


def _line_error(line: str) -> str:
    """Why one line is not JSON, worded from the line alone (stable whatever follows it)."""
    try:
        jsjson.loads(line)
    except json.JSONDecodeError as exc:
        return f"malformed JSON: {exc.msg} at column {exc.colno}"
    except (ValueError, RecursionError) as exc:
        return f"malformed JSON: {exc}"
    return "malformed JSON"


def serialize_records(records: Iterable[Entry]) -> str:
    """Session lines for ``records``: pi's ``JSON.stringify`` of each, one per line."""
    dumps = jsjson.dumps
    return "".join([dumps(record) + "\n" for record in records])


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic GC while building many small containers that are all kept.

    Parsing a 10k-entry session allocates ~200k dicts and lists; without this the collector
    walks them repeatedly (generation 2 included) and dominates the load time. Nothing built
    here is garbage, and the collector is restored as it was.
    """
    was_enabled = gc.isenabled()
    if was_enabled:
        gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def parse_records(data: bytes) -> LoadResult:
    """Parse a whole session file's bytes (see module docs for the rules)."""
    with gc_paused():
        return _parse_records(data)


def _parse_records(data: bytes) -> LoadResult:
    result = LoadResult()
    records = result.records
    append = records.append
    damaged: list[tuple[int, int, str, str, int, int]] = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = ""
    whole = _parse_whole(text) if text else None
    if whole is not None:
        result.records = whole
        return result
    if text or not data:
        # Line by line: every line is one JSON object ending exactly at its newline, mostly.
        scan = jsjson.scan_value
        find = text.find
        pos, number, length = 0, 1, len(text)
        while pos < length:
            nl = find("\n", pos)
            if nl < 0:
                nl = length
            if pos < nl and text[pos] == "{":
                try:
                    value, end = scan(text, pos)
                except (StopIteration, ValueError, RecursionError):
                    end = -1
                if end == nl:
                    append(value)
                    pos = nl + 1
                    number += 1
                    continue
            _parse_one(text, pos, nl, number, -1, None, append, damaged)
            pos = nl + 1
            number += 1
    else:
        offset, number = 0, 1
        for raw in data.split(b"\n"):
            if offset >= len(data):
                break
            try:
                line, problem = raw.decode("utf-8"), None
            except UnicodeDecodeError as exc:
                line = raw.decode("utf-8", errors="replace")  # what Node's StringDecoder does
                problem = f"invalid UTF-8 at byte {exc.start} (read with U+FFFD, as pi does)"
            _parse_one(line, 0, len(line), number, offset, problem, append, damaged)
            offset += len(raw) + 1
            number += 1
    if damaged:
        result.damaged = _damaged_lines(data, damaged)
    return result


# An element boundary between two objects, as it can only appear inside a line.
_INLINE_BOUNDARY_RE: Final = re.compile(r"\}[ \t\r]*,[ \t\r]*\{")


def _parse_whole(text: str) -> list[Entry] | None:
    """All lines in one ``json`` call, or None when that cannot be proven equal to line by line.

    One call is much faster than one per line (the decoder shares key strings within a call).
    Joining lines with commas into an array gives the same objects as parsing each line iff no
    line splits into two top-level values and no two lines merge into one. With every line
    starting with ``{`` and ending with ``}``, a split needs a ``}``-``,``-``{`` boundary inside a
    line; any line containing that pattern (even inside a string) is first checked on its own,
    and a line that is a complete object on its own cannot hold a top-level boundary. Then the
    array has one element per line exactly when there are as many elements as lines.
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if not lines:
        return None
    for line in lines:
        if not line or line[0] != "{" or line[-1] != "}":
            return None
    if "," in text and _INLINE_BOUNDARY_RE.search(text) is not None:
        for line in lines:
            if "}" in line and _INLINE_BOUNDARY_RE.search(line) is not None:
                try:
                    value, end = jsjson.scan_value(line, 0)
                except (StopIteration, ValueError, RecursionError):
                    return None
                if end != len(line) or type(value) is not dict:
                    return None
    joined = "[" + ",".join(lines) + "]"
    try:
        values, end = jsjson.scan_value(joined, 0)
    except (StopIteration, ValueError, RecursionError):
        return None
    if end != len(joined) or type(values) is not list or len(values) != len(lines):
        return None
    for value in values:
        if type(value) is not dict:
            return None
    return values


def _parse_one(
    text: str,
    start: int,
    stop: int,
    number: int,
    offset: int,
    problem: str | None,
    append: Callable[[Entry], None],
    damaged: list[tuple[int, int, str, str, int, int]],
) -> None:
    """The general rules for one line (blank, whitespace, non-objects, errors)."""
    if start == stop or not js_trim(text[start:stop]):
        return
    value, error = parse_json_line(text, start, stop)
    if error is None and type(value) is not dict:
        if not js_truthy(value):
            return  # JSON.parse gave a falsy value; pi skips it silently
        error = "not a JSON object"
    if error is not None:
        damaged.append((number, offset, error, text, start, stop))
        return
    if problem is not None:
        damaged.append((number, offset, problem, text, start, stop))
    append(value)


def _damaged_lines(data: bytes, found: list[tuple[int, int, str, str, int, int]]) -> list[DamagedLine]:
    lines = data.split(b"\n")
    offsets: list[int] = []
    total = 0
    for raw in lines:
        offsets.append(total)
        total += len(raw) + 1
    return [DamagedLine(number, offsets[number - 1], reason, lines[number - 1]) for number, _, reason, *_ in found]


def load_records(path: str) -> LoadResult:
    """Read and parse ``path``; a missing file gives an empty result. Never writes."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return LoadResult()
    return parse_records(data)


class HeaderScanLimitError(Exception):
    """The first parsed line lies beyond pi's 1 MiB header scan."""


def read_session_header(path: str) -> Entry | None:
    """The header if the first parsed line of ``path`` is one (pi's ``readSessionHeader``).

    Returns None when the first parsed line is another record or the file has none; raises
    :class:`HeaderScanLimitError` when nothing parses in the first 1 MiB and more follows.
    """
    with open(path, "rb") as handle:
        data = handle.read(MAX_HEADER_SCAN_BYTES + 1)
    limited = len(data) > MAX_HEADER_SCAN_BYTES
    if limited:
        data = data[:MAX_HEADER_SCAN_BYTES]
    pos = 0
    while True:
        nl = data.find(b"\n", pos)
        if nl < 0:
            if limited:
                raise HeaderScanLimitError(path)
            raw = data[pos:]
        else:
            raw = data[pos:nl]
        text = raw.decode("utf-8", errors="replace")
        if js_trim(text):
            value, error = parse_json_line(text, 0, len(text))
            if error is None and js_truthy(value):
                if isinstance(value, dict) and value.get("type") == "session" and isinstance(value.get("id"), str):
                    return value
                return None
        if nl < 0:
            return None
        pos = nl + 1


# --- writing ---------------------------------------------------------------------------------


def append_line(path: str, line: str) -> None:
    """Append one record line (``line`` ends with ``\\n``) durably, on a fresh line."""
    data = line.encode("utf-8")
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), _SESSION_FILE_MODE)
    try:
        size = os.fstat(fd).st_size
        if size > 0:
            os.lseek(fd, size - 1, os.SEEK_SET)
            if os.read(fd, 1) != b"\n":
                data = b"\n" + data  # a torn last line must not swallow this entry
        write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def write_new_file(path: str, text: str) -> None:
    """Create ``path`` (failing if it exists, like pi's ``wx``) with ``text``, durably."""
    create_durable(path, text.encode("utf-8"), _SESSION_FILE_MODE)


def rewrite_file(path: str, text: str) -> None:
    """Replace ``path`` with ``text`` atomically: temp file, fsync, rename, fsync the directory.

    The file's mode is kept; a symlink at ``path`` is replaced, not written through.
    """
    atomic_write(path, text.encode("utf-8"), new_mode=_SESSION_FILE_MODE, follow_links=False)


def damaged_sidecar_path(path: str) -> str:
    """Where damaged lines of ``path`` are kept: ``<file>.damaged`` (not ``*.jsonl``, never listed)."""
    return path + ".damaged"


def save_damaged_lines(path: str, damaged: list[DamagedLine]) -> str:
    """Copy damaged lines into ``<file>.damaged`` (JSONL, one record per line), once each.

    Returns the sidecar path once it holds every line of ``damaged`` (saved now or on an earlier
    open). Raises :class:`OSError` when the sidecar cannot be read or written (a directory at
    that path, a read-only file): then the lines exist only in the session file, and the caller
    must not rewrite it.
    """
    sidecar = damaged_sidecar_path(path)
    name = os.path.basename(path)
    seen: set[tuple[Any, ...]] = set()
    try:
        with open(sidecar, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                try:
                    old = json.loads(line)
                except ValueError:
                    continue
                if isinstance(old, dict):
                    seen.add((old.get("line"), old.get("offset"), old.get("text"), old.get("base64")))
    except FileNotFoundError:
        pass
    fresh: list[str] = []
    for item in damaged:
        record = item.to_record(name)
        key = (record["line"], record["offset"], record.get("text"), record.get("base64"))
        if key not in seen:
            seen.add(key)
            fresh.append(jsjson.dumps(record))
    if fresh:
        append_line(sidecar, "".join(line + "\n" for line in fresh))
    return sidecar
