"""Adapters that plug pi-memory into agent frameworks, one module per framework.

Each module imports its framework only when it is imported itself (install the matching extra,
e.g. ``pip install 'pi-memory[openai-agents]'``); importing this package imports none of them.
See ``docs/integrations.md``.
"""
