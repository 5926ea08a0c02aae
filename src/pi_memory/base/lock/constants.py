"""Every number the lock runs on, and its two test switches, in one place."""

from __future__ import annotations

import os

#: proper-lockfile's ``stale``: a lock whose mtime is older than this is abandoned.
STALE_SECONDS = 30.0
#: How long :func:`~pi_memory.base.lock.file_lock` waits by default.
DEFAULT_TIMEOUT = 3.0
#: proper-lockfile's retry backoff: 50 ms, times 1.5 per attempt, at most 500 ms.
MIN_DELAY = 0.05
MAX_DELAY = 0.5
FACTOR = 1.5
#: How often the refresher thread looks for locks due (each is refreshed every ``stale / 2``).
REFRESH_TICK = 1.0

#: Debris beside a lock (temp records, records that prove nothing) older than this is swept.
ORPHAN_AGE = 60.0
#: A directory scan for debris runs at least this often per lock and process (see ``publish``).
SWEEP_EVERY = 30.0
#: A spare's record is rewritten in place, padded to this size (JSON ignores the spaces).
RECORD_SIZE = 512
#: An owner record is never longer than this; a longer file is not ours.
MAX_RECORD_BYTES = 4096

#: Test switch: ``_PI_MEMORY_LOCK_MKDIR=1`` makes every lock use the mkdir fallback, as on a
#: system without renameat2 (read at import, so it reaches subprocesses too).
FORCE_MKDIR = os.environ.get("_PI_MEMORY_LOCK_MKDIR") == "1"
#: Test switch: ``_PI_MEMORY_LOCK_STALE=<seconds>`` shortens the default stale time, so a test of
#: a holder stopped past it need not wait 30 s.
DEFAULT_STALE = float(os.environ.get("_PI_MEMORY_LOCK_STALE") or STALE_SECONDS)
