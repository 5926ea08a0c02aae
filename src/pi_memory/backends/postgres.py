"""MemoryStore on PostgreSQL: one database shared by agents on many machines.

The backend keeps the file backend's contract (:mod:`pi_memory.memory.backend`) so the store's
rules — budgets, scanning, drift detection — are the same code on both:

* one row of raw text per ``(namespace, target)`` in ``pi_memory_files``; ``NULL`` content
  means "no file yet", so a failed mutation leaves nothing behind;
* a mutation is one transaction holding the row lock (``SELECT … FOR UPDATE``); waiting longer
  than the store's ``lock_timeout`` hits PostgreSQL's ``lock_timeout`` and becomes the store's
  retryable "busy" result. A connection that dies mid-transaction is rolled back by the server,
  so the row is either the old or the new text, never a mix;
* drift backups are rows of ``pi_memory_backups`` named like the files'
  (``postgres:<namespace>/MEMORY.md.bak.<unix-ts>``) and stamped with the database clock;
* an unreachable database is not an exception: reads and writes return the store's
  structured failure with what to check, and nothing is written.

Threads of one process queue on an in-process lock per target before taking a pooled connection
(as the file backend's lock does), so a busy process holds one connection per target, not one
per waiting thread.

Needs ``pip install 'pi-memory[postgres]'`` (psycopg 3 and psycopg-pool).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pi_memory.memory.backend import BackendBusy, BackupInfo, RawText
from pi_memory.memory.files import FILE_NAMES

from . import import_psycopg
from .dsn import connect_failure, describe_dsn, dsn_problem, redact, remember_dsn
from .schema import SchemaError, migrate, schema_status

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

__all__ = ["BackupInfo", "PostgresBackend", "PostgresUnavailable", "advisory_lock", "describe_dsn"]

log = logging.getLogger(__name__)

LOCATION_PREFIX = "postgres:"
DEFAULT_POOL_SIZE = 4
DEFAULT_STATEMENT_TIMEOUT_MS = 10_000
DEFAULT_CONNECT_TIMEOUT = 5.0
_MAX_NAMESPACE_CHARS = 200
_LOCK_ROW = "SELECT content FROM pi_memory_files WHERE namespace = %s AND target = %s FOR UPDATE"
_PLACEHOLDER_ROW = "INSERT INTO pi_memory_files (namespace, target) VALUES (%s, %s) ON CONFLICT DO NOTHING"


def _scalar(row: tuple[Any, ...] | None) -> Any:
    """The first column of a one-row result (queries that always return a row)."""
    if row is None:  # pragma: no cover - aggregate queries always return a row
        raise RuntimeError("the query returned no row")
    return row[0]


def _rollback(conn: psycopg.Connection[Any]) -> None:
    """End a failed transaction; a broken connection needs nothing (the server rolled back)."""
    with contextlib.suppress(Exception):
        conn.execute("ROLLBACK")


def _first_line(exc: BaseException, dsn: str) -> str:
    """The first line of a driver error, its password removed (libpq quotes a bad DSN whole)."""
    text = str(exc).strip() or type(exc).__name__
    return redact(text.splitlines()[0].strip(), dsn)


def _lock_key(key: str) -> int:
    """A stable signed 64-bit advisory-lock id for ``key`` (same on every machine)."""
    return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big", signed=True)


class PostgresUnavailable(Exception):
    """The database cannot be used right now; the message says what to check."""


class _FailedTransaction:
    """Handed to the store when no transaction could be opened: ``raw.error`` stops the mutation."""

    def __init__(self, error: str) -> None:
        self.raw = RawText(error=error)

    def write(self, text: str) -> None:  # pragma: no cover - the store never writes over an error
        raise RuntimeError("no database transaction is open")

    def backup(self, raw: RawText) -> str:  # pragma: no cover - drift is not checked after an error
        raise RuntimeError("no database transaction is open")


class _PostgresTransaction:
    """The row lock of one target, held by an open database transaction."""

    def __init__(self, backend: PostgresBackend, conn: psycopg.Connection[Any], target: str, raw: RawText) -> None:
        self._backend = backend
        self._conn = conn
        self._target = target
        self.raw = raw
        self.pending: str | None = None
        self.changed = False  # a backup row was written

    def write(self, text: str) -> None:
        """Queue the new text; it is sent with the COMMIT (one round trip while the lock is held)."""
        self.pending = text

    def backup(self, raw: RawText) -> str:
        """Keep ``raw`` in ``pi_memory_backups``; identical content is backed up once."""
        ns, label = self._backend.namespace, self._backend.label(self._target)
        found = self._conn.execute(
            "SELECT name FROM pi_memory_backups WHERE namespace = %s AND target = %s AND content = %s "
            "ORDER BY created_at, name LIMIT 1",
            (ns, self._target, raw.text),
        ).fetchone()
        if found is not None:
            return self._backend.backup_location(found[0])
        stamp = int(_scalar(self._conn.execute("SELECT floor(extract(epoch FROM clock_timestamp()))").fetchone()))
        base = f"{label}.bak.{stamp}"
        for n in range(1000):
            name = base if n == 0 else f"{base}.{n}"
            inserted = self._conn.execute(
                "INSERT INTO pi_memory_backups (namespace, name, target, content) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT DO NOTHING RETURNING name",
                (ns, name, self._target, raw.text),
            ).fetchone()
            if inserted is not None:
                self.changed = True
                return self._backend.backup_location(name)
        raise RuntimeError(f"could not name a backup of {label} after 1000 tries")  # pragma: no cover


class PostgresBackend:
    """``MEMORY.md`` and ``USER.md`` of one ``namespace`` in a PostgreSQL database.

    ``dsn`` is a libpq connection string or ``postgresql://`` URL. Agents that share a
    ``namespace`` share memory; ``pool_size`` bounds this backend's connections;
    ``statement_timeout_ms`` bounds every statement (a hung server becomes a retryable failure,
    not a hung agent); ``connect_timeout`` bounds how long an unreachable server is waited for.
    With ``auto_migrate`` (the default) the first use creates or upgrades the tables, as
    ``pi-memory db migrate`` does; without it a missing schema is a failure saying so.
    """

    def __init__(
        self,
        dsn: str,
        namespace: str = "default",
        *,
        pool_size: int = DEFAULT_POOL_SIZE,
        statement_timeout_ms: int = DEFAULT_STATEMENT_TIMEOUT_MS,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        auto_migrate: bool = True,
        application_name: str = "pi-memory",
    ) -> None:
        psycopg, psycopg_pool = import_psycopg()
        if not isinstance(namespace, str) or not namespace.strip() or len(namespace) > _MAX_NAMESPACE_CHARS:
            raise ValueError(f"namespace must be a non-empty string of at most {_MAX_NAMESPACE_CHARS} chars")
        if pool_size < 1:
            raise ValueError("pool_size must be at least 1")
        if statement_timeout_ms < 0:
            raise ValueError("statement_timeout_ms must be 0 (no limit) or more")
        self.dsn = dsn
        self.namespace = namespace
        self.statement_timeout_ms = int(statement_timeout_ms)
        self.connect_timeout = float(connect_timeout)
        self.auto_migrate = auto_migrate
        remember_dsn(dsn)  # its password is scrubbed from every message and log line from now on
        self.where = describe_dsn(dsn)
        #: why the DSN does not parse (reported by every read and write, never raised), or None
        self._dsn_problem = dsn_problem(dsn)
        self._psycopg = psycopg
        self._connect_kwargs: dict[str, Any] = {
            "autocommit": True,
            "connect_timeout": max(1, math.ceil(self.connect_timeout)),
            "application_name": application_name,
        }
        self._pool: ConnectionPool[Any] = psycopg_pool.ConnectionPool(
            dsn,
            min_size=1,
            max_size=pool_size,
            kwargs=self._connect_kwargs,
            configure=self._configure,
            check=psycopg_pool.ConnectionPool.check_connection,
            open=False,
            timeout=self.connect_timeout,
            name=f"pi-memory:{namespace}",
        )
        self._pipelines = bool(psycopg.Pipeline.is_supported())
        self._ready = False
        self._ready_lock = threading.Lock()
        self._target_locks = {target: threading.Lock() for target in FILE_NAMES}

    # ------------------------------------------------------------ StorageBackend

    def location(self, target: str) -> str:
        return f"{LOCATION_PREFIX}{self.namespace}/{FILE_NAMES[target]}"

    def label(self, target: str) -> str:
        return FILE_NAMES[target]

    def prepare(self) -> None:
        """Check the server and the schema once (creating it with ``auto_migrate``).

        Never raises for an unreachable server: the following read reports it as a result.
        """
        with contextlib.suppress(PostgresUnavailable):
            self._ensure_ready()

    def read(self, target: str) -> RawText:
        try:
            self._ensure_ready()
            with self._connection(self.connect_timeout) as conn:
                row = conn.execute(
                    "SELECT content FROM pi_memory_files WHERE namespace = %s AND target = %s",
                    (self.namespace, target),
                ).fetchone()
        except (PostgresUnavailable, BackendBusy) as exc:  # busy: every pooled connection is in use
            return RawText(error=str(exc))
        except self._psycopg.OperationalError as exc:
            return RawText(error=self._unreachable(exc))
        if row is None or row[0] is None:
            return RawText()
        return RawText(text=row[0], exists=True)

    @contextlib.contextmanager
    def transaction(self, target: str, timeout: float) -> Iterator[_PostgresTransaction | _FailedTransaction]:
        """Hold the row lock of ``target`` for one mutation (see the module docstring)."""
        deadline = time.monotonic() + max(0.0, timeout)
        local = self._target_locks[target]
        if not local.acquire(timeout=max(0.0, timeout)):
            raise BackendBusy(f"{self.location(target)} is locked by another thread of this process")
        try:
            with contextlib.ExitStack() as stack:
                try:
                    self._ensure_ready()
                    conn = stack.enter_context(self._connection(max(0.0, deadline - time.monotonic())))
                except PostgresUnavailable as exc:
                    yield _FailedTransaction(str(exc))
                    return
                yield from self._locked(conn, target, deadline)
        finally:
            local.release()

    # ----------------------------------------------------------------- extras

    def backup_location(self, name: str) -> str:
        return f"{LOCATION_PREFIX}{self.namespace}/{name}"

    def list_backups(self, target: str | None = None) -> list[BackupInfo]:
        """This namespace's drift backups, oldest first (:class:`PostgresUnavailable` if unreachable)."""
        self._ensure_ready()
        query = "SELECT name, target, created_at, length(content) FROM pi_memory_backups WHERE namespace = %s"
        params: list[Any] = [self.namespace]
        if target is not None:
            query += " AND target = %s"
            params.append(target)
        with self._connection(self.connect_timeout) as conn:
            rows = conn.execute(query + " ORDER BY created_at, name", params).fetchall()
        return [BackupInfo(self.backup_location(name), tgt, created, chars) for name, tgt, created, chars in rows]

    def read_backup(self, location: str) -> str | None:
        """The text a backup holds (``location`` as reported, or just its name); ``None`` if unknown."""
        self._ensure_ready()
        prefix = f"{LOCATION_PREFIX}{self.namespace}/"
        name = location[len(prefix):] if location.startswith(prefix) else location
        with self._connection(self.connect_timeout) as conn:
            row = conn.execute(
                "SELECT content FROM pi_memory_backups WHERE namespace = %s AND name = %s", (self.namespace, name)
            ).fetchone()
        return None if row is None else str(row[0])

    def advisory_lock(self, key: str, *, dedicated: bool = False) -> contextlib.AbstractContextManager[bool]:
        """Non-blocking cross-machine lock scoped to this namespace (see :func:`advisory_lock`)."""
        return advisory_lock(self, key, dedicated=dedicated)

    def check(self) -> str | None:
        """Why this backend cannot be used right now (what to fix), or ``None`` when it can.

        One round trip on a pooled connection, after the first-use schema check; lets a program
        say "unreachable: check …" up front instead of showing an empty memory.
        """
        try:
            self._ensure_ready()
            with self._connection(self.connect_timeout) as conn:
                conn.execute("SELECT 1")
        except (PostgresUnavailable, BackendBusy) as exc:
            return str(exc)
        except self._psycopg.OperationalError as exc:
            return self._unreachable(exc)
        return None

    @property
    def memory_id(self) -> str:
        """``host:port/dbname#namespace``: the same for every machine and user sharing this memory."""
        return f"{self.where.rpartition('@')[2]}#{self.namespace}"

    def describe(self) -> str:
        """Where this memory lives, for people (never the password)."""
        return f"PostgreSQL {self.where}, namespace {self.namespace}"

    def close(self) -> None:
        """Close the pool's connections (the backend can not be used afterwards)."""
        self._pool.close()

    def __enter__(self) -> PostgresBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"PostgresBackend({self.where!r}, namespace={self.namespace!r})"

    # ---------------------------------------------------------------- helpers

    def _configure(self, conn: psycopg.Connection[Any]) -> None:
        conn.execute("SELECT set_config('statement_timeout', %s, false)", (f"{self.statement_timeout_ms}ms",))

    def _locked(
        self, conn: psycopg.Connection[Any], target: str, deadline: float
    ) -> Iterator[_PostgresTransaction]:
        """One transaction holding the row lock; two round trips on the usual path.

        ``BEGIN`` + ``lock_timeout`` + ``SELECT … FOR UPDATE`` go out as one pipeline, and the
        ``UPDATE`` is sent with the ``COMMIT``, so the lock is held for one round trip plus the
        store's own work — what bounds throughput when many writers queue on one row.
        """
        errors = self._psycopg.errors
        key = (self.namespace, target)
        wait_ms = max(1, int((deadline - time.monotonic()) * 1000))
        try:
            with self._pipeline(conn):
                conn.execute("BEGIN")
                conn.execute("SELECT set_config('lock_timeout', %s, true)", (f"{wait_ms}ms",))
                cursor = conn.execute(_LOCK_ROW, key)
            row = cursor.fetchone()
            if row is None:
                # A placeholder row gives the first writer something to lock (rolled back if unused);
                # a concurrent first writer waits on it, then finds the row.
                conn.execute(_PLACEHOLDER_ROW, key)
                row = conn.execute(_LOCK_ROW, key).fetchone()
            content = None if row is None else row[0]
            txn = _PostgresTransaction(self, conn, target, RawText() if content is None else RawText(content, True))
            try:
                yield txn
            except BaseException:
                _rollback(conn)
                raise
            if txn.pending is None and not txn.changed:
                conn.execute("ROLLBACK")
                return
            with self._pipeline(conn):
                if txn.pending is not None:
                    conn.execute(
                        "UPDATE pi_memory_files SET content = %s, updated_at = now() "
                        "WHERE namespace = %s AND target = %s",
                        (txn.pending, *key),
                    )
                conn.execute("COMMIT")
        except (errors.LockNotAvailable, errors.QueryCanceled) as exc:
            _rollback(conn)
            raise BackendBusy(f"{self.location(target)}: {_first_line(exc, self.dsn)}") from exc
        except self._psycopg.OperationalError as exc:
            # The connection broke mid-transaction: the server rolled it back, nothing changed.
            log.warning("PostgreSQL connection lost during a write to %s: %s", self.location(target),
                        redact(str(exc), self.dsn))
            raise BackendBusy(f"{self.location(target)}: connection lost ({_first_line(exc, self.dsn)})") from exc

    def _pipeline(self, conn: psycopg.Connection[Any]) -> contextlib.AbstractContextManager[Any]:
        """Send the statements of the block in one round trip where libpq supports it."""
        return conn.pipeline() if self._pipelines else contextlib.nullcontext()

    @contextlib.contextmanager
    def _connection(self, timeout: float) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection; a pool timeout is "busy" if the server is up, else unavailable."""
        try:
            conn = self._pool.getconn(timeout=timeout)
        except self._psycopg.OperationalError as exc:  # PoolTimeout is one
            problem = self._probe()
            if problem is not None:
                raise PostgresUnavailable(problem) from exc
            raise BackendBusy(f"no free connection to {self.where} within {timeout:.1f}s") from exc
        try:
            yield conn
        finally:
            self._pool.putconn(conn)  # a broken connection is discarded, not reused

    def _ensure_ready(self) -> None:
        """Connect once directly (fast, precise errors), check/migrate the schema, open the pool."""
        if self._ready:
            return
        with self._ready_lock:
            if self._ready:
                return
            if self._dsn_problem is not None:
                raise PostgresUnavailable(self._dsn_problem)
            try:
                with self._psycopg.connect(self.dsn, **self._connect_kwargs) as conn:
                    status = schema_status(conn)
                    if not status.up_to_date:
                        if self.auto_migrate and not status.too_new:
                            migrate(conn)
                        else:
                            raise PostgresUnavailable(f"PostgreSQL at {self.where}: {status.problem()}")
            except SchemaError as exc:
                raise PostgresUnavailable(f"PostgreSQL at {self.where}: {exc}") from exc
            except self._psycopg.Error as exc:
                raise PostgresUnavailable(self._unreachable(exc)) from exc
            self._pool.open(wait=False)
            self._ready = True

    @contextlib.contextmanager
    def _dedicated(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of its own, outside the pool (closed at the end of the block)."""
        try:
            conn = self._psycopg.connect(self.dsn, **self._connect_kwargs)
        except self._psycopg.Error as exc:
            raise PostgresUnavailable(self._unreachable(exc)) from exc
        with conn:
            yield conn

    def _probe(self) -> str | None:
        """Why a fresh connection fails right now, or ``None`` when the server answers."""
        try:
            with self._psycopg.connect(self.dsn, **self._connect_kwargs) as conn:
                conn.execute("SELECT 1")
        except self._psycopg.Error as exc:
            return self._unreachable(exc)
        return None

    def _unreachable(self, exc: BaseException) -> str:
        return connect_failure(self.dsn, exc)


