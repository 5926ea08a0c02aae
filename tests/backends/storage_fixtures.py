"""Fixtures that run one MemoryStore behaviour suite over every storage backend.

``storage`` is parametrized ``file`` / ``postgres``. It makes stores on a fresh location (a temp
directory, or a fresh namespace in the shared test database) and reads and writes the raw stored
text behind the store's back — what a shell append or a second machine would do — so a test says
``storage.write("MEMORY.md", …)`` instead of naming a path.

PostgreSQL is real: ``pgserver`` (PostgreSQL 16, offline) started once per test session. Under
pytest-xdist every worker asks pgserver for the same data directory (named after the run's id);
pgserver starts the server for the first and reference-counts the others (under its inter-process
lock), and the last one to finish stops it and deletes the data.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest

from pi_memory.memory import MemoryStore

TARGET_OF = {"MEMORY.md": "memory", "USER.md": "user"}


class Storage(Protocol):
    kind: str

    def store(self, **options: Any) -> MemoryStore: ...
    def sibling(self, name: str) -> Storage: ...
    def write(self, name: str, text: str) -> None: ...
    def read(self, name: str) -> str | None: ...
    def names(self) -> list[str]: ...
    def backups(self, name: str = "MEMORY.md") -> list[str]: ...
    def backup_text(self, location: str) -> str: ...
    def hold_lock(self, name: str) -> contextlib.AbstractContextManager[None]: ...


class FileStorage:
    """A memory directory; raw access is plain file I/O."""

    kind = "file"

    def __init__(self, directory: Path) -> None:
        self.dir = directory

    def store(self, **options: Any) -> MemoryStore:
        return MemoryStore(self.dir, **options)

    def sibling(self, name: str) -> FileStorage:
        return FileStorage(self.dir / name)

    def write(self, name: str, text: str) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / name).write_text(text, encoding="utf-8")

    def read(self, name: str) -> str | None:
        path = self.dir / name
        return path.read_bytes().decode("utf-8") if path.exists() else None

    def names(self) -> list[str]:
        return sorted(p.name for p in self.dir.iterdir()) if self.dir.exists() else []

    def backups(self, name: str = "MEMORY.md") -> list[str]:
        return [str(p) for p in sorted(self.dir.glob(f"{name}.bak.*"))]

    def backup_text(self, location: str) -> str:
        return Path(location).read_bytes().decode("utf-8")  # raw: no newline translation

    @contextlib.contextmanager
    def hold_lock(self, name: str) -> Iterator[None]:
        """A fresh proper-lockfile lock directory, as a live Node holder would leave it."""
        lock = self.dir / f"{name}.lock"
        lock.mkdir(parents=True)
        try:
            yield
        finally:
            lock.rmdir()


class PostgresStorage:
    """A namespace of the shared test database; raw access is SQL on the backend's tables."""

    kind = "postgres"

    def __init__(self, dsn: str, namespace: str, opened: list[Any]) -> None:
        self.dsn = dsn
        self.namespace = namespace
        self._opened = opened

    def _connect(self) -> Any:
        import psycopg

        return psycopg.connect(self.dsn, autocommit=True)

    def store(self, **options: Any) -> MemoryStore:
        from pi_memory.backends.postgres import PostgresBackend

        backend = PostgresBackend(self.dsn, self.namespace, pool_size=2)
        self._opened.append(backend)
        return MemoryStore(backend=backend, **options)

    def sibling(self, name: str) -> PostgresStorage:
        return PostgresStorage(self.dsn, f"{self.namespace}-{name}", self._opened)

    def write(self, name: str, text: str) -> None:
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO pi_memory_files (namespace, target, content) VALUES (%s, %s, %s) "
                "ON CONFLICT (namespace, target) DO UPDATE SET content = excluded.content",
                (self.namespace, TARGET_OF[name], text),
            )

    def read(self, name: str) -> str | None:
        with self._connect() as conn:
            row = conn.execute(
                "SELECT content FROM pi_memory_files WHERE namespace = %s AND target = %s",
                (self.namespace, TARGET_OF[name]),
            ).fetchone()
        return None if row is None else row[0]

    def names(self) -> list[str]:
        """Stored "files": targets with content, and backups (what a directory listing shows)."""
        label = {target: name for name, target in TARGET_OF.items()}
        with self._connect() as conn:
            files = conn.execute(
                "SELECT target FROM pi_memory_files WHERE namespace = %s AND content IS NOT NULL", (self.namespace,)
            ).fetchall()
            backups = conn.execute("SELECT name FROM pi_memory_backups WHERE namespace = %s", (self.namespace,))
            return sorted([label[row[0]] for row in files] + [row[0] for row in backups])

    def backups(self, name: str = "MEMORY.md") -> list[str]:
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT name FROM pi_memory_backups WHERE namespace = %s AND target = %s ORDER BY name",
                (self.namespace, TARGET_OF[name]),
            ).fetchall()
        return [f"postgres:{self.namespace}/{row[0]}" for row in rows]

    def backup_text(self, location: str) -> str:
        name = location.removeprefix(f"postgres:{self.namespace}/")
        with self._connect() as conn:
            row = conn.execute(
                "SELECT content FROM pi_memory_backups WHERE namespace = %s AND name = %s", (self.namespace, name)
            ).fetchone()
        assert row is not None, f"no backup {location}"
        return str(row[0])

    @contextlib.contextmanager
    def hold_lock(self, name: str) -> Iterator[None]:
        """Another session holding the row lock, as a writer on another machine would."""
        with self._connect() as conn, conn.transaction():
            key = (self.namespace, TARGET_OF[name])
            conn.execute("INSERT INTO pi_memory_files (namespace, target) VALUES (%s, %s) ON CONFLICT DO NOTHING", key)
            conn.execute("SELECT 1 FROM pi_memory_files WHERE namespace = %s AND target = %s FOR UPDATE", key)
            yield


