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

from pi_memory.base.paths import ENV_RECALL_URL, default_index_path, default_recall_url, default_recall_url_origin

if TYPE_CHECKING:  # numpy (embedders) loads with an index, not with the default location
    from pi_memory.recall.embedders import Embedder
    from pi_memory.recall.fusion import SearchConfig
    from pi_memory.recall.types import RecallIndex

__all__ = ["ENV_RECALL_URL", "default_index_path", "default_url", "default_url_origin", "open_index"]

def default_url() -> str:
    """The default index location: ``$PI_MEMORY_RECALL_URL``, else ``<agentDir>/recall.db``."""
    return default_recall_url()


def default_url_origin() -> tuple[str, str]:
    """:func:`default_url` and what chose it (:func:`pi_memory.base.paths.default_recall_url_origin`)."""
    return default_recall_url_origin()


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
