"""host/system_prompt.py: the prompt a turn starts from — SYSTEM.md (project only when trusted),
APPEND_SYSTEM.md, the active tools' snippets and guidelines — and that it is what the model gets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from host_helpers import make_runtime

from pi_memory.host import DEFAULT_SYSTEM_PROMPT
from pi_memory.host.system_prompt import compose_system_prompt, tool_sections
from pi_memory.host.types import ToolDefinition


def tool(name: str, snippet: str | None = None, guidelines: tuple[str, ...] = ()) -> ToolDefinition:
    return ToolDefinition(name=name, description=f"{name} tool", parameters={"type": "object"},
                          execute=lambda *a: "ok", prompt_snippet=snippet, prompt_guidelines=guidelines)


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(project cwd, agent dir), both empty."""
    agent = tmp_path / "agent"
    agent.mkdir()
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    project = tmp_path / "project"
    (project / ".pi").mkdir(parents=True)
    return project, agent


def test_default_prompt_then_tool_sections(dirs: tuple[Path, Path]) -> None:
    project, _ = dirs
    tools = [tool("a", " say a \n", (" be brief ", "cite")), tool("b"), tool("c", "say c", ("be brief",))]
    assert tool_sections(tools) == ["Available tools:\n- a: say a\n- c: say c", "Guidelines:\n- be brief\n- cite"]
    assert compose_system_prompt(str(project), project_trusted=True, tools=tools) == (
        DEFAULT_SYSTEM_PROMPT + "\n\nAvailable tools:\n- a: say a\n- c: say c\n\nGuidelines:\n- be brief\n- cite")
    assert compose_system_prompt(str(project), project_trusted=True, tools=[tool("b")]) == DEFAULT_SYSTEM_PROMPT


def test_project_files_count_only_when_trusted(dirs: tuple[Path, Path]) -> None:
    project, agent = dirs
    (agent / "SYSTEM.md").write_text("  agent system  \n", encoding="utf-8")
    (agent / "APPEND_SYSTEM.md").write_text("agent append\n", encoding="utf-8")
    (project / ".pi" / "SYSTEM.md").write_text("project system\n", encoding="utf-8")
    assert compose_system_prompt(str(project), project_trusted=False, tools=[]) == "agent system\n\nagent append"
    # The project's SYSTEM.md wins; APPEND_SYSTEM.md comes from the first place that has one.
    assert compose_system_prompt(str(project), project_trusted=True, tools=[]) == "project system\n\nagent append"
    assert compose_system_prompt(str(project), project_trusted=True, tools=[], base="sdk") == "sdk\n\nagent append"


@pytest.mark.anyio
async def test_the_model_receives_the_composed_prompt(dirs: tuple[Path, Path]) -> None:
    project, _ = dirs
    (project / ".pi" / "APPEND_SYSTEM.md").write_text("Project rules.\n", encoding="utf-8")

    def ext(pi: Any) -> None:
        pi.register_tool({"name": "look", "description": "d", "parameters": {"type": "object"},
                          "promptSnippet": "look around", "promptGuidelines": ["look first"],
                          "execute": lambda call_id, params: "seen"})

    rt, provider, _ = await make_runtime(project, ["Hi"], ext, trust=True)
    assert rt.base_system_prompt() == (DEFAULT_SYSTEM_PROMPT + "\n\nProject rules.\n\nAvailable tools:\n- look: "
                                       "look around\n\nGuidelines:\n- look first")
    await rt.prompt("hello")
    assert provider.requests[0].system_prompt == rt.base_system_prompt()
    rt.set_active_tools([])
    assert rt.base_system_prompt() == DEFAULT_SYSTEM_PROMPT + "\n\nProject rules."
    await rt.shutdown()
