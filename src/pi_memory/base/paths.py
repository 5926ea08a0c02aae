"""Every default location pi-memory uses, and what chose each one, resolved in one place.

Each location comes in two spellings: ``name()`` gives the location and ``name_origin()`` gives
it with what chose it (``"$PI_CODING_AGENT_DIR"``, ``"$PI_AGENT_HOME"``, ``"default"``, ...),
which is what ``pi-memory status`` prints. The rules are the upstream ones:

* the **agent directory** (pi's ``getAgentDir``): ``$PI_CODING_AGENT_DIR`` (``~`` expanded),
  else ``~/.pi/agent``; pi's settings, sessions, ``trust.json`` and the recall index follow it;
* the **memory directory** (pi-memory's rule): ``$PI_AGENT_HOME/memories``, else
  ``~/.pi/agent/memories`` — memories follow ``PI_AGENT_HOME`` only, never ``PI_CODING_AGENT_DIR``;
* the **config layer**: ``$PI_CODING_AGENT_DIR``, else ``$PI_AGENT_HOME``, else ``~/.pi/agent``;
* the **recall index**: ``$PI_MEMORY_RECALL_URL``, else ``<agentDir>/recall.db``.

Both hosts must land on the same directories, or a user running pi and our host side by side
would see two histories and two memories.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlparse

__all__ = [
    "CONFIG_DIR_NAME",
    "ENV_AGENT_DIR",
    "ENV_AGENT_HOME",
    "ENV_RECALL_URL",
    "ENV_SESSION_DIR",
    "agent_dir",
    "agent_dir_origin",
    "config_dir",
    "config_dir_origin",
    "default_index_path",
    "default_memory_dir",
    "default_memory_dir_origin",
    "default_recall_url",
    "default_recall_url_origin",
    "global_agent_dir",
    "normalize_path",
    "project_config_dir",
    "sessions_dir",
]

CONFIG_DIR_NAME = ".pi"
ENV_AGENT_DIR = "PI_CODING_AGENT_DIR"
"""Overrides the agent directory (``~/.pi/agent``) for every pi component, sessions included."""
ENV_AGENT_HOME = "PI_AGENT_HOME"
"""pi-memory's variable: moves the memory directory (and, after ``PI_CODING_AGENT_DIR``, the config layer)."""
ENV_SESSION_DIR = "PI_CODING_AGENT_SESSION_DIR"
"""pi's CLI (not its SessionManager) uses this as the session directory."""
ENV_RECALL_URL = "PI_MEMORY_RECALL_URL"
"""Overrides the default recall index location (a path or a database URL)."""


def normalize_path(path: str) -> str:
    """pi's ``normalizePath``: expand ``~`` / ``~/…`` and ``file://`` URLs; nothing else."""
    if path == "~":
        return str(Path.home())
    if path.startswith("~/"):
        return os.path.join(str(Path.home()), path[2:])
    if path.startswith("file://"):
        return unquote(urlparse(path).path)
    return path


def global_agent_dir() -> Path:
    """``~/.pi/agent``: the global settings home, whatever the environment says."""
    return Path.home() / CONFIG_DIR_NAME / "agent"


def agent_dir_origin() -> tuple[str, str]:
    """pi's ``getAgentDir`` (``~`` expanded, not made absolute) and what chose it."""
    env = os.environ.get(ENV_AGENT_DIR)
    if env:
        return normalize_path(env), f"${ENV_AGENT_DIR}"
    return os.path.join(str(Path.home()), CONFIG_DIR_NAME, "agent"), "default"


def agent_dir() -> str:
    """``$PI_CODING_AGENT_DIR`` (``~`` expanded, not resolved) or ``~/.pi/agent``."""
    return agent_dir_origin()[0]


def sessions_dir() -> str:
    """``<agentDir>/sessions``: one subdirectory per working directory."""
    return os.path.join(agent_dir(), "sessions")


def config_dir_origin() -> tuple[Path, str]:
    """pi-memory's config layer (``$PI_CODING_AGENT_DIR``, else ``$PI_AGENT_HOME``, else
    ``~/.pi/agent``) and what chose it."""
    for name in (ENV_AGENT_DIR, ENV_AGENT_HOME):
        value = os.environ.get(name, "").strip()
        if value:
            return Path(value).expanduser().absolute(), f"${name}"
    return global_agent_dir(), "default"


def config_dir() -> Path:
    """pi-memory's config layer directory (see :func:`config_dir_origin`)."""
    return config_dir_origin()[0]


def project_config_dir(cwd: Path | str) -> Path:
    """``<cwd>/.pi``."""
    return Path(cwd).absolute() / CONFIG_DIR_NAME


def default_memory_dir_origin() -> tuple[Path, str]:
    """The default memory directory and what chose it: ``"$PI_AGENT_HOME"`` or ``"default"``.

    pi-memory's rule, kept for compatibility: memories follow ``PI_AGENT_HOME`` only, not
    ``PI_CODING_AGENT_DIR`` (which moves pi's settings, sessions and the recall index).
    """
    home = os.environ.get(ENV_AGENT_HOME, "").strip()
    base = Path(home).expanduser() if home else Path.home() / CONFIG_DIR_NAME / "agent"
    return (base / "memories").absolute(), f"${ENV_AGENT_HOME}" if home else "default"


def default_memory_dir() -> Path:
    """``$PI_AGENT_HOME/memories``, else ``~/.pi/agent/memories`` (pi-memory's default)."""
    return default_memory_dir_origin()[0]


def default_index_path() -> Path:
    """``<agentDir>/recall.db``."""
    return Path(agent_dir()) / "recall.db"


def default_recall_url_origin() -> tuple[str, str]:
    """The default recall index location and what chose it: ``$PI_MEMORY_RECALL_URL``, else
    ``<agentDir>/recall.db`` (chosen by ``$PI_CODING_AGENT_DIR`` or the default)."""
    url = os.environ.get(ENV_RECALL_URL)
    if url:
        return url, f"${ENV_RECALL_URL}"
    return str(default_index_path()), agent_dir_origin()[1]


def default_recall_url() -> str:
    """The default recall index location (see :func:`default_recall_url_origin`)."""
    return default_recall_url_origin()[0]
