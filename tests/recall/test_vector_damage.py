"""A recall file whose stored vectors were damaged on disk still answers, and answers honestly: no
NaN or clipped-to-1.0 similarity, no damaged row above a real match, the damage reported once with
the way out, ``recall status`` counting it, and ``recall reindex`` repairing it.

Real files, damaged where the vectors really are (found by their known bytes, not at an offset
that depends on how SQLite laid the pages out: ``vector_damage_fixtures.py``), searched by the real
``pi-memory`` command in a fresh process.
"""

from __future__ import annotations

import json
import math
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from peer_modules import load_test_module
from pi_memory.recall import SQLiteIndex

from .conftest import record

SCRIPT = Path(sys.executable).with_name("pi-memory")

fixtures = load_test_module("recall/vector_damage_fixtures.py")
REAL, QUERY, FILLERS = fixtures.REAL, fixtures.QUERY, fixtures.FILLERS
DAMAGE, DETECTED = fixtures.DAMAGE, fixtures.DETECTED


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), "recall", *args], capture_output=True, text=True, timeout=120)


def _search(path: Path, query: str) -> tuple[list[dict[str, object]], str]:
    done = _cli("search", query, "--json", "--top-k", "10", "--index", str(path))
    assert done.returncode == 0, done.stderr
    hits: list[dict[str, object]] = json.loads(done.stdout)["hits"]
    for hit in hits:
        similarity = hit["similarity"]
        assert isinstance(similarity, float) and math.isfinite(similarity) and 0.0 <= similarity <= 1.0, hit
    return hits, done.stderr


@pytest.mark.slow
def test_damaged_vectors_on_disk_rank_below_real_matches_and_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "recall.db"
    fixtures.build(path)
    fixtures.damage_on_disk(path)

    hits, stderr = _search(path, QUERY)
    ids = [h["id"] for h in hits]
    assert set(ids[:3]) == set(REAL), ids
    for hit in hits:
        if hit["id"] in DETECTED | {"zeroed"}:
            assert hit["similarity"] == 0.0, hit
    assert f"{len(DETECTED)} of the {len(REAL) + len(DAMAGE) + FILLERS} stored vectors" in stderr, stderr
    assert str(path) in stderr and "pi-memory recall reindex" in stderr and "--embedder minilm-static-256" in stderr
    assert stderr.count("stored vectors") == 1  # once per process, not once per search or per row

    for name, (text, _) in DAMAGE.items():  # the lexical half still finds every one
        found, _ = _search(path, text)
        assert name in [h["id"] for h in found[:3]], (name, found[:3])

    status = _cli("status", "--json", "--index", str(path))
    assert status.returncode == 0 and json.loads(status.stdout)["damaged_vectors"] == len(DETECTED)

    assert _cli("reindex", "--index", str(path), "--embedder", "minilm-static-256").returncode == 0
    assert json.loads(_cli("status", "--json", "--index", str(path)).stdout)["damaged_vectors"] == 0
    hits, stderr = _search(path, DAMAGE["flipped"][0])
    assert hits[0]["id"] == "flipped" and float(str(hits[0]["similarity"])) > 0.9 and "stored vectors" not in stderr


def test_a_vector_of_the_wrong_length_is_skipped_not_a_crash_or_a_shift(tmp_path: Path) -> None:
    """Another writer's BLOBs of 300 and 514 bytes (not 2 · 256), and one stored as TEXT: the rows
    were joined and reshaped as one buffer, so they failed every search (or, had the lengths added
    up, shifted every later row), and the TEXT one failed to decode as UTF-8."""
    path = tmp_path / "recall.db"
    fixtures.build(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE messages SET embedding = substr(embedding, 1, 300) WHERE id = 'erased'")
        db.execute("UPDATE messages SET embedding = CAST(embedding || x'0000' AS BLOB) WHERE id = 'flipped'")
        db.execute("UPDATE messages SET embedding = embedding || x'0000' WHERE id = 'zeroed'")  # as TEXT
    db.close()
    hits, stderr = _search(path, QUERY)
    assert set([h["id"] for h in hits][:3]) == set(REAL)
    assert "3 of the" in stderr and "pi-memory recall reindex" in stderr
    hits, _ = _search(path, DAMAGE["one-inf"][0])  # a row after the short ones: its vector is its own
    assert hits[0]["id"] == "one-inf" and float(str(hits[0]["similarity"])) > 0.9


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("healthy") / "recall.db"
    with SQLiteIndex(path) as index:
        index.add([record(k, t, session=f"s-{k}") for k, t in REAL.items()]
                  + [record("victim", "Grandmother baked a lemon cake", session="v")]
                  + [record(f"f{n}", f"note {n} about tomatoes", session="g") for n in range(20)])
    return path


FLOAT16 = arrays(np.float16, 256, elements=st.floats(width=16, allow_nan=True, allow_infinity=True))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(blob=st.one_of(st.binary(max_size=700), FLOAT16.map(lambda a: a.tobytes())))
def test_any_bytes_in_a_stored_vector_never_outrank_a_real_match(
        healthy: Path, tmp_path_factory: pytest.TempPathFactory, blob: bytes) -> None:
    path = tmp_path_factory.mktemp("case") / "recall.db"
    shutil.copy(healthy, path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE messages SET embedding = ? WHERE id = 'victim'", (blob,))
    db.close()
    with SQLiteIndex(path) as index:
        hits = index.search(QUERY, top_k=8)
    assert all(math.isfinite(h.similarity) and 0.0 <= h.similarity <= 1.0 for h in hits), hits
    ids = [h.id for h in hits]
    assert set(ids[:3]) == set(REAL), ids
