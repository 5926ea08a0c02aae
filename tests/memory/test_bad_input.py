"""Bad text and bad storage: each is a result that says what to fix, and nothing stored is lost.

Windows line endings, entries that fit in code points but not in pi-memory's UTF-16 units, files
pi-memory wrote that we cannot rewrite, lone surrogates, and a directory that is read-only, full
or reached through a dangling symlink. Disk faults are real: a tmpfs mounted for the test
(remounted read-only, or filled up), not a patched ``os.write``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from storage_fixtures import Storage

from pi_memory.memory import ENTRY_DELIMITER, MemoryStore
from pi_memory.memory.tools import create_memory_tools

D = ENTRY_DELIMITER
WINDOWS_FACTS = "Works Fridays\r\n§\r\nLikes tea\r\n§\r\nUses vim"


# ---------------------------------------------------------------- Windows line endings


@pytest.mark.parametrize("name", ["MEMORY.md", "USER.md"])
def test_windows_line_endings_are_drift_and_remove_deletes_nothing(storage: Storage, name: str) -> None:
    """Upstream reads the file as one entry, so `remove Fridays` deleted all three facts."""
    target = "memory" if name == "MEMORY.md" else "user"
    storage.write(name, WINDOWS_FACTS)
    s = storage.store()
    assert "Windows line endings" in (s.drift_reason(target) or "")
    r = s.remove(target, "Fridays")
    assert r["success"] is False
    assert f"Refusing to write {name}" in r["error"] and "Windows line endings" in r["error"]
    assert "LF" in r["error"] and "sed -i" in r["remediation"]
    assert storage.backup_text(r["driftBackup"]) == WINDOWS_FACTS
    assert storage.read(name) == WINDOWS_FACTS
    assert s.add(target, "Prefers tabs")["success"] is False
    assert storage.read(name) == WINDOWS_FACTS
    read = s.read(target)
    assert read["success"] is True and "Windows line endings" in read["warning"]


def test_after_converting_to_lf_the_facts_are_separate_again(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_bytes(WINDOWS_FACTS.encode())
    s = MemoryStore(tmp_path)
    assert s.remove("memory", "Fridays")["success"] is False
    subprocess.run(["sed", "-i", r"s/\r$//", str(tmp_path / "MEMORY.md")], check=True)  # the fix we name
    r = s.remove("memory", "Fridays")
    assert r["success"] is True and r["entries"] == ["Likes tea", "Uses vim"]


# ---------------------------------------------------------------- UTF-16 units (DESIGN §3)


def test_entry_must_fit_in_utf16_units_too(storage: Storage) -> None:
    """1,101 emoji are 1,101 code points but 2,202 UTF-16 units: pi-memory would refuse every
    later write to the file as drift, so the entry is refused here."""
    s = storage.store()
    r = s.add("memory", "😀" * 1101)
    assert r["success"] is False
    assert "2,202 UTF-16 units" in r["error"] and "pi-memory" in r["error"]
    assert storage.read("MEMORY.md") is None
    assert s.add("memory", "😀" * 1100)["success"] is True  # 2,200 units: exactly the limit
    assert s.add("memory", "plain fact")["success"] is True
    r = s.replace("memory", "plain", "😀" * 1101)
    assert r["success"] is False and "UTF-16" in r["error"]
    assert storage.read("MEMORY.md") == "😀" * 1100 + D + "plain fact"


def test_user_limit_counts_utf16_units_for_one_entry(storage: Storage) -> None:
    s = storage.store(user_char_limit=10)
    assert s.add("user", "🦀" * 6)["success"] is False  # 6 code points, 12 units
    assert s.add("user", "🦀" * 5)["success"] is True


def test_file_with_an_entry_over_the_limit_in_utf16_units_is_drift_naming_pi_memory(storage: Storage) -> None:
    storage.write("MEMORY.md", "short" + D + "😀" * 1101)
    s = storage.store()
    r = s.add("memory", "another")
    assert r["success"] is False and "driftBackup" in r
    assert "entry 2 is 1,101 chars (2,202 UTF-16 units, as pi-memory counts)" in r["error"]
    assert "pi-memory (TypeScript)" in r["error"]
    assert storage.read("MEMORY.md") == "short" + D + "😀" * 1101


def test_pi_memory_written_section_line_entry_names_the_cause(storage: Storage) -> None:
    """pi-memory stores `beta\\n§` as given; the file is then `alpha\\n§\\nbeta\\n§`."""
    storage.write("MEMORY.md", "alpha\n§\nbeta\n§")
    s = storage.store()
    r = s.add("memory", "gamma")
    assert r["success"] is False
    assert "entry 2 starts or ends with a line holding only '§'" in r["error"]
    assert "pi-memory (TypeScript) writes such content as given" in r["error"]
    assert "delete that '§' line" in r["remediation"]
    assert storage.read("MEMORY.md") == "alpha\n§\nbeta\n§"


# ---------------------------------------------------------------- lone surrogates


@pytest.mark.parametrize("bad", ["\ud800", "ok \udcff then", "\ud83d\ude00"])
def test_lone_surrogates_are_invalid_text_not_an_exception(storage: Storage, bad: str) -> None:
    storage.write("MEMORY.md", "alpha fact")
    s = storage.store()
    for result, field in (
        (s.add("memory", bad), "Content"),
        (s.add("user", bad), "Content"),
        (s.replace("memory", "alpha", bad), "newContent"),
        (s.replace("memory", bad, "new"), "oldText"),
        (s.remove("memory", bad), "oldText"),
    ):
        assert result["success"] is False
        assert result["error"].startswith(f"{field} is not valid text: character"), result["error"]
        assert "surrogate" in result["error"]
    assert storage.read("MEMORY.md") == "alpha fact"
    assert storage.read("USER.md") is None


@pytest.mark.anyio
async def test_tools_return_an_is_error_result_for_invalid_text(tmp_path: Path) -> None:
    tools = create_memory_tools(MemoryStore(tmp_path))

    for name, params in (
        ("memory_add", {"target": "memory", "content": "\ud800"}),
        ("memory_replace", {"target": "user", "oldText": "x", "newContent": "bad \udfff"}),
        ("memory_remove", {"target": "memory", "oldText": "\udcff"}),
    ):
        result = await tools[name].execute("call-1", params)
        assert result.is_error is True
        assert result.structured_content is not None
        assert result.structured_content["success"] is False
        assert "is not valid text" in result.structured_content["error"]
        result.text.encode("utf-8")  # the model's text is valid UTF-8
        assert result.to_mcp()["isError"] is True
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- disks that refuse writes


@contextlib.contextmanager
def tmpfs(where: Path, size: str) -> Iterator[Path]:
    """A real tmpfs of ``size`` mounted at ``where`` (skips when mounting is not permitted)."""
    where.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({proc.stderr.strip() or proc.returncode}): needs root")
    try:
        yield where
    finally:
        if subprocess.run(["umount", str(where)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(directory: Path) -> Path:
    """Write a filler file until the file system is full; return it."""
    filler = directory / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


def listing(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


def test_read_only_directory_is_a_result_and_nothing_changes(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "ro", "1m") as mnt:
        (mnt / "MEMORY.md").write_text("keep me")
        proc = subprocess.run(["mount", "-o", "remount,ro", str(mnt)], capture_output=True, text=True)
        if proc.returncode != 0:
            pytest.skip(f"cannot remount read-only: {proc.stderr.strip()}")
        s = MemoryStore(mnt)
        for result in (s.add("memory", "new fact"), s.replace("memory", "keep", "changed"),
                       s.remove("memory", "keep"), s.add("user", "likes tea")):
            assert result["success"] is False
            assert result["error"].startswith(("MEMORY.md could not be written", "USER.md could not be written"))
            assert "read-only file system" in result["error"] and "Nothing was changed" in result["error"]
        assert s.read("memory")["entries"] == ["keep me"]
        assert listing(mnt) == {"MEMORY.md": b"keep me"}


def test_full_disk_while_locking_is_a_result_and_nothing_changes(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "full", "64k") as mnt:
        (mnt / "MEMORY.md").write_text("keep me")
        fill(mnt)
        before = listing(mnt)
        s = MemoryStore(mnt)
        for result in (s.add("memory", "new fact"), s.add("user", "likes tea")):
            assert result["success"] is False
            assert "no space left on the device" in result["error"] and "free some space" in result["error"]
        assert listing(mnt) == before


def test_full_disk_while_writing_keeps_the_old_file_and_no_temp_file(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "full", "256k") as mnt:
        (mnt / "MEMORY.md").write_text("keep me")
        filler = fill(mnt)
        os.truncate(filler, filler.stat().st_size - 16 * 1024)  # room for a lock and a small file
        s = MemoryStore(mnt, memory_char_limit=100_000)
        assert s.add("memory", "small fact")["success"] is True  # so the lock fits: a big write fails in the write
        big = " ".join(f"fact{i}" for i in range(9000))[:60_000]
        r = s.add("memory", big)
        assert r["success"] is False and "no space left on the device" in r["error"]
        assert (mnt / "MEMORY.md").read_text() == "keep me" + D + "small fact"
        assert not list(mnt.glob(".mem_*.tmp")) and not (mnt / "MEMORY.md.lock").exists()


@pytest.mark.parametrize("link_to", ["missing-dir/MEMORY.md", "gone.md"])
def test_dangling_symlink_says_what_to_fix_and_creates_nothing(tmp_path: Path, link_to: str) -> None:
    (tmp_path / "MEMORY.md").symlink_to(link_to)
    s = MemoryStore(tmp_path)
    r = s.add("memory", "new fact")
    assert r["success"] is False
    assert f"MEMORY.md is a symbolic link to {link_to}, which does not exist" in r["error"]
    read = s.read("memory")
    assert read["success"] is False and "symbolic link" in read["error"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MEMORY.md"]
    assert os.readlink(tmp_path / "MEMORY.md") == link_to
    assert "symbolic link" in (s.drift_reason("memory") or "")
    assert s.add("user", "other file works")["success"] is True
