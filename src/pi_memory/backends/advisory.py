"""PostgreSQL session advisory locks: a non-blocking, cross-machine "only one of us" for jobs
such as dreaming. The lock dies with its connection, so a crashed holder never leaves a stale
lock behind (:meth:`~pi_memory.backends.postgres.PostgresBackend.advisory_lock` scopes the key
to a namespace)."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .transaction import first_column

if TYPE_CHECKING:
    import psycopg

__all__ = ["lock_key", "try_advisory_lock"]


def lock_key(key: str) -> int:
    """A stable signed 64-bit advisory-lock id for ``key`` (same on every machine)."""
    return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big", signed=True)


@contextlib.contextmanager
def try_advisory_lock(conn: psycopg.Connection[Any], key: str) -> Iterator[bool]:
    """Hold the session advisory lock ``key`` on ``conn`` for the block if it is free (``True``),
    else yield ``False`` at once; never waits. Released at the end of the block."""
    lock_id = lock_key(key)
    held = bool(first_column(conn.execute("SELECT pg_try_advisory_lock(%s)", (lock_id,)).fetchone()))
    try:
        yield held
    finally:
        if held and not conn.closed:
            with contextlib.suppress(Exception):
                conn.execute("SELECT pg_advisory_unlock(%s)", (lock_id,))
