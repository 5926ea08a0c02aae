"""The proper-lockfile lock, under the name earlier releases gave it: see :mod:`pi_memory.base.lock`."""

from pi_memory.base import lock as _implementation
from pi_memory.base.lock import *  # noqa: F403  (the same public names)

__all__ = list(_implementation.__all__)
