"""One recall service per index location per process (:mod:`pi_memory.extensions.recall.shared`):
the recall and decay extensions, and the runtimes /new and /reload make one after the other,
share it, and the last one to let go flushes and closes the index."""

from __future__ import annotations

from pathlib import Path

from pi_memory.extensions.recall.settings import RecallSettings
from pi_memory.extensions.recall.shared import acquire, release


def test_users_of_one_location_share_one_service_until_the_last_lets_go(tmp_path: Path) -> None:
    here = RecallSettings(url=str(tmp_path / "recall.db"))
    first, second = acquire(here), acquire(here)
    other = acquire(RecallSettings(url=str(tmp_path / "other.db")))
    assert first is second and other is not first
    release(first)
    assert acquire(here) is second  # still held by the second user: the same service
    release(second)
    release(second)
    fresh = acquire(here)
    assert fresh is not first  # the last user closed it; the next one opens the index again
    for service in (fresh, other):
        release(service)
    release(other)  # giving back what is not held changes nothing
