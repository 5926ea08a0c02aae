"""Identifiers as pi 1.6.0 makes them: 8-hex entry ids and UUIDv7 session ids.

Entry ids are short so session lines stay readable; pi retries on a collision within the session
and falls back to a full UUID, and so do we. Session ids are UUIDv7 (time-ordered), laid out the
way pi-ai's generator lays them out: 48-bit Unix-ms timestamp, version 7, a 41-bit counter seeded
at random and incremented per id (monotonic within a process), variant bits, random tail.
"""

from __future__ import annotations

import os
import re
import threading
import time
import uuid
from collections.abc import Container
from typing import Any, Final

__all__ = ["assert_valid_session_id", "generate_entry_id", "index_key", "uuidv7"]

_MAX_SEQUENCE: Final = (1 << 41) - 1
_lock = threading.Lock()
_last_timestamp = -1
_sequence: int | None = None

_SESSION_ID_RE: Final = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")


def generate_entry_id(existing: Container[str]) -> str:
    """8 random lowercase hex digits not in ``existing``; a full UUID after 100 collisions."""
    for _ in range(100):
        candidate = os.urandom(4).hex()
        if candidate not in existing:
            return candidate
    return str(uuid.uuid4())


def uuidv7(timestamp_ms: int | None = None) -> str:
    """A time-ordered UUIDv7 string; ids made in one process sort in creation order."""
    global _last_timestamp, _sequence
    rand = bytearray(os.urandom(16))
    with _lock:
        if timestamp_ms is None:
            effective = max(time.time_ns() // 1_000_000, _last_timestamp)
            _last_timestamp = effective
        else:
            if not 0 <= timestamp_ms <= 0xFFFFFFFFFFFF:
                raise ValueError("UUIDv7 timestamp must be an integer between 0 and 0xffffffffffff")
            effective = timestamp_ms
        if _sequence is None:
            _sequence = int.from_bytes(rand[1:6], "big")
        else:
            if _sequence == _MAX_SEQUENCE:
                raise RuntimeError("UUIDv7 generator sequence exhausted")
            _sequence += 1
        seq = _sequence
    rand[0:6] = effective.to_bytes(6, "big")
    rand[6] = 0x70 | ((seq >> 37) & 0x0F)
    rand[7] = (seq >> 29) & 0xFF
    rand[8] = 0x80 | ((seq >> 23) & 0x3F)
    rand[9] = (seq >> 15) & 0xFF
    rand[10] = (seq >> 7) & 0xFF
    rand[11] = ((seq & 0x7F) << 1) | (rand[11] & 0x01)
    h = rand.hex()
    return f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def assert_valid_session_id(session_id: str) -> None:
    """Reject custom session ids pi would reject (they become part of a file name)."""
    if not isinstance(session_id, str) or _SESSION_ID_RE.fullmatch(session_id) is None:
        raise ValueError(
            "Session id must be non-empty, contain only alphanumeric characters, '-', '_', and '.', "
            "and start and end with an alphanumeric character"
        )


def index_key(value: Any) -> Any:
    """``value`` as a dict key for an id index: itself, or a key of its own when unhashable.

    A damaged file may hold a list or an object where an id belongs; such an entry is still
    indexed (pi indexes it under its stringified value) but never matches a real id.
    """
    try:
        hash(value)
    except TypeError:
        return ("unhashable", id(value))
    return value
