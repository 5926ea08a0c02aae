"""Recalled text goes back into a model's context, so it passes the threat scanner first.

A past message can carry an injection that was harmless where it was (a web page quoted in a
tool result) but becomes an instruction when replayed as "memory". Hits for a model therefore
keep their id and metadata but their text becomes ``[BLOCKED: …]`` naming the findings, never
the payload. Humans using the CLI see the raw text with a warning instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from pi_memory.recall.types import Hit
from pi_memory.security.threats import threat_ids

__all__ = ["SCAN_SCOPE", "blocked_placeholder", "guard_hit", "guard_hits", "threats_in"]

SCAN_SCOPE = "context"
"""Recalled text is context for the model (not a system-prompt write), hence the ``context`` scope."""


def threats_in(text: str) -> list[str]:
    return threat_ids(text, SCAN_SCOPE)


def blocked_placeholder(ids: list[str]) -> str:
    return f"[BLOCKED: recalled message withheld, it matches threat pattern(s) {', '.join(ids)}]"


def guard_hit(hit: Hit) -> Hit:
    """The hit unchanged when clean; else its text replaced by a placeholder (``metadata["blocked"]``)."""
    found = threats_in(hit.text)
    if not found:
        return hit
    return replace(hit, text=blocked_placeholder(found), metadata={**hit.metadata, "blocked": found})


def guard_hits(hits: Iterable[Hit]) -> list[Hit]:
    """What a ``search_memory`` tool should hand to the model."""
    return [guard_hit(h) for h in hits]
