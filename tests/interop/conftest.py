"""Shared helpers for tests that run the real Node peers (pi, proper-lockfile).

The peers are installed into ``tests/interop/node_modules`` by ``bash scripts/test.sh`` (which
``.ci/run`` calls). A missing install is a failure, not a skip: a green run must mean the
compatibility claims were checked against the real packages.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

INTEROP_DIR = Path(__file__).resolve().parent
NODE_MODULES = INTEROP_DIR / "node_modules"
PI_PACKAGE = NODE_MODULES / "@earendil-works" / "pi-coding-agent"


@dataclass(frozen=True)
class NodePeer:
    """Where the Node peers live, and a way to run a script from ``tests/interop``."""

    node: str
    node_modules: Path
    interop_dir: Path = INTEROP_DIR

    def run(
        self,
        script: str,
        *args: str,
        env: dict[str, str] | None = None,
        input: str | None = None,
        timeout: float = 60,
    ) -> subprocess.CompletedProcess[str]:
        """Run ``node <interop_dir>/<script> args…``; a non-zero exit fails the test with stderr."""
        full_env = {**os.environ, **(env or {})}
        proc = subprocess.run(
            [self.node, str(self.interop_dir / script), *args],
            cwd=self.interop_dir,
            env=full_env,
            input=input,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=timeout,
        )
        if proc.returncode != 0:
            pytest.fail(f"node {script} {' '.join(args)} exited {proc.returncode}:\n{proc.stderr[-4000:]}")
        return proc

    def run_json(self, script: str, *args: str, **kwargs: Any) -> Any:
        """Run a script that prints one JSON document and return it parsed."""
        return json.loads(self.run(script, *args, **kwargs).stdout)


def find_node_peer(node_modules: Path = NODE_MODULES) -> NodePeer:
    """Locate node and the installed peers, or fail with what to run."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: interop tests need Node 20+ (run `bash scripts/test.sh`)")
    pi_package = node_modules / "@earendil-works" / "pi-coding-agent" / "package.json"
    lockfile_package = node_modules / "proper-lockfile" / "package.json"
    if not pi_package.is_file() or not lockfile_package.is_file():
        pytest.fail(
            f"{node_modules} is missing the pinned Node peers; run `bash scripts/test.sh` "
            "(it runs `npm ci --prefix tests/interop`)"
        )
    return NodePeer(node=node, node_modules=node_modules)


@pytest.fixture(scope="session")
def node_peer_locator() -> Callable[[Path], NodePeer]:
    """``find_node_peer`` itself, for tests of the failure message."""
    return find_node_peer


@pytest.fixture(scope="session")
def node_peer() -> NodePeer:
    """The Node binary and ``tests/interop/node_modules``; fails (never skips) when missing."""
    return find_node_peer()
