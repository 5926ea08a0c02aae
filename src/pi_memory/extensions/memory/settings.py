"""The ``pi-memory`` section, checked once so every later step can trust its values.

The storage keys are parsed by :func:`pi_memory.backends.parse_store_settings` (the same parse
``pi-memory mcp`` and :func:`~pi_memory.backends.open_store` use); this module adds the keys of
the extension itself (extraction, dreaming). The coercion rule and the error type are the ones
of every section (:mod:`pi_memory.base.settings`): strings such as ``"4000"`` and ``"false"`` are
coerced, anything else is refused with a message naming the key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pi_memory.backends import BACKENDS, StoreSettings, open_store_settings, parse_store_settings
from pi_memory.backends.settings import DEFAULT_NAMESPACE, SECTION
from pi_memory.base.paths import default_memory_dir
from pi_memory.base.settings import SettingsError, flag, number, whole
from pi_memory.memory import MemoryStore

if TYPE_CHECKING:
    from pi_memory.host.settings import Settings

__all__ = ["BACKENDS", "DEFAULT_DREAM_MODEL", "DEFAULT_NAMESPACE", "SECTION", "DreamingSettings", "MemorySettings",
           "ModelRef", "SettingsError", "open_settings_store", "parse_settings", "resolve_memory_settings"]


@dataclass(frozen=True)
class ModelRef:
    """``{"provider": ..., "model": ...}`` in settings (``"provider/model"`` is accepted too)."""

    provider: str
    model: str

    def __str__(self) -> str:
        return f"{self.provider}/{self.model}"


DEFAULT_DREAM_MODEL = ModelRef("openai", "gpt-4.1-mini")


@dataclass(frozen=True)
class DreamingSettings:
    """``pi-memory.dreaming``: when background consolidation may run, and with which model."""

    enabled: bool = True
    min_hours_since_last_run: float = 24.0
    min_turns_since_last_run: int = 5
    model: ModelRef = DEFAULT_DREAM_MODEL


@dataclass(frozen=True)
class MemorySettings(StoreSettings):
    """The effective ``pi-memory`` settings (file layers merged, injected config on top): where
    memory lives (:class:`~pi_memory.backends.StoreSettings`) and the extension's own keys."""

    extraction_model: ModelRef | None = None
    extraction_interval: int = 5
    dreaming: DreamingSettings = field(default_factory=DreamingSettings)
    store: MemoryStore | None = None

    @property
    def uses_default_dir(self) -> bool:
        """True when memory is the default one — the global default directory, or the ``default``
        namespace of a shared database — so dreaming reads every project's sessions, as pi-memory
        does. A custom directory or namespace only gets the current session directory, so one
        project's conversations never feed another's memory."""
        if self.store is not None:
            return False
        if self.backend == "postgres":
            return self.namespace == DEFAULT_NAMESPACE
        return str(self.data_dir) == str(default_memory_dir())

    @property
    def shared(self) -> bool:
        """True when memory lives in a database other machines may share (not in ``data_dir``)."""
        return self.store is None and self.backend != "file"

    def dream_state_file(self, memory_id: str) -> Path:
        """This machine's dreaming state for a shared memory: ``<dataDir>/dreaming-state.pg-<hash>.json``.

        Dreaming reads this machine's session files, so how far it got is per machine; the hash
        of the shared memory's identity keeps namespaces (and databases) apart.
        """
        digest = hashlib.sha256(memory_id.encode("utf-8")).hexdigest()[:12]
        return self.data_dir / f"dreaming-state.pg-{digest}.json"


def _where(key: str) -> str:
    return f"{SECTION}.{key}"


def _model(key: str, value: Any) -> ModelRef:
    if isinstance(value, str) and "/" in value.strip().strip("/"):
        provider, _, model = value.strip().partition("/")
        return ModelRef(provider.strip(), model.strip())
    if isinstance(value, Mapping):
        name, model_id = value.get("provider"), value.get("model")
        if isinstance(name, str) and name.strip() and isinstance(model_id, str) and model_id.strip():
            return ModelRef(name.strip(), model_id.strip())
    raise SettingsError(
        f'{_where(key)} must be {{"provider": "...", "model": "..."}} '
        f'(e.g. {{"provider": "openai", "model": "gpt-4.1-mini"}}), got {value!r}')


