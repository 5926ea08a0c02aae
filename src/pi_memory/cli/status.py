"""What ``pi-memory status`` reports beside the usage table: where each thing lives and what
chose that place, and whether background dreaming can run.

Two environment variables move different things (pi's rule and pi-memory's rule, both kept for
compatibility): ``PI_CODING_AGENT_DIR`` moves the config settings file, the sessions and the
recall index; memories follow ``PI_AGENT_HOME`` only. Each resolver reports what chose its answer
(``*_origin``); this module only adds what the settings files and the command line chose, so the
rules themselves live once, beside the code that applies them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

if TYPE_CHECKING:
    from pi_memory.cli.options import Options
    from pi_memory.extensions.memory import DreamingReport
    from pi_memory.extensions.memory.settings import MemorySettings
    from pi_memory.host.settings import Settings
    from pi_memory.memory import MemoryStore

__all__ = ["Location", "collect_locations", "dreaming_status", "locations_json", "print_locations"]


@dataclass(frozen=True)
class Location:
    """One place pi-memory reads or writes, and what chose it (an env var, a settings file, a
    flag, or the default)."""

    name: str
    path: str
    chosen_by: str
    exists: bool | None = None  # None: not a local path (a database URL)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "path": self.path, "chosenBy": self.chosen_by, "exists": self.exists}


def _set_by(settings: Settings, section: str, key: str) -> str | None:
    """``settings <file> (<section>.<key>)`` for the last layer that sets the key (it wins)."""
    for layer in reversed(settings.layers):
        value = layer.data.get(section)
        if isinstance(value, dict) and value.get(key) not in (None, ""):
            return f"settings {layer.path} ({section}.{key})"
    return None


def _local(name: str, path: str | Path, chosen_by: str) -> Location:
    return Location(name, str(path), chosen_by, Path(path).exists())


def collect_locations(options: Options, memory: MemorySettings, host: Settings, cwd: Path) -> list[Location]:
    """Settings files read, memories, sessions and the recall index, each with what chose it."""
    from pi_memory.extensions.memory.settings import SECTION
    from pi_memory.host.paths import config_dir_origin
    from pi_memory.memory.files import default_memory_dir_origin
    from pi_memory.session.paths import agent_dir_origin, get_default_session_dir_path

    chosen = {"global": "default (always read)", "config": config_dir_origin()[1],
              "project": "this project is trusted"}
    found = [_local(f"settings ({layer.scope})", layer.path, chosen.get(layer.scope, layer.scope))
             for layer in host.layers]
    if memory.shared:
        by = "flag --dsn" if options.dsn else _set_by(host, SECTION, "backend") or "settings"
        found.append(Location("memories", f"PostgreSQL namespace {memory.namespace!r}", by))
    else:
        by = ("flag --dir" if options.dir is not None else _set_by(host, SECTION, "dataDir")
              or default_memory_dir_origin()[1])
        found.append(_local("memories", memory.data_dir, by))
    found.append(_local("sessions", get_default_session_dir_path(str(cwd)), agent_dir_origin()))
    found.append(_recall(host))
    return found


def _recall(host: Settings) -> Location:
    from pi_memory.extensions.recall.settings import SECTION, RecallSettingsError, parse_recall_settings
    from pi_memory.recall.open import default_url_origin

    try:
        url = parse_recall_settings(host.section(SECTION)).url
    except RecallSettingsError as exc:
        return Location("recall index", f"(invalid: {exc})", "settings")
    path, by = (url, _set_by(host, SECTION, "url") or "settings") if url else default_url_origin()
    return Location("recall index", path, by, None if "://" in path else Path(path).exists())


def locations_json(locations: list[Location]) -> list[dict[str, Any]]:
    return [location.to_json() for location in locations]


def print_locations(console: Console, locations: list[Location]) -> None:
    console.print(Text("Locations (what chose each):", style="bold"))
    for location in locations:
        missing = " (not there yet)" if location.exists is False else ""
        console.print(Text(f"  {location.name}: {location.path}{missing} ← {location.chosen_by}"), soft_wrap=True)


def dreaming_status(memory: MemorySettings, store: MemoryStore, host: Settings) -> DreamingReport | None:
    """Whether the background dream can run over ``store`` (None for a store never dreamed over)."""
    from pi_memory.extensions.memory.readiness import STATE_FILE, dream_location, dreaming_report
    from pi_memory.providers import ModelRegistry

    where = dream_location(memory, store)
    if where is None:
        return None
    state = where.get("state_file") or Path(where["memory_dir"]) / STATE_FILE
    return dreaming_report(memory.dreaming, ModelRegistry(host.merged), state)
