"""The system prompt a turn starts from, before ``before_agent_start`` handlers change it.

pi 1.6.0's shape: the base (the SDK's ``system_prompt``, else ``SYSTEM.md`` — the project's
``.pi/`` when the project is trusted, else the agent dir — else :data:`DEFAULT_SYSTEM_PROMPT`),
then ``APPEND_SYSTEM.md`` from the same places, then the active tools' snippets and guidelines,
joined by blank lines. Files are read on every turn, so an edit applies from the next prompt.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .paths import agent_dir, project_config_dir
from .types import ToolDefinition

__all__ = ["DEFAULT_SYSTEM_PROMPT", "compose_system_prompt", "tool_sections"]

DEFAULT_SYSTEM_PROMPT = (
    "You are a helpful assistant running in pi-memory. Use the available tools when they help, "
    "and answer concisely."
)


def tool_sections(tools: Sequence[ToolDefinition]) -> list[str]:
    """The "Available tools" and "Guidelines" sections of the system prompt, in pi 1.6.0's shape.

    One ``- name: snippet`` line per active tool that has a ``promptSnippet`` (pi leaves the others
    out: their description already reaches the model with the tool itself); each guideline once,
    trimmed, as ``- rule``; empty sections are left out.
    """
    listed = [f"- {t.name}: {t.prompt_snippet.strip()}" for t in tools if t.prompt_snippet and t.prompt_snippet.strip()]
    rules = list(dict.fromkeys(g.strip() for t in tools for g in t.prompt_guidelines if g.strip()))
    sections = []
    if listed:
        sections.append("Available tools:\n" + "\n".join(listed))
    if rules:
        sections.append("Guidelines:\n" + "\n".join(f"- {rule}" for rule in rules))
    return sections


def compose_system_prompt(cwd: str, *, project_trusted: bool, tools: Sequence[ToolDefinition],
                          base: str | None = None) -> str:
    """The prompt for ``tools`` (the active ones, in order); ``base`` replaces ``SYSTEM.md``."""
    dirs = ([project_config_dir(cwd)] if project_trusted else []) + [agent_dir()]
    parts = [(base or _first_file(dirs, "SYSTEM.md") or DEFAULT_SYSTEM_PROMPT).strip()]
    appended = _first_file(dirs, "APPEND_SYSTEM.md")
    if appended:
        parts.append(appended.strip())
    parts += tool_sections(tools)
    return "\n\n".join(parts)


def _first_file(dirs: Sequence[Path], name: str) -> str | None:
    for directory in dirs:
        try:
            return (directory / name).read_text(encoding="utf-8")
        except OSError:
            continue
    return None