def _dreaming(value: Any) -> DreamingSettings:
    if value is None:
        return DreamingSettings()
    if not isinstance(value, Mapping):
        raise SettingsError(f'{_where("dreaming")} must be an object such as {{"enabled": true}}, got {value!r}')
    defaults = DreamingSettings()
    turns = value.get("minTurnsSinceLastRun")
    if turns is None:
        turns = value.get("minSessionsSinceLastRun")  # deprecated alias: it always counted turns
    key = "minTurnsSinceLastRun" if value.get("minTurnsSinceLastRun") is not None else "minSessionsSinceLastRun"
    return DreamingSettings(
        enabled=defaults.enabled if value.get("enabled") is None
        else flag(_where("dreaming.enabled"), value["enabled"]),
        min_hours_since_last_run=defaults.min_hours_since_last_run if value.get("minHoursSinceLastRun") is None
        else number(_where("dreaming.minHoursSinceLastRun"), value["minHoursSinceLastRun"], minimum=0,
                    example="24", unit="hours"),
        min_turns_since_last_run=defaults.min_turns_since_last_run if turns is None
        else whole(_where(f"dreaming.{key}"), turns, minimum=0, example=5),
        model=defaults.model if value.get("model") is None else _model("dreaming.model", value["model"]),
    )


def parse_settings(file_section: Mapping[str, Any] | None, injected: Mapping[str, Any] | None = None) -> MemorySettings:
    """``{**file_section, **injected}`` (the injected config wins, per key) as checked settings.

    Raises :class:`SettingsError` for a value that cannot be used.
    """
    merged: dict[str, Any] = {**(file_section or {}), **(injected or {})}
    store = merged.get("store")
    if store is not None and not isinstance(store, MemoryStore):
        raise SettingsError(f"the injected 'store' must be a pi_memory.memory.MemoryStore, got {type(store).__name__}")
    extraction = merged.get("extractionModel")
    # an injected store replaces every storage key but the limits (and dataDir, dreaming's state)
    stored = parse_store_settings(merged if store is None else {key: merged.get(key) for key in
                                                                 ("dataDir", "memoryCharLimit", "userCharLimit")})
    return MemorySettings(
        **{f.name: getattr(stored, f.name) for f in fields(StoreSettings)},
        extraction_model=None if extraction is None else _model("extractionModel", extraction),
        extraction_interval=5 if merged.get("extractionInterval") is None
        else whole(_where("extractionInterval"), merged["extractionInterval"], minimum=1, example=5),
        dreaming=_dreaming(merged.get("dreaming")),
        store=store,
    )


def open_settings_store(settings: MemorySettings) -> MemoryStore:
    """The store ``settings`` describe: the injected one, files in ``data_dir``, or PostgreSQL.

    Opening never touches the database (the first read does); a PostgreSQL store should be
    closed with :func:`pi_memory.backends.close_store` when its owner is done with it.
    """
    if settings.store is not None:
        return settings.store
    return open_store_settings(settings)


def resolve_memory_settings(
    cwd: Path,
    *,
    dir: Path | None = None,
    dsn: str | None = None,
    namespace: str | None = None,
    memory_limit: int | None = None,
    user_limit: int | None = None,
    loaded: tuple[Settings, list[str]] | None = None,
) -> tuple[MemorySettings, list[str]]:
    """The effective ``pi-memory`` settings in ``cwd`` with a command line's overrides, and warnings.

    Layers as the host reads them (global, agent config dir, the project's only when trusted,
    :func:`pi_memory.host.trust.headless_settings`), then the overrides: ``dir`` forces files,
    ``dsn`` PostgreSQL, ``namespace`` and the limits override their keys. So a command, the web
    UI and the agent always open the same store. Raises :class:`SettingsError` for a value that
    cannot be used (a PostgreSQL backend without a DSN, a bad limit, both ``dir`` and ``dsn``).
    ``loaded``: what ``headless_settings(cwd)`` returned, when the caller has it already.
    """
    from pi_memory.host.trust import headless_settings

    if dir is not None and dsn is not None:
        raise SettingsError("pass either --dir (files) or --dsn (PostgreSQL), not both")
    settings, warnings = headless_settings(cwd) if loaded is None else loaded
    overrides: dict[str, Any] = {}
    if dir is not None:
        overrides.update(backend="file", dataDir=str(dir))
    if dsn is not None:
        overrides.update(backend="postgres", dsn=dsn)
    if namespace is not None:
        overrides["namespace"] = namespace
    if memory_limit is not None:
        overrides["memoryCharLimit"] = memory_limit
    if user_limit is not None:
        overrides["userCharLimit"] = user_limit
    notes = settings.section_warnings(SECTION)  # what was ignored may be why a value is missing
    errors = settings.section_errors(SECTION)
    if errors and dir is None and dsn is None:  # --dir/--dsn say where memory is
        raise SettingsError("\n".join(errors))
    notes += errors
    try:
        parsed = parse_settings(settings.section(SECTION), overrides)
    except SettingsError as exc:
        raise SettingsError("\n".join([str(exc), *(f"Warning: {note}" for note in notes)])) from None
    if namespace is not None and parsed.backend != "postgres":
        raise SettingsError("--namespace only applies to the PostgreSQL backend: add --dsn, or set "
                            "pi-memory.backend to \"postgres\"")
    return parsed, [*warnings, *notes]
