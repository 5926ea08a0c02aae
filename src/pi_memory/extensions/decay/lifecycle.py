"""The decay extension: ``get_important_memories`` over the recall index.

It shares the recall extension's :class:`~pi_memory.recall.RecallService` (same
``pi-memory-recall`` settings, same index), so the accesses ``search_memory`` records are the ones
this tool weighs. It indexes nothing itself; without the recall extension it reads what
``pi-memory recall index`` put there. The rate comes from ``pi-memory-recall.decayRate`` or the
extension config (``{"rate": 0.001}``), default 0.0001 per hour.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pi_memory.host import ExtensionAPI
from pi_memory.recall import DEFAULT_DECAY_RATE

from ..recall.lifecycle import ServiceExtension
from .tool import ImportantMemoriesTool

__all__ = ["DecayExtension", "decay_extension"]


class DecayExtension(ServiceExtension):
    """One instance per loaded extension; ``config`` as for the recall extension, plus ``rate``."""

    kind = "decay"

    def __init__(self, pi: ExtensionAPI, config: Mapping[str, Any] | None = None) -> None:
        super().__init__(pi, config, ImportantMemoriesTool(lambda: self.service, lambda: self.rate))

    @property
    def rate(self) -> float:
        return self.settings.decay_rate if self.settings else DEFAULT_DECAY_RATE


def decay_extension(pi: ExtensionAPI, config: Mapping[str, Any] | None = None) -> DecayExtension:
    """The decay extension (entry point ``decay``): ``get_important_memories(threshold, limit)``."""
    return DecayExtension(pi, config)
