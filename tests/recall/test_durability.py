"""SQLite under real processes: a SIGKILL mid-batch loses no acknowledged record, and two
processes writing the same file both succeed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from pi_memory.recall import SQLiteIndex

WRITER = textwrap.dedent(
    """
    import sys
    from pi_memory.recall import SQLiteIndex
    path, prefix, batches = sys.argv[1], sys.argv[2], int(sys.argv[3])
    index = SQLiteIndex(path, timeout=60)
    for b in range(batches):
        batch = [{"id": f"{prefix}-{b}-{i}", "text": f"message {i} of batch {b} from {prefix}", "role": "user",
                  "timestamp": "2025-01-01T00:00:00Z", "session_id": prefix} for i in range(10)]
        index.add(batch)
        print(" ".join(r["id"] for r in batch), flush=True)  # acknowledged
    """
)


def _writer(path: Path, prefix: str, batches: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), prefix, str(batches)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_sigkill_mid_batch_loses_no_acknowledged_record(tmp_path: Path) -> None:
    path = tmp_path / "recall.db"
    proc = _writer(path, "w", 100_000)
    acknowledged: list[str] = []
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while len(acknowledged) < 300 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        acknowledged += line.split()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert len(acknowledged) >= 300, proc.stderr.read() if proc.stderr else ""
    with SQLiteIndex(path) as index:
        stored = {h.id for h in index.get(acknowledged)}
        assert stored == set(acknowledged)
        assert index.count() >= len(acknowledged)
        assert index.count() % 10 == 0  # a batch is one transaction: all or nothing
        assert index.search("message 3 of batch 2", top_k=1)


def test_two_processes_write_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "recall.db"
    SQLiteIndex(path).close()  # create the schema once so both start on a WAL file
    writers = [_writer(path, name, 30) for name in ("alpha", "beta")]
    for proc in writers:
        _out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    with SQLiteIndex(path) as index:
        assert index.count() == 600
        assert {h.session_id for h in index.search("message from beta", top_k=20)} >= {"beta"}
        hits = index.search("message batch", top_k=5, filters={"session_id": "alpha"})
        assert hits and all(h.session_id == "alpha" for h in hits)


def test_a_reader_sees_another_processes_writes(tmp_path: Path) -> None:
    path = tmp_path / "recall.db"
    with SQLiteIndex(path) as reader:
        reader.add(
            [{"id": "r0", "text": "seed", "role": "user", "timestamp": "2025-01-01T00:00:00Z", "session_id": "r"}]
        )
        assert reader.search("seed", top_k=1)[0].id == "r0"
        proc = _writer(path, "late", 2)
        proc.communicate(timeout=60)
        assert reader.count() == 21
        assert any(h.session_id == "late" for h in reader.search("message of batch from late", top_k=5))
        # a delete elsewhere invalidates this process's vector cache
        with SQLiteIndex(path) as other:
            other.delete([f"late-0-{i}" for i in range(10)])
        assert all(not h.id.startswith("late-0-") for h in reader.search("message of batch 0 from late", top_k=20))
