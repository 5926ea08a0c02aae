"""The ``pi-memory-recall`` settings section, shared by the recall and decay extensions.

```json
{"pi-memory-recall": {"enabled": true, "url": "~/.pi/agent/recall.db", "embedder": "static",
                      "batchSize": 10, "flushInterval": 5, "decayRate": 0.0001, "rank": "relevance"}}
```

Values may arrive as strings after ``$VAR`` interpolation (``"false"``, ``"10"``); those are
coerced by the coercers every section uses (:mod:`pi_memory.base.settings`), and anything that
cannot mean a value is refused with a :class:`~pi_memory.base.settings.SettingsError` naming the
key: a typo should be fixed, not silently replaced by a default.
An extension's own config (the second argument, or ``{"source": ..., "config": {...}}`` in the
``extensions`` list) wins over the files, key by key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pi_memory.base.paths import default_recall_url
from pi_memory.base.settings import SettingsError, flag, number, text, whole
from pi_memory.recall.decay import DEFAULT_DECAY_RATE

__all__ = ["RANK_MODES", "SECTION", "RecallSettings", "RecallSettingsError", "SettingsError", "parse_recall_settings"]

SECTION = "pi-memory-recall"
RANK_MODES = ("relevance", "recency", "importance")

RecallSettingsError = SettingsError
"""The name this error had when recall kept its own; every section raises :class:`SettingsError`."""


def _where(key: str) -> str:
    return f"{SECTION}.{key}"


@dataclass(frozen=True)
class RecallSettings:
    """The effective recall settings (file layers merged, extension config on top)."""

    enabled: bool = True
    url: str = ""
    """Where the index lives: a path (SQLite) or a ``postgresql://`` URL. Empty means the default,
    ``$PI_MEMORY_RECALL_URL`` else ``<agentDir>/recall.db`` — see :attr:`location`."""
    embedder: str | None = None
    batch_size: int = 10
    flush_interval: float = 5.0
    decay_rate: float = DEFAULT_DECAY_RATE
    rank: str = "relevance"

    @property
    def location(self) -> str:
        return self.url or default_recall_url()


def parse_recall_settings(
    file_section: Mapping[str, Any] | None, injected: Mapping[str, Any] | None = None
) -> RecallSettings:
    """``{**file_section, **injected}`` as checked settings (unknown keys are ignored, so objects
    injected for tests — ``service``, ``embedder`` objects — pass through untouched)."""
    merged: dict[str, Any] = {**(file_section or {}), **(injected or {})}
    defaults = RecallSettings()

    def given(key: str) -> Any:
        return merged.get(key)

    url = "" if given("url") is None else text(_where("url"), given("url"), "~/.pi/agent/recall.db")
    if url and "://" not in url:
        url = str(Path(url).expanduser())
    embedder = given("embedder")
    rank = defaults.rank if given("rank") is None else text(_where("rank"), given("rank"), "relevance")
    if rank not in RANK_MODES:
        raise SettingsError(f"{_where('rank')} must be one of {', '.join(RANK_MODES)}, got {rank!r}")
    rate = given("decayRate") if given("decayRate") is not None else given("rate")
    return RecallSettings(
        enabled=defaults.enabled if given("enabled") is None else flag(_where("enabled"), given("enabled")),
        url=url,
        embedder=(embedder.strip() or None) if isinstance(embedder, str) else None,
        batch_size=defaults.batch_size if given("batchSize") is None
        else whole(_where("batchSize"), given("batchSize"), minimum=1, example=10),
        flush_interval=defaults.flush_interval if given("flushInterval") is None
        else number(_where("flushInterval"), given("flushInterval"), minimum=0, example="5", exclusive=True),
        decay_rate=defaults.decay_rate if rate is None
        else number(_where("decayRate"), rate, minimum=0, example="0.0001"),
        rank=rank,
    )
