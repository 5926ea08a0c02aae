"""Time-decay importance as an extension: ``get_important_memories(threshold=0.7, limit=10)`` with
the extension guide's weight and real access counts (kept by ``search_memory``). See
``docs/recall.md``."""

from typing import TYPE_CHECKING

from pi_memory._lazy import lazy_package

if TYPE_CHECKING:  # imported on first use (pi_memory._lazy)
    from .lifecycle import DecayExtension, decay_extension
    from .tool import ImportantMemoriesTool, important_result, render_memories

__all__ = ["DecayExtension", "ImportantMemoriesTool", "decay_extension", "important_result", "render_memories"]

lazy_package(__name__)
