"""The default backend (:mod:`pi_memory.memory.files`): ``MEMORY.md``/``USER.md`` in one directory,
read without ever raising, written atomically under the lock, backups never piled up or
overwritten, and a directory that cannot hold memory reported before the first write."""

from __future__ import annotations

from pathlib import Path

from pi_memory.memory.backend import RawText
from pi_memory.memory.files import FILE_NAMES, FileBackend, read_raw, write_backup


def test_reads_are_states_never_exceptions(tmp_path: Path) -> None:
    assert read_raw(tmp_path / "MEMORY.md") == RawText()
    (tmp_path / "MEMORY.md").write_text("a\n§\nb", encoding="utf-8")
    assert read_raw(tmp_path / "MEMORY.md") == RawText("a\n§\nb", True)
    (tmp_path / "USER.md").write_bytes(b"caf\xe9")
    bad = read_raw(tmp_path / "USER.md")
    assert bad.invalid == b"caf\xe9" and bad.exists  # invalid UTF-8 is drift to report, not a crash


def test_a_write_goes_through_the_lock_and_creates_the_directory_only_then(tmp_path: Path) -> None:
    backend = FileBackend(tmp_path / "mem")
    backend.prepare()
    assert not (tmp_path / "mem").exists() and backend.read("memory") == RawText()
    with backend.transaction("memory", 1) as txn:
        assert (tmp_path / "mem" / "MEMORY.md.lock").is_dir()  # held while the caller writes
        txn.write("first")
    assert (tmp_path / "mem" / "MEMORY.md").read_text(encoding="utf-8") == "first"
    assert not (tmp_path / "mem" / "MEMORY.md.lock").exists()  # released; no temp file left either
    assert [p.name for p in (tmp_path / "mem").iterdir() if ".lock" not in p.name] == ["MEMORY.md"]
    assert backend.label("user") == FILE_NAMES["user"] and backend.location("user") == str(tmp_path / "mem" / "USER.md")


def test_backups_reuse_identical_bytes_and_never_overwrite_another(tmp_path: Path) -> None:
    target = tmp_path / "MEMORY.md"
    first = write_backup(target, RawText("one", True))
    assert first.name.startswith("MEMORY.md.bak.") and first.read_text(encoding="utf-8") == "one"
    assert write_backup(target, RawText("one", True)) == first
    second = write_backup(target, RawText("two", True))
    assert second != first and second.read_text(encoding="utf-8") == "two" and first.read_text() == "one"


def test_a_directory_that_cannot_hold_memory_is_reported_up_front(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("a file")
    problem = FileBackend(tmp_path / "taken").check()
    assert problem is not None and "is a file, not a directory" in problem
    nested = FileBackend(tmp_path / "taken" / "mem").check()
    assert nested is not None and "cannot be created" in nested
    assert FileBackend(tmp_path / "fresh" / "mem").check() is None
