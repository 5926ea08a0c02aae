"""One mutation's transaction on PostgreSQL (:mod:`pi_memory.backends.transaction`): drift backups
named like the file backend's, identical content backed up once, nothing written without a
write or a backup, and a failed open carrying its reason to the store."""

from __future__ import annotations

import re

import pytest
from storage_fixtures import fresh_namespace

from pi_memory.backends.postgres import PostgresBackend
from pi_memory.backends.transaction import FailedTransaction, PostgresTransaction
from pi_memory.memory.backend import RawText

pytestmark = pytest.mark.postgres


def test_backups_are_named_like_files_and_identical_content_is_kept_once(postgres_dsn: str) -> None:
    namespace = fresh_namespace()
    backend = PostgresBackend(postgres_dsn, namespace)
    try:
        with backend.transaction("memory", 5) as txn:
            assert isinstance(txn, PostgresTransaction) and txn.raw == RawText()
            first = txn.backup(RawText("a\n§\n\n§\nb", True))
            again = txn.backup(RawText("a\n§\n\n§\nb", True))
            other = txn.backup(RawText("different", True))
        assert re.fullmatch(rf"postgres:{namespace}/MEMORY\.md\.bak\.\d+", first)
        assert again == first
        assert other != first and other.startswith(f"postgres:{namespace}/MEMORY.md.bak.")
        assert sorted(b.location for b in backend.list_backups()) == sorted({first, other})
        with backend.transaction("memory", 5) as txn:
            assert isinstance(txn, PostgresTransaction)
            txn.write("kept")
        with backend.transaction("memory", 5) as txn:
            assert txn.raw == RawText("kept", True)  # the queued text went out with the COMMIT
    finally:
        backend.close()


def test_a_transaction_that_could_not_open_carries_the_reason() -> None:
    failed = FailedTransaction("PostgreSQL at db:5432 is unreachable")
    assert failed.raw.readable is False and failed.raw.error == "PostgreSQL at db:5432 is unreachable"
