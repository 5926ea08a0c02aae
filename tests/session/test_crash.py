"""Crash safety: a writer killed with SIGKILL mid-append leaves a file with every acknowledged entry."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from pi_memory.session import SessionFileDamagedWarning, SessionManager

WRITER = r"""
import sys
from pi_memory.session import SessionManager
sm = SessionManager.create("/proj", sys.argv[1])
print("file", sm.get_session_file(), flush=True)
i = 0
while True:
    size = (1 << 18) if i % 3 == 0 else 40  # some lines big enough to be cut mid-write
    text = f"entry {i} " + "x" * size
    if i % 2 == 0:
        entry_id = sm.append_message({"role": "user", "content": [{"type": "text", "text": text}], "timestamp": i})
    else:
        entry_id = sm.append_custom_entry("crash", {"i": i, "pad": text})
    print("ack", entry_id, flush=True)  # only after append_* returned: the entry is acknowledged
    i += 1
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("round_", range(3))
def test_sigkill_mid_append_keeps_every_acknowledged_entry(tmp_path: Path, round_: int) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    first = proc.stdout.readline().split()
    assert first[0] == "file"
    path = first[1]
    acked: list[str] = []
    target = 10 + 7 * round_
    while len(acked) < target:
        line = proc.stdout.readline()
        assert line, "writer died early"
        acked.append(line.split()[1])
    time.sleep(random.uniform(0, 0.02))
    proc.send_signal(signal.SIGKILL)
    acked.extend(line.split()[1] for line in proc.stdout if line.startswith("ack "))
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SessionFileDamagedWarning)  # a torn tail is allowed
        sm = SessionManager.open(path)
    ids = [e["id"] for e in sm.get_entries()]
    assert ids[: len(acked)] == acked
    assert len(ids) - len(acked) <= 1  # at most the entry in flight, if it was fully written
    assert all(d.line == len(ids) + 2 for d in sm.damaged_lines)  # damage only at the very end

    # the session goes on: a new entry lands on its own line and everything reads back
    new = sm.append_message({"role": "user", "content": "after the crash", "timestamp": 0})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SessionFileDamagedWarning)
        again = SessionManager.open(path)
    assert [e["id"] for e in again.get_entries()] == [*ids, new]
