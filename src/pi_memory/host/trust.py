"""Project trust: whether a folder's ``.pi/`` may configure and extend the agent.

The trust store is pi 1.6.0's ``<agentDir>/trust.json`` — a JSON object mapping absolute
folder paths to ``true``/``false`` (``null`` clears) — locked with proper-lockfile's
protocol, so a decision made in pi holds here and vice versa. The nearest ancestor with a
decision wins, so trusting ``~/src`` trusts every project below it.

:func:`decide_project_trust` is the one decision every reader of a project's settings makes:
the session runtime with its extensions' ``project_trust`` handlers and a user to ask, and the
commands that only read settings (``pi-memory status``, ``read``, ``mcp``) headlessly, through
:func:`headless_project_trust`, which needs no event loop.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pi_memory.base.fs import atomic_write_text
from pi_memory.base.lock import file_lock
from pi_memory.host.paths import CONFIG_DIR_NAME, agent_dir

if TYPE_CHECKING:
    from pi_memory.host.settings import Settings

TRUST_REQUIRING_RESOURCES = (
    "settings.json", "mcp.json", "extensions", "skills", "prompts", "themes", "SYSTEM.md", "APPEND_SYSTEM.md",
)
DefaultTrust = Literal["ask", "always", "never"]


class TrustStoreError(Exception):
    """The trust store exists but cannot be understood; nothing is assumed trusted."""


def _normalize(path: Path | str) -> str:
    return os.path.realpath(Path(path).expanduser().absolute())


def has_trust_requiring_resources(cwd: Path | str) -> bool:
    """True when ``cwd`` has project resources that only a trusted project may use."""
    root = Path(_normalize(cwd))
    project = root / CONFIG_DIR_NAME
    if any((project / name).exists() for name in TRUST_REQUIRING_RESOURCES):
        return True
    user_skills = Path(_normalize(Path.home())) / ".agents" / "skills"
    for directory in (root, *root.parents):
        candidate = directory / ".agents" / "skills"
        if candidate != user_skills and candidate.exists():
            return True
    return False


class ProjectTrustStore:
    """Read and write trust decisions in ``<agent_dir>/trust.json``."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.path = (Path(directory) if directory is not None else agent_dir()) / "trust.json"

    def _read(self) -> dict[str, bool | None]:
        try:
            text = self.path.read_text(encoding="utf-8-sig")
        except FileNotFoundError:
            return {}
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            msg = f"cannot read trust store {self.path}: {exc.msg}; fix or delete it"
            raise TrustStoreError(msg) from exc
        except RecursionError:
            msg = f"cannot read trust store {self.path}: it nests too deeply; fix or delete it"
            raise TrustStoreError(msg) from None
        if not isinstance(data, dict) or not all(v is True or v is False or v is None for v in data.values()):
            raise TrustStoreError(f"invalid trust store {self.path}: expected an object of true/false/null")
        return data

    def get(self, cwd: Path | str) -> bool | None:
        """The nearest decision for ``cwd`` or one of its parents; ``None`` when undecided."""
        if not self.path.exists():
            return None
        with file_lock(self.path):
            data = self._read()
        current = Path(_normalize(cwd))
        for directory in (current, *current.parents):
            decision = data.get(str(directory))
            if decision is True or decision is False:
                return decision
        return None

    def set(self, cwd: Path | str, decision: bool | None) -> None:
        """Record (or with ``None`` clear) the decision for exactly ``cwd``."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with file_lock(self.path) as held:
            data = self._read()
            key = _normalize(cwd)
            data.pop(key, None)
            if decision is not None:
                data[key] = decision
            ordered = {k: data[k] for k in sorted(data) if data[k] is not None}
            # Confirmed right before the rename, as the memory store does: a writer paused past the
            # stale time may have lost the lock, and renaming what it read would drop a newer decision.
            atomic_write_text(self.path, json.dumps(ordered, indent=2) + "\n", before_rename=held.confirm)


@dataclass(frozen=True)
class TrustAnswer:
    """What a ``project_trust`` handler or a prompt decided."""

    trusted: bool
    remember: bool = False


TrustHook = Callable[[str], Awaitable[TrustAnswer | None]]


async def resolve_project_trusted(
    cwd: Path | str,
    *,
    store: ProjectTrustStore,
    override: bool | None = None,
    default: DefaultTrust = "ask",
    extension_hook: TrustHook | None = None,
    ask_user: TrustHook | None = None,
) -> bool:
    """Decide trust the way pi 1.6.0 does.

    ``--trust``/``--no-trust`` (``override``) win; a folder without trust-requiring
    resources is trusted unless the store says no; then a ``project_trust`` extension
    handler, the store, the ``defaultProjectTrust`` setting, and last the user (only when
    there is a UI — headless runs stay untrusted).
    """
    if override is not None:
        return override
    cwd_text = _normalize(cwd)
    if not has_trust_requiring_resources(cwd_text):
        decision = store.get(cwd_text)
        return True if decision is None else decision
    if extension_hook is not None:
        answer = await extension_hook(cwd_text)
        if answer is not None:
            if answer.remember:
                store.set(cwd_text, answer.trusted)
            return answer.trusted
    decision = store.get(cwd_text)
    if decision is not None:
        return decision
    if default == "always":
        return True
    if default == "never" or ask_user is None:
        return False
    answer = await ask_user(cwd_text)
    if answer is None:
        return False
    if answer.remember:
        store.set(cwd_text, answer.trusted)
    return answer.trusted


def default_trust(value: Any) -> DefaultTrust:
    """The ``defaultProjectTrust`` setting as a policy; anything but ``"always"``/``"never"`` asks."""
    return "always" if value == "always" else "never" if value == "never" else "ask"


async def decide_project_trust(
    cwd: Path | str,
    default_setting: Any = "ask",
    *,
    store: ProjectTrustStore | None = None,
    override: bool | None = None,
    extension_hook: TrustHook | None = None,
    ask_user: TrustHook | None = None,
) -> bool:
    """Whether ``cwd``'s project settings and resources apply: :func:`resolve_project_trusted`
    with the ``defaultProjectTrust`` setting (``default_setting``, as read from the untrusted
    layers) and the trust store (default: ``<agentDir>/trust.json``). Without ``extension_hook``
    and ``ask_user`` the decision is headless: it only reads trust.json and never waits."""
    return await resolve_project_trusted(cwd, store=store or ProjectTrustStore(), override=override,
                                         default=default_trust(default_setting), extension_hook=extension_hook,
                                         ask_user=ask_user)


def headless_project_trust(
    cwd: Path | str, default_setting: Any = "ask", *, store: ProjectTrustStore | None = None
) -> tuple[bool, list[str]]:
    """:func:`decide_project_trust` with no handlers and no user, and warnings: a trust store that
    cannot be read leaves the project untrusted, with a message saying so. Runs without an event
    loop (and without importing asyncio), so a command that only reads settings stays fast."""
    try:
        return _finished(decide_project_trust(cwd, default_setting, store=store)), []
    except TrustStoreError as exc:
        return False, [f"{exc}; project settings are ignored"]


def headless_settings(cwd: Path | str) -> tuple[Settings, list[str]]:
    """The settings the host would use in ``cwd`` (a trusted project's layer included), and
    warnings about them, decided headlessly: what every reader that is not a session (the
    commands, the MCP server, the web UI) uses, so each reads the same memory as a session there."""
    from pi_memory.host.settings import load_settings

    untrusted = load_settings(cwd, project_trusted=False)
    trusted, warnings = headless_project_trust(cwd, untrusted.get("defaultProjectTrust", "ask"))
    settings = load_settings(cwd, project_trusted=True) if trusted else untrusted
    return settings, [*settings.warnings, *warnings]


def _finished(coroutine: Coroutine[Any, Any, bool]) -> bool:
    """The result of a coroutine that never waits, stepped once with no event loop."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return bool(done.value)
    coroutine.close()
    raise RuntimeError("the headless trust decision waited for something; it must finish without a loop")
