"""Bounded tool results, under the name earlier releases gave them: see :mod:`pi_memory.base.tools`."""

from pi_memory.base import tools as _implementation
from pi_memory.base.tools import *  # noqa: F403  (the same public names)

__all__ = list(_implementation.__all__)
