"""The extension host: pi's coding-agent core in Python, minus pi's coding tools.

``types`` (the API surface), ``api`` (the ``pi`` object), ``context`` (``ctx``), ``runner``
(dispatch and composition rules), ``loader`` (discovery, and loading one session's extensions
with its trust decision), ``wrapper`` (tool adaptation and argument validation), ``agent`` (the
loop), ``turns`` (runs, queues, persistence), ``system_prompt``, ``compaction`` (with ``tokens``
and ``summary``), ``navigation`` (/tree and /fork within one file), and ``session_runtime`` (pi's
AgentSession: the session lifecycle). See
``docs/extensions.md``.

>>> import asyncio
>>> from pi_memory.host import SessionRuntime
>>> from pi_memory.providers import ScriptedProvider, scripted_model
>>> from pi_memory.session import SessionManager
>>> async def main() -> str:
...     rt = await SessionRuntime.create(session_manager=SessionManager.in_memory("/tmp"),
...                                      model=scripted_model(), provider=ScriptedProvider(["Hi!"]),
...                                      use_entry_points=False, discover=False)
...     run = await rt.prompt("hello")
...     return run.last_assistant["content"][0]["text"]
>>> asyncio.run(main())
'Hi!'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_memory._lazy import lazy_package

if TYPE_CHECKING:  # imported on first use (pi_memory._lazy)
    from .agent import AgentRun, LoopConfig, run_agent_loop
    from .api import EventBus, ExtensionAPI, RuntimeNotReadyError
    from .compaction import (
        CompactionError,
        CompactionPreparation,
        CompactionResult,
        CompactionSettings,
        estimate_tokens,
        find_cut_point,
        prepare_compaction,
        should_compact,
    )
    from .context import (
        UI,
        ContextUsage,
        ExtensionCommandContext,
        ExtensionContext,
        HeadlessUI,
        ReadonlySessionManager,
        SwitchResult,
    )
    from .events import GUIDE_EVENTS, PI_EVENTS
    from .loader import ENTRY_POINT_GROUP, ExtensionSource, load_extensions
    from .runner import Extension, ExtensionRunner, InputResult
    from .session_runtime import NoModelError, SessionRuntime
    from .session_runtime import SessionRuntime as AgentSession  # pi's name for the runtime
    from .system_prompt import DEFAULT_SYSTEM_PROMPT
    from .types import (
        AbortSignal,
        CommandDefinition,
        Event,
        ExecResult,
        ExtensionError,
        ToolDefinition,
    )
    from .wrapper import adapt_tool, normalize_result, validate_arguments

__all__ = [
    "DEFAULT_SYSTEM_PROMPT",
    "ENTRY_POINT_GROUP",
    "GUIDE_EVENTS",
    "PI_EVENTS",
    "UI",
    "AbortSignal",
    "AgentRun",
    "AgentSession",
    "CommandDefinition",
    "CompactionError",
    "CompactionPreparation",
    "CompactionResult",
    "CompactionSettings",
    "ContextUsage",
    "Event",
    "EventBus",
    "ExecResult",
    "Extension",
    "ExtensionAPI",
    "ExtensionCommandContext",
    "ExtensionContext",
    "ExtensionError",
    "ExtensionRunner",
    "ExtensionSource",
    "HeadlessUI",
    "InputResult",
    "LoopConfig",
    "NoModelError",
    "ReadonlySessionManager",
    "RuntimeNotReadyError",
    "SessionRuntime",
    "SwitchResult",
    "ToolDefinition",
    "adapt_tool",
    "estimate_tokens",
    "find_cut_point",
    "load_extensions",
    "normalize_result",
    "prepare_compaction",
    "run_agent_loop",
    "should_compact",
    "validate_arguments",
]

lazy_package(__name__)
