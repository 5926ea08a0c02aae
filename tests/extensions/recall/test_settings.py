"""The ``pi-memory-recall`` section (:mod:`pi_memory.extensions.recall.settings`): defaults, strings
from ``$VAR`` interpolation coerced, the extension's own config winning key by key, and a value
that cannot mean anything refused with the key named."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_memory.base.settings import SettingsError
from pi_memory.extensions.recall.settings import RecallSettings, parse_recall_settings
from pi_memory.recall.decay import DEFAULT_DECAY_RATE


def test_nothing_set_gives_the_defaults_and_the_default_location(_isolated_home: Path) -> None:
    settings = parse_recall_settings(None)
    assert settings == RecallSettings()
    assert (settings.batch_size, settings.flush_interval, settings.decay_rate) == (10, 5.0, DEFAULT_DECAY_RATE)
    assert settings.location.endswith("recall.db")


def test_interpolated_strings_are_coerced_and_injected_config_wins(_isolated_home: Path) -> None:
    section = {"enabled": "false", "batchSize": "25", "flushInterval": "0.5", "url": "~/idx.db", "rank": "recency"}
    settings = parse_recall_settings(section, {"batchSize": 3, "rate": 0.01, "service": object()})
    assert (settings.enabled, settings.batch_size, settings.flush_interval) == (False, 3, 0.5)
    assert settings.url == str(Path("~/idx.db").expanduser()) and settings.rank == "recency"
    assert settings.decay_rate == 0.01  # the guide's ``rate`` spelling
    remote = parse_recall_settings({"url": "postgresql://db.internal/recall"})
    assert remote.location == "postgresql://db.internal/recall"


@pytest.mark.parametrize(("section", "named"), [
    ({"batchSize": 0}, "pi-memory-recall.batchSize"),
    ({"flushInterval": "soon"}, "pi-memory-recall.flushInterval"),
    ({"enabled": "perhaps"}, "pi-memory-recall.enabled"),
    ({"rank": "random"}, "pi-memory-recall.rank must be one of relevance, recency, importance"),
])
def test_a_value_that_cannot_mean_anything_is_refused_naming_the_key(section: dict[str, object],
                                                                     named: str) -> None:
    with pytest.raises(SettingsError, match=named.replace(".", r"\.")):
        parse_recall_settings(section)
