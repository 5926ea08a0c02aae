"""The one atomic durable write, used by the memory store, session rewrites and the trust store."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from pi_memory.base.fs import atomic_write, atomic_write_text, create_durable, remove_orphan_temps
from pi_memory.session.store import rewrite_file, write_new_file


def _names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_remove_orphan_temps_deletes_only_old_temp_files(tmp_path: Path) -> None:
    old = tmp_path / ".mem_0123456789ab.tmp"
    young = tmp_path / ".mem_ba9876543210.tmp"
    unrelated = tmp_path / "notes.tmp"
    for path in (old, young, unrelated):
        path.write_text("partial")
    long_ago = time.time() - 301
    os.utime(old, (long_ago, long_ago))
    os.utime(unrelated, (long_ago, long_ago))

    remove_orphan_temps(tmp_path)
    assert not old.exists()
    assert young.exists()  # may belong to a writer that is still running
    assert unrelated.exists()

    remove_orphan_temps(tmp_path, max_age=0)
    assert not young.exists()


def test_a_write_dropped_before_the_rename_leaves_the_target_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "state.json"
    target.write_text("old")

    def refuse() -> None:
        raise RuntimeError("the lock was lost")

    with pytest.raises(RuntimeError):
        atomic_write_text(target, "new", before_rename=refuse)
    assert target.read_text() == "old"
    assert _names(tmp_path) == ["state.json"]


def test_a_new_file_is_private_and_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    fresh = tmp_path / "sub" / "fresh.md"
    atomic_write_text(fresh, "a")  # the directory is made too
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600
    shared = tmp_path / "shared.md"
    shared.write_text("x")
    shared.chmod(0o640)
    atomic_write(shared, b"y")
    assert stat.S_IMODE(shared.stat().st_mode) == 0o640
    assert shared.read_bytes() == b"y"


def test_links_are_written_through_or_replaced_as_asked(tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    atomic_write_text(link, "through")
    assert link.is_symlink() and real.read_text() == "through"
    atomic_write(link, b"replaced", follow_links=False)
    assert not link.is_symlink() and link.read_text() == "replaced" and real.read_text() == "through"


def test_session_files_are_written_by_the_same_mechanism(tmp_path: Path) -> None:
    """A session rewrite keeps the file's mode and leaves nothing beside it; a new one is 0644."""
    path = tmp_path / "s.jsonl"
    write_new_file(str(path), "one\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o644 & ~_umask()
    with pytest.raises(FileExistsError):
        write_new_file(str(path), "again\n")
    path.chmod(0o600)
    rewrite_file(str(path), "two\n")
    assert path.read_text() == "two\n" and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert _names(tmp_path) == ["s.jsonl"]


def test_create_durable_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "backup"
    create_durable(path, b"first")
    with pytest.raises(FileExistsError):
        create_durable(path, b"second")
    assert path.read_bytes() == b"first"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def test_orphans_are_only_this_writers_temp_files(tmp_path: Path) -> None:
    long_ago = time.time() - 600
    for name in (".mem_aaaaaaaaaaaa.tmp", ".s.jsonl.x.tmp"):
        (tmp_path / name).write_text("")
        os.utime(tmp_path / name, (long_ago, long_ago))
    remove_orphan_temps(tmp_path)
    assert _names(tmp_path) == [".s.jsonl.x.tmp"]
