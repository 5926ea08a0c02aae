"""The trust store writes like the memory store: locked, confirmed, atomic."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_memory.host.trust import ProjectTrustStore

PAUSED_SETTER = """
import sys
from pi_memory.host.trust import ProjectTrustStore


class PausedAfterRead(ProjectTrustStore):
    def _read(self):
        data = super()._read()  # inside the lock
        print("read", flush=True)
        sys.stdin.readline()  # the test stops this process here
        return data


try:
    PausedAfterRead(sys.argv[1]).set("/projects/paused", True)
except Exception as exc:
    print(type(exc).__name__, flush=True)
else:
    print("written", flush=True)
"""

OTHER_SETTER = """
import sys
from pi_memory.memory import LockBusy
from pi_memory.host.trust import ProjectTrustStore
for _ in range(60):  # the store waits 3 s per call; the stopped holder's lock goes stale in 2 s
    try:
        ProjectTrustStore(sys.argv[1]).set("/projects/other", False)
        break
    except LockBusy:
        continue
else:
    sys.exit("the stale lock was never taken over")
"""


@pytest.fixture
def procs() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def _wait_until_stopped(pid: int) -> None:
    while Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "T":
        time.sleep(0.01)


def test_a_trust_writer_stopped_past_the_stale_time_never_writes_over_the_one_that_took_over(
    tmp_path: Path, procs: list[subprocess.Popen[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the stopped writer read is stale once its lock was taken over: renaming it into
    place on SIGCONT would drop the other writer's decision, so it must not land."""
    (tmp_path / "trust.json").write_text(json.dumps({"/projects/old": True}))
    monkeypatch.setenv("_PI_MEMORY_LOCK_STALE", "2")  # the lock's test switch: 2 s, not 30
    paused = subprocess.Popen(
        [sys.executable, "-c", PAUSED_SETTER, str(tmp_path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    procs.append(paused)
    assert paused.stdout is not None and paused.stdin is not None
    assert paused.stdout.readline().strip() == "read"
    os.kill(paused.pid, signal.SIGSTOP)  # its refresher stops too: the lock goes stale
    _wait_until_stopped(paused.pid)
    paused.stdin.write("go on\n")
    paused.stdin.flush()
    other = subprocess.run(
        [sys.executable, "-c", OTHER_SETTER, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert other.returncode == 0, other.stderr  # it took the stale lock over
    os.kill(paused.pid, signal.SIGCONT)
    out, _ = paused.communicate(timeout=60)
    assert out.splitlines()[-1] == "LockCompromised", out
    store = ProjectTrustStore(tmp_path)
    assert store.get("/projects/other") is False  # the decision made meanwhile survives
    assert store.get("/projects/old") is True
    assert store.get("/projects/paused") is None
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".trust.json.lock")) == ["trust.json"]


@pytest.mark.anyio
async def test_one_decision_headless_and_with_hooks(tmp_path: Path) -> None:
    """The settings-only commands and the session runtime make the same decision; headless, it
    never waits, needs no event loop, and a broken trust store means untrusted with a warning."""

    from pi_memory.host.trust import TrustAnswer, decide_project_trust, headless_project_trust

    project = tmp_path / "proj"
    (project / ".pi").mkdir(parents=True)
    (project / ".pi" / "settings.json").write_text("{}")
    store = ProjectTrustStore(tmp_path / "agent")
    assert headless_project_trust(project, "ask", store=store) == (False, [])
    assert headless_project_trust(project, "always", store=store) == (True, [])
    assert headless_project_trust(project, ["always"], store=store) == (False, [])  # junk setting: ask
    store.set(project, True)
    assert headless_project_trust(project, "never", store=store) == (True, [])

    async def says_no(path: str) -> TrustAnswer:
        return TrustAnswer(False)

    assert await decide_project_trust(project, "always", store=store, extension_hook=says_no) is False
    assert await decide_project_trust(project, store=store, override=False) is False
    (tmp_path / "agent" / "trust.json").write_text("[not an object")
    trusted, warnings = headless_project_trust(project, "always", store=store)
    assert trusted is False and len(warnings) == 1 and warnings[0].endswith("; project settings are ignored")
