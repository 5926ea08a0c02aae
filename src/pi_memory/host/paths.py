"""Where pi keeps its per-user state, resolved the way pi 1.6.0 resolves it (:mod:`pi_memory.base.paths`)."""

from __future__ import annotations

from pathlib import Path

from pi_memory.base.paths import CONFIG_DIR_NAME, config_dir, config_dir_origin, global_agent_dir, project_config_dir
from pi_memory.base.paths import agent_dir as _agent_dir_text

__all__ = ["CONFIG_DIR_NAME", "agent_dir", "config_dir", "config_dir_origin", "global_agent_dir", "project_config_dir"]


def agent_dir() -> Path:
    """``$PI_CODING_AGENT_DIR`` (``~`` expanded), else ``~/.pi/agent`` — pi's ``getAgentDir``, absolute."""
    return Path(_agent_dir_text()).absolute()
