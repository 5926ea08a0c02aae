"""``open_index(url)``: one entry point, the backend chosen by the URL's shape.

* a path (or ``sqlite:///path``) → :class:`~pi_memory.recall.sqlite_index.SQLiteIndex`
* ``postgresql://…`` / ``postgres://…`` → PostgreSQL + pgvector (``pip install 'pi-memory[postgres]'``)
* ``chroma://host:port[/collection]`` → a Chroma server for the vectors, the rest in a local SQLite file
  (``pip install 'pi-memory[chroma]'``)

Backends are imported lazily so the default needs nothing beyond numpy and tokenizers.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from pi_memory.session.paths import agent_dir_origin, get_agent_dir

if TYPE_CHECKING:  # numpy (embedders) loads with an index, not with the default location
    from pi_memory.recall.embedders import Embedder
    from pi_memory.recall.fusion import SearchConfig
    from pi_memory.recall.types import RecallIndex

__all__ = ["ENV_RECALL_URL", "default_index_path", "default_url_origin", "open_index"]

ENV_RECALL_URL = "PI_MEMORY_RECALL_URL"
"""Overrides the default index location (a path or a database URL)."""


def default_index_path() -> Path:
    """``<agentDir>/recall.db`` (agentDir as pi computes it: ``$PI_CODING_AGENT_DIR`` or ``~/.pi/agent``)."""
    return Path(get_agent_dir()) / "recall.db"


def default_url() -> str:
    return default_url_origin()[0]


def default_url_origin() -> tuple[str, str]:
    """The default index location and what chose it: ``$PI_MEMORY_RECALL_URL``, else
    ``<agentDir>/recall.db`` (chosen by ``$PI_CODING_AGENT_DIR`` or the default)."""
    url = os.environ.get(ENV_RECALL_URL)
    return (url, f"${ENV_RECALL_URL}") if url else (str(default_index_path()), agent_dir_origin())


def open_index(
    url: str | os.PathLike[str] | None = None,
    *,
    embedder: Embedder | str | None = None,
    config: SearchConfig | None = None,
) -> RecallIndex:
    """Open (creating if needed) the recall index at ``url`` (default: :func:`default_url`).

    ``embedder`` defaults to the one the index was built with, else the shipped static model.
    """
    target = str(url) if url is not None else default_url()
    if target.startswith(("postgresql://", "postgres://")):
        from pi_memory.recall.postgres_index import PostgresIndex

        return PostgresIndex(target, embedder=embedder, config=config)
    if target.startswith("chroma://"):
        from pi_memory.recall.chroma_index import ChromaIndex

        return ChromaIndex(target, embedder=embedder, config=config)
    if target.startswith("sqlite:///"):
        target = target[len("sqlite://") :]
    from pi_memory.recall.sqlite_index import SQLiteIndex

    return SQLiteIndex(Path(target).expanduser(), embedder=embedder, config=config)
