"""Where pi keeps session files, computed the way pi 1.6.0 computes it.

``<agentDir>/sessions/--<cwd with / \\ : as ->--/<ISO ts with : . as ->_<sessionId>.jsonl``.
``agentDir`` is ``$PI_CODING_AGENT_DIR`` (``~`` expanded) or ``~/.pi/agent``, resolved by
:mod:`pi_memory.base.paths`. Both hosts must land on the same directory or a user running pi and
our host side by side would see two histories.
"""

from __future__ import annotations

import os
import posixpath

from pi_memory.base.paths import ENV_AGENT_DIR, ENV_SESSION_DIR, agent_dir, normalize_path, sessions_dir
from pi_memory.base.paths import agent_dir_origin as base_agent_dir_origin

__all__ = [
    "ENV_AGENT_DIR",
    "ENV_SESSION_DIR",
    "agent_dir_origin",
    "encode_cwd",
    "get_agent_dir",
    "get_default_session_dir",
    "get_default_session_dir_path",
    "get_sessions_dir",
    "normalize_path",
    "resolve_path",
    "session_dir_from_env",
    "session_file_name",
]

def resolve_path(path: str, base_dir: str | None = None) -> str:
    """pi's ``resolvePath``: normalize, then make absolute against ``base_dir`` (default: cwd)."""
    normalized = normalize_path(path)
    if not os.path.isabs(normalized):
        normalized = os.path.join(normalize_path(base_dir) if base_dir else os.getcwd(), normalized)
    resolved = posixpath.normpath(normalized) if os.sep == "/" else os.path.normpath(normalized)
    if resolved.startswith("//"):  # Node's path.resolve collapses the POSIX "//" prefix
        resolved = "/" + resolved.lstrip("/")
    return resolved


def get_agent_dir() -> str:
    """``$PI_CODING_AGENT_DIR`` (``~`` expanded, not resolved) or ``~/.pi/agent``."""
    return agent_dir()


def agent_dir_origin() -> str:
    """What chose :func:`get_agent_dir`: ``"$PI_CODING_AGENT_DIR"`` or ``"default"``."""
    return base_agent_dir_origin()[1]


def get_sessions_dir() -> str:
    """``<agentDir>/sessions``: ``list_all`` scans its subdirectories."""
    return sessions_dir()


def session_dir_from_env() -> str | None:
    """The session directory a CLI should use from ``$PI_CODING_AGENT_SESSION_DIR``, if set.

    pi's SessionManager ignores this variable; only pi's CLI reads it (``--session-dir`` wins).
    Our host CLI calls this and passes the result as ``session_dir``.
    """
    env = os.environ.get(ENV_SESSION_DIR)
    return normalize_path(env) if env else None


def encode_cwd(cwd: str) -> str:
    """``/home/me/proj`` → ``--home-me-proj--`` (one leading separator removed, ``/ \\ :`` → ``-``)."""
    if cwd[:1] in ("/", "\\"):
        cwd = cwd[1:]
    return "--" + cwd.replace("/", "-").replace("\\", "-").replace(":", "-") + "--"


def get_default_session_dir_path(cwd: str, agent_dir: str | None = None) -> str:
    """The default session directory for ``cwd``, without creating it."""
    resolved_cwd = resolve_path(cwd)
    resolved_agent_dir = resolve_path(agent_dir if agent_dir is not None else get_agent_dir())
    return os.path.join(resolved_agent_dir, "sessions", encode_cwd(resolved_cwd))


def get_default_session_dir(cwd: str, agent_dir: str | None = None) -> str:
    """The default session directory for ``cwd``, created if missing (as pi does)."""
    directory = get_default_session_dir_path(cwd, agent_dir)
    os.makedirs(directory, exist_ok=True)
    return directory


def session_file_name(timestamp_iso: str, session_id: str) -> str:
    """``2025-12-09T00:52:54.397Z`` + id → ``2025-12-09T00-52-54-397Z_<id>.jsonl``."""
    return f"{timestamp_iso.replace(':', '-').replace('.', '-')}_{session_id}.jsonl"
