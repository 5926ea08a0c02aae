"""Whether background dreaming can run, answered without running it
(:mod:`pi_memory.extensions.memory.readiness`): the state file kept compatible with pi-memory's,
and the one line ``pi-memory status`` prints, with the setting that fixes it."""

from __future__ import annotations

import json
from pathlib import Path

from pi_memory.extensions.memory.readiness import (
    FAILURE_KEY,
    STATE_FILE,
    DreamState,
    dreaming_report,
    read_state,
    write_state,
)
from pi_memory.extensions.memory.settings import DreamingSettings, ModelRef
from pi_memory.providers import ModelRegistry


def test_the_state_file_round_trips_and_keeps_keys_other_tools_added(tmp_path: Path) -> None:
    assert read_state(tmp_path) == DreamState()  # never dreamed
    (tmp_path / STATE_FILE).write_text("{not json")
    assert read_state(tmp_path).last_consolidated_at is None
    (tmp_path / STATE_FILE).write_text(json.dumps({"lastConsolidatedAt": "2025-01-01T00:00:00.000Z",
                                                   "lastSessionCount": 7, "theirs": 1}))
    state = read_state(tmp_path)
    assert (state.last_session_count, state.extra) == (7, {"theirs": 1})
    assert state.last_ms == 1_735_689_600_000
    write_state(tmp_path, DreamState("2025-02-01T00:00:00.000Z", 9, state.extra))
    assert json.loads((tmp_path / STATE_FILE).read_text()) == {
        "theirs": 1, "lastConsolidatedAt": "2025-02-01T00:00:00.000Z", "lastSessionCount": 9}


def test_the_report_says_why_dreaming_is_off_and_what_fixes_it(tmp_path: Path) -> None:
    registry = ModelRegistry({"providers": {"local": {"baseUrl": "http://127.0.0.1:9/v1", "apiKey": "sk-x",
                                                      "models": [{"id": "m"}]}}}, env={})
    off = dreaming_report(DreamingSettings(enabled=False), registry)
    assert (off.on, off.reason) == (False, "disabled") and off.line().startswith("Dreaming is off:")
    unknown = dreaming_report(DreamingSettings(model=ModelRef("nowhere", "m")), registry)
    assert unknown.reason == "no-model" and "set pi-memory.dreaming.model" in unknown.message
    keyless = dreaming_report(DreamingSettings(model=ModelRef("openai", "gpt-4.1-mini")), registry)
    assert keyless.reason == "no-auth" and "OPENAI_API_KEY" in keyless.message
    ready = dreaming_report(DreamingSettings(model=ModelRef("local", "m")), registry)
    assert ready.on and ready.line() == "Dreaming: on (local/m)"
    state = tmp_path / STATE_FILE
    state.write_text(json.dumps({FAILURE_KEY: {"at": "2025-03-01T00:00:00Z", "message": "Connection error."}}))
    down = dreaming_report(DreamingSettings(model=ModelRef("local", "m")), registry, state)
    assert down.reason == "unreachable" and "start the server at http://127.0.0.1:9/v1" in down.message
    assert down.to_json()["on"] is False