def _server_root(request: pytest.FixtureRequest) -> Path:
    """A directory every xdist worker of this run agrees on, outside pytest's temp root.

    Not under ``/tmp/pytest-of-<user>``: any pytest that starts meanwhile resets that directory to
    mode 0700, and when the tests run as root pgserver's server runs as another user, which would
    then lose access to its own data directory mid-run.
    """
    workerinput = getattr(request.config, "workerinput", None)
    run = workerinput["testrunuid"] if workerinput else f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
    root = Path(tempfile.gettempdir()) / f"pi-memory-pg-{run}"
    (root / "pgdata").mkdir(parents=True, exist_ok=True)
    return root


@pytest.fixture(scope="session")
def postgres_dsn(request: pytest.FixtureRequest) -> Iterator[str]:
    """One real PostgreSQL for the whole session (shared by xdist workers), schema migrated."""
    pgserver = pytest.importorskip("pgserver", reason="pgserver runs the PostgreSQL tests (pip install -e '.[dev]')")
    root = _server_root(request)
    server = pgserver.get_server(root / "pgdata", cleanup_mode="delete")  # the last worker out deletes it
    dsn = server.get_uri()
    import psycopg

    from pi_memory.backends.schema import migrate

    with psycopg.connect(dsn, autocommit=True) as conn:
        migrate(conn)
    try:
        yield dsn
    finally:
        server.cleanup()
        with contextlib.suppress(OSError):
            root.rmdir()  # only once empty, i.e. after the last worker


_namespaces = itertools.count()


def fresh_namespace() -> str:
    return f"test-{os.getpid()}-{next(_namespaces)}-{uuid.uuid4().hex[:6]}"


@pytest.fixture(params=["file", pytest.param("postgres", marks=pytest.mark.postgres)])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    """A fresh memory location on the parametrized backend."""
    if request.param == "file":
        yield FileStorage(tmp_path)
        return
    opened: list[Any] = []
    yield PostgresStorage(request.getfixturevalue("postgres_dsn"), fresh_namespace(), opened)
    for backend in opened:
        backend.close()


@pytest.fixture
def fresh_db(postgres_dsn: str) -> Iterator[str]:
    """An empty database on the shared server (for schema tests that must start from nothing)."""
    import psycopg
    from psycopg import conninfo

    name = f"schema_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield conninfo.make_conninfo(postgres_dsn, dbname=name)
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
