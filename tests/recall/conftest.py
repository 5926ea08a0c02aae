"""Recall fixtures: the index suite runs over every finished backend (SQLite, PostgreSQL).

PostgreSQL is real (the ``pgserver`` package: PostgreSQL 16 + pgvector, started once per test
worker); each test gets its own table so tests never see each other's rows.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import socket
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pi_memory.recall import SQLiteIndex
from pi_memory.recall.embedders import normalize_rows

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = ["sqlite", "postgres", "chroma"]
CHROMA_BIN = os.environ.get("PI_MEMORY_CHROMA_BIN", "/tmp/pi-memory-chroma-venv/bin/chroma")
"""``chroma run`` from the venv scripts/test.sh makes (chromadb's server does not share our venv)."""


class HashEmbedder:
    """A second, deterministic vector space (bag of hashed words) to test space mismatches."""

    def __init__(self, dimension: int = 32, name: str = "test-hash") -> None:
        self._dimension = dimension
        self._id = f"{name}-{dimension}"

    @property
    def id(self) -> str:
        return self._id

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed(self, texts: Sequence[str]) -> Any:
        rows = np.zeros((len(texts), self._dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                rows[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % self._dimension] += 1
        return normalize_rows(rows)


@pytest.fixture(scope="session")
def pg_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    import pgserver

    server = pgserver.get_server(tmp_path_factory.mktemp("pgdata"), cleanup_mode="stop")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


@pytest.fixture(scope="session")
def chroma_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Chroma server on loopback, started once per test worker."""
    if not Path(CHROMA_BIN).exists():
        pytest.skip(f"no Chroma server at {CHROMA_BIN} (scripts/test.sh installs it)")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = tmp_path_factory.mktemp("chroma")
    log = (data / "server.log").open("w")
    server = subprocess.Popen([CHROMA_BIN, "run", "--path", str(data / "db"), "--host", "127.0.0.1", "--port",
                               str(port)], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
            assert server.poll() is None and time.monotonic() < deadline, (data / "server.log").read_text()
            time.sleep(0.1)
        yield f"chroma://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(10)
        log.close()


_tables = itertools.count()


@pytest.fixture(params=BACKENDS)
def make_index(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """``make_index(embedder=None, name="a")`` → a fresh index of the parametrized backend;
    the same ``name`` reopens the same index."""
    opened: list[Any] = []
    tables: dict[str, str] = {}

    def make(embedder: Any = None, name: str = "a") -> Any:
        if request.param == "sqlite":
            index: Any = SQLiteIndex(tmp_path / f"{name}.db", embedder=embedder)
        elif request.param == "chroma":
            from pi_memory.recall.chroma_index import ChromaIndex

            collection = tables.setdefault(name, f"c{next(_tables)}-{abs(hash(request.node.nodeid)) % 10**8}")
            index = ChromaIndex(f"{request.getfixturevalue('chroma_url')}/{collection}", embedder=embedder,
                                local_path=tmp_path / f"{name}.db")
        else:
            from pi_memory.recall.postgres_index import PostgresIndex

            url = request.getfixturevalue("pg_url")
            table = tables.setdefault(name, f"t{next(_tables)}_{abs(hash(request.node.nodeid)) % 10**8}")
            index = PostgresIndex(url, embedder=embedder, table=table)
        opened.append(index)
        return index

    yield make
    for index in opened:
        with contextlib.suppress(Exception):
            index.close()


def record(
    i: int | str, text: str, *, session: str = "s1", role: str = "user", ts: str | None = None
) -> dict[str, Any]:
    return {
        "id": str(i),
        "text": text,
        "role": role,
        "timestamp": ts or "2025-01-01T00:00:00.000Z",
        "session_id": session,
    }
