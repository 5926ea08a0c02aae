"""Where pi keeps its per-user state, resolved the way pi 1.6.0 resolves it."""

from __future__ import annotations

import os
from pathlib import Path

from pi_memory.session.paths import get_agent_dir

CONFIG_DIR_NAME = ".pi"


def agent_dir() -> Path:
    """``$PI_CODING_AGENT_DIR`` (``~`` expanded), else ``~/.pi/agent`` — pi's ``getAgentDir``."""
    return Path(get_agent_dir()).absolute()


def global_agent_dir() -> Path:
    """``~/.pi/agent``: the global settings home, whatever the env vars say."""
    return Path.home() / CONFIG_DIR_NAME / "agent"


def config_dir() -> Path:
    """pi-memory's config layer: ``$PI_CODING_AGENT_DIR``, else ``$PI_AGENT_HOME``, else ``~/.pi/agent``."""
    return config_dir_origin()[0]


def config_dir_origin() -> tuple[Path, str]:
    """:func:`config_dir` and what chose it (``"$PI_CODING_AGENT_DIR"``, ``"$PI_AGENT_HOME"``, ``"default"``)."""
    for name in ("PI_CODING_AGENT_DIR", "PI_AGENT_HOME"):
        value = os.environ.get(name, "").strip()
        if value:
            return Path(value).expanduser().absolute(), f"${name}"
    return global_agent_dir(), "default"


def project_config_dir(cwd: Path | str) -> Path:
    """``<cwd>/.pi``."""
    return Path(cwd).absolute() / CONFIG_DIR_NAME
