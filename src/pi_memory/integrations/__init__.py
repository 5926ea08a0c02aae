"""One line plugs pi-memory into the agent frameworks Python builders already use.

Each framework has its own module, imported only when used, behind its own extra:

* :mod:`pi_memory.integrations.anthropic` — ``MemoryTool`` / ``AsyncMemoryTool``, Anthropic's
  ``memory_20250818`` tool (``pip install 'pi-memory[anthropic]'``);
* :mod:`pi_memory.integrations.pydantic_ai` — ``MemoryToolset``, a Pydantic AI toolset whose
  instructions are the frozen snapshot (``pip install 'pi-memory[pydantic-ai]'``);
* :mod:`pi_memory.integrations.openai_agents` — ``PiSession`` (the Agents SDK's ``Session`` over a
  pi session file), ``memory_tools()``, ``memory_instructions()`` (``[openai-agents]``);
* :mod:`pi_memory.integrations.langgraph` — ``PiStore`` (a LangGraph ``BaseStore``) and
  ``static_embeddings`` (``[langgraph]``);
* :mod:`pi_memory.integrations.langchain` — ``memory_tools()`` and ``PiMemoryMiddleware``
  (``[langchain]``).

The adapters are thin: every write is a :class:`~pi_memory.memory.MemoryStore` call (scanner,
budgets, drift backups, the cross-process lock), and the prompt block is the store's frozen
snapshot. This package itself imports no framework. See ``docs/integrations.md``.
"""

from .commands import CommandError, MemoryCommands, memory_system_prompt
from .sources import MemorySource, open_memory

__all__ = ["CommandError", "MemoryCommands", "MemorySource", "memory_system_prompt", "open_memory"]
