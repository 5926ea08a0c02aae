"""The cross-machine advisory lock dreaming takes (:mod:`pi_memory.backends.advisory`), through
the backend and on a bare connection, against a real server."""

from __future__ import annotations

import psycopg
import pytest
from storage_fixtures import fresh_namespace

from pi_memory.backends.advisory import lock_key
from pi_memory.backends.postgres import PostgresBackend, PostgresUnavailable, advisory_lock
from pi_memory.memory import MemoryStore

UNREACHABLE = "postgresql://agent:hunter2@127.0.0.1:1/memory"


def test_the_lock_id_of_a_key_is_the_same_on_every_machine_and_release() -> None:
    """Workers of different versions must contend for the same id, or both would dream at once."""
    assert lock_key("pi-memory/default/dreaming") == -1653904109357162382
    assert lock_key("raw-key") == 2076337536268391872
    assert lock_key("pi-memory/other/dreaming") != lock_key("pi-memory/default/dreaming")


@pytest.mark.postgres
def test_advisory_lock_is_exclusive_per_namespace_and_dies_with_its_connection(postgres_dsn: str) -> None:
    namespace = fresh_namespace()
    first, second = PostgresBackend(postgres_dsn, namespace), PostgresBackend(postgres_dsn, namespace)
    elsewhere = PostgresBackend(postgres_dsn, fresh_namespace())
    with first.advisory_lock("dreaming") as held:
        assert held is True
        with second.advisory_lock("dreaming") as also, elsewhere.advisory_lock("dreaming") as other_ns:
            assert also is False and other_ns is True
        with second.advisory_lock("extraction") as different_key:
            assert different_key is True
    with second.advisory_lock("dreaming") as after_release:
        assert after_release is True

    conn = psycopg.connect(postgres_dsn, autocommit=True)
    with advisory_lock(conn, "raw-key") as held:
        assert held is True
        conn.close()  # the holder dies without unlocking
    with psycopg.connect(postgres_dsn, autocommit=True) as other, advisory_lock(other, "raw-key") as taken:
        assert taken is True
    for backend in (first, second, elsewhere):
        backend.close()


@pytest.mark.postgres
def test_a_dedicated_advisory_lock_leaves_the_pool_free(postgres_dsn: str) -> None:
    namespace = fresh_namespace()
    backend = PostgresBackend(postgres_dsn, namespace, pool_size=1)
    other = PostgresBackend(postgres_dsn, namespace)
    store = MemoryStore(backend=backend, lock_timeout=2)
    with backend.advisory_lock("dreaming", dedicated=True) as held:
        assert held is True
        assert store.add("memory", "Written while the lock is held")["success"] is True  # the one pooled connection
        with other.advisory_lock("dreaming", dedicated=True) as also:
            assert also is False  # the same key, held by another session
    with other.advisory_lock("dreaming", dedicated=True) as after:
        assert after is True  # released with its connection
    with pytest.raises(PostgresUnavailable, match="is unreachable"), \
            PostgresBackend(UNREACHABLE).advisory_lock("dreaming", dedicated=True):
        pass  # pragma: no cover
    backend.close()
    other.close()
