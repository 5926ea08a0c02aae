"""Fault tolerance: torn and malformed lines are reported and kept, never lose the rest of the file."""

from __future__ import annotations

import json
import shutil
import subprocess
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
from session_builders import asst, user

from pi_memory.session import SessionError, SessionFileDamagedWarning, SessionManager


def _session(tmp_path: Path) -> tuple[SessionManager, Path]:
    sm = SessionManager.create("/p", str(tmp_path))
    sm.append_message(user("one"))
    sm.append_message(asst("two"))
    sm.append_custom_entry("x", {"n": 1})
    path = Path(sm.get_session_file() or "")
    return sm, path


def test_truncated_last_line_loses_nothing_else(tmp_path: Path) -> None:
    sm, path = _session(tmp_path)
    good = path.read_bytes()
    torn = b'{"type":"message","id":"deadbeef","parentId":"x","timestamp":"2025-01-01T00:00:00.000Z","mess'
    path.write_bytes(good + torn)
    with pytest.warns(SessionFileDamagedWarning, match="line 5"):
        reopened = SessionManager.open(str(path))
    assert [e["id"] for e in reopened.get_entries()] == [e["id"] for e in sm.get_entries()]
    [damage] = reopened.damaged_lines
    assert (damage.line, damage.offset, damage.raw) == (5, len(good), torn)
    assert path.read_bytes() == good + torn  # opening does not edit the file
    # kept aside in <file>.damaged, with line number, reason and the exact text
    sidecar = Path(str(path) + ".damaged")
    assert reopened.damaged_sidecar == str(sidecar)
    [record] = [json.loads(line) for line in sidecar.read_text().splitlines()]
    assert record["line"] == 5 and record["text"] == torn.decode() and "malformed" in record["reason"]
    # the next append starts on a fresh line; the torn bytes stay where they were
    new = reopened.append_message(user("three"))
    assert path.read_bytes().startswith(good + torn + b"\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = SessionManager.open(str(path))
    assert again.get_leaf_id() == new and len(again.get_entries()) == 4
    assert len(sidecar.read_text().splitlines()) == 1  # reported again, but saved once
    assert caught


def test_malformed_middle_line_and_invalid_utf8(tmp_path: Path) -> None:
    _, path = _session(tmp_path)
    lines = path.read_bytes().split(b"\n")
    lines.insert(2, b"{not json}")
    lines[3] = lines[3].replace(b'"two"', b'"tw\xff"')  # invalid UTF-8 inside a string: read like pi (U+FFFD)
    path.write_bytes(b"\n".join(lines))
    with pytest.warns(SessionFileDamagedWarning):
        reopened = SessionManager.open(str(path))
    assert len(reopened.get_entries()) == 3
    assert [(d.line, d.reason.split(" ")[0]) for d in reopened.damaged_lines] == [(3, "malformed"), (4, "invalid")]
    assert reopened.get_entries()[1]["message"]["content"][0]["text"] == "tw\ufffd"
    records = [json.loads(x) for x in Path(str(path) + ".damaged").read_text().splitlines()]
    assert records[0]["text"] == "{not json}" and "base64" in records[1]


def test_blank_lines_and_crlf_are_not_damage(tmp_path: Path) -> None:
    _, path = _session(tmp_path)
    text = path.read_text()
    path.write_text("\n\n".join(text.split("\n")).replace("\n", "\r\n"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reopened = SessionManager.open(str(path))
    assert len(reopened.get_entries()) == 3 and reopened.damaged_lines == []


def test_migration_rewrite_keeps_damaged_lines_aside(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_text(
        '{"type":"session","id":"v1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}\n'
        '{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"a","timestamp":1}}\n'
        "garbage that was typed here\n"
    )
    with pytest.warns(SessionFileDamagedWarning):
        sm = SessionManager.open(str(path))
    assert "garbage" not in path.read_text()  # pi rewrites migrated files without unreadable lines…
    assert "garbage that was typed here" in Path(str(path) + ".damaged").read_text()  # …we keep them
    assert len(sm.get_entries()) == 1


def test_failed_write_does_not_advance_the_leaf(tmp_path: Path) -> None:
    sm, path = _session(tmp_path)
    leaf = sm.get_leaf_id()
    saved = path.read_bytes()
    path.unlink()
    path.mkdir()  # any user, root included, fails to append to a directory
    try:
        with pytest.raises(OSError):
            sm.append_message(user("lost"))
    finally:
        path.rmdir()
        path.write_bytes(saved)
    assert sm.get_leaf_id() == leaf and len(sm.get_entries()) == 3
    child = sm.append_message(user("next"))
    assert (sm.get_entry(child) or {})["parentId"] == leaf
    assert [e["id"] for e in SessionManager.open(str(path)).get_entries()] == [e["id"] for e in sm.get_entries()]


def test_lines_that_only_parse_when_joined_are_damage(tmp_path: Path) -> None:
    """The whole-file fast path must never merge or split lines (see store._parse_whole)."""
    header = '{"type":"session","version":3,"id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}'
    tricky = ['{"type":"custom","id":"a"},{"type":"custom","id":"b"}', '{"type":"custom","id":"c","x":[{}', "{}]}"]
    legit = (
        '{"type":"custom","customType":"t","data":"[{\\"a\\":1},{\\"b\\":2}]","id":"d","parentId":null,"timestamp":"x"}'
    )
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join([header, *tricky, legit]) + "\n")
    with pytest.warns(SessionFileDamagedWarning):
        sm = SessionManager.open(str(path))
    assert [e["id"] for e in sm.get_entries()] == ["d"]
    assert [d.line for d in sm.damaged_lines] == [2, 3, 4]
    path.write_text("\n".join([header, legit]) + "\n")
    assert SessionManager.open(str(path)).get_entries()[0]["data"] == '[{"a":1},{"b":2}]'


_V1_WITH_GARBAGE = (
    '{"type":"session","id":"v1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}\n'
    '{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"a","timestamp":1}}\n'
    "garbage that was typed here\n"
)


def _immutable(path: Path) -> Callable[[], None]:
    """``path`` as a sidecar that cannot be appended to, even by root (``chattr +i``)."""
    path.write_text("")
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip("chattr +i is not available here")
    return lambda: subprocess.run(["chattr", "-i", str(path)], check=True)


@pytest.mark.parametrize("blocker", ["directory", "immutable file"])
def test_migration_never_drops_a_line_it_could_not_keep_aside(tmp_path: Path, blocker: str) -> None:
    """A v1 file must be rewritten as v3, which leaves unreadable lines out; when ``<file>.damaged``
    cannot take them, opening refuses and the file keeps every byte."""
    path = tmp_path / "old.jsonl"
    path.write_text(_V1_WITH_GARBAGE)
    sidecar = Path(str(path) + ".damaged")
    undo: Callable[[], None] = lambda: None  # noqa: E731
    if blocker == "directory":
        sidecar.mkdir()
    else:
        undo = _immutable(sidecar)
    try:
        with pytest.warns(SessionFileDamagedWarning, match="could not be copied"), \
                pytest.raises(SessionError, match=r"exist only in this file.*\.damaged aside"):
            SessionManager.open(str(path))
        assert path.read_text() == _V1_WITH_GARBAGE  # nothing dropped, nothing migrated
    finally:
        undo()
    if blocker == "directory":
        sidecar.rmdir()
    else:
        sidecar.unlink()
    with pytest.warns(SessionFileDamagedWarning):
        sm = SessionManager.open(str(path))  # the way out works: the sidecar takes the line, then the rewrite
    assert "garbage" not in path.read_text() and "garbage that was typed here" in sidecar.read_text()
    assert sm.damaged_sidecar == str(sidecar) and len(sm.get_entries()) == 1


def test_v3_file_with_unsaveable_damage_opens_and_keeps_its_lines(tmp_path: Path) -> None:
    """No rewrite is needed for a v3 file: it opens, the warning says the copy failed, appends keep the line."""
    _, path = _session(tmp_path)
    path.write_bytes(path.read_bytes() + b"{torn\n")
    Path(str(path) + ".damaged").mkdir()
    with pytest.warns(SessionFileDamagedWarning, match="could not be copied"):
        reopened = SessionManager.open(str(path))
    assert reopened.damaged_sidecar is None
    reopened.append_message(user("more"))
    assert b"{torn\n" in path.read_bytes()