@contextlib.contextmanager
def advisory_lock(
    conn_or_backend: PostgresBackend | psycopg.Connection[Any], key: str, *, dedicated: bool = False
) -> Iterator[bool]:
    """Try to take a PostgreSQL session advisory lock named ``key``; never waits.

    Yields ``True`` when this caller holds the lock for the ``with`` block, ``False`` when
    another session (on any machine) holds it — the caller should then skip its work, as
    dreaming does when another worker is already consolidating. The lock dies with its
    connection, so a crashed holder never leaves a stale lock behind.

    With a :class:`PostgresBackend` the key is scoped to its namespace (``pi-memory/<namespace>/<key>``)
    and a pooled connection is held for the block — or, with ``dedicated``, a connection of its own,
    so a long job (a dream) that also writes through the backend never holds one of the pool's
    connections idle. :class:`PostgresUnavailable` if the server cannot be reached. With a
    connection the key is used as given.
    """
    if isinstance(conn_or_backend, PostgresBackend):
        backend = conn_or_backend
        backend._ensure_ready()
        scoped = f"pi-memory/{backend.namespace}/{key}"
        holder = backend._dedicated() if dedicated else backend._connection(backend.connect_timeout)
        with holder as conn, advisory_lock(conn, scoped) as held:
            yield held
        return
    conn = conn_or_backend
    lock_id = _lock_key(key)
    held = bool(_scalar(conn.execute("SELECT pg_try_advisory_lock(%s)", (lock_id,)).fetchone()))
    try:
        yield held
    finally:
        if held and not conn.closed:
            with contextlib.suppress(Exception):
                conn.execute("SELECT pg_advisory_unlock(%s)", (lock_id,))
