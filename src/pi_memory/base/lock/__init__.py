"""A cross-process lock that speaks proper-lockfile's protocol, so Python and Node share a file.

:mod:`.protocol` is proper-lockfile's protocol on one page (acquire, refresh, the stale rule,
release); :mod:`.owner` the owner records and the liveness rule that let a dead holder's lock be
taken over at once; :mod:`.publish` the atomic publication, spare directories and debris sweep
that make it fast; :mod:`.constants` every number it runs on.
"""

from pi_memory.base.lock.constants import DEFAULT_TIMEOUT, STALE_SECONDS
from pi_memory.base.lock.errors import LockBlocked, LockBusy, LockCompromised
from pi_memory.base.lock.owner import owner_record_path
from pi_memory.base.lock.protocol import HeldLock, file_lock, lock_dir_for

__all__ = [
    "DEFAULT_TIMEOUT",
    "STALE_SECONDS",
    "HeldLock",
    "LockBlocked",
    "LockBusy",
    "LockCompromised",
    "file_lock",
    "lock_dir_for",
    "owner_record_path",
]
