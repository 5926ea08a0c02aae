"""The checks where vectors cross a boundary: BLOBs into the search (:func:`decode`, then the
scoring it feeds), and an embedder's answer into an index (:func:`embedded`)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from pi_memory.recall import RecallError, SearchConfig, SQLiteIndex, get_embedder
from pi_memory.recall.hybrid import VectorCache, rank
from pi_memory.recall.vectors import (
    NORM_TOLERANCE,
    damage_report,
    decode,
    embedded,
    query_direction,
    reindex_command,
)

from .conftest import record

DIM = 8


def _unit(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=DIM).astype(np.float32)
    return (v / np.linalg.norm(v)).astype(np.float16)


def test_decode_keeps_unit_and_zero_rows_and_marks_every_kind_of_damage() -> None:
    good, zero = _unit(1), np.zeros(DIM, dtype=np.float16)
    nan, inf, huge = good.copy(), good.copy(), good.copy()
    nan[0], inf[1], huge[2] = np.nan, np.inf, 60000
    blobs = [good.tobytes(), zero.tobytes(), nan.tobytes(), inf.tobytes(), huge.tobytes(),
             good.tobytes()[:-2], good.tobytes() + b"\0\0", None, (good * 2).tobytes(), good.tobytes()]
    rows, damaged = decode(blobs, DIM)
    assert damaged.tolist() == [False, False, True, True, True, True, True, True, True, False]
    assert np.array_equal(rows[0], good.astype(np.float32)) and np.array_equal(rows[9], rows[0])
    assert not rows[damaged].any() and rows.shape == (10, DIM)


BLOBS = st.lists(st.one_of(st.binary(max_size=3 * DIM), arrays(np.float16, DIM).map(lambda a: a.tobytes()),
                           st.integers(0, 50).map(lambda s: _unit(s).tobytes()), st.none()), min_size=1, max_size=30)


@settings(max_examples=300, deadline=None)
@given(blobs=BLOBS)
def test_decoded_rows_are_finite_and_never_longer_than_a_unit_vector(blobs: Sequence[bytes | None]) -> None:
    rows, damaged = decode(blobs, DIM)
    norms = np.linalg.norm(rows, axis=1)
    assert np.isfinite(rows).all() and (norms <= 1 + NORM_TOLERANCE).all()
    for blob, row, bad in zip(blobs, rows, damaged, strict=True):
        if not bad:  # a kept row is exactly what was stored
            assert blob is not None and np.array_equal(row, np.frombuffer(blob, dtype=np.float16).astype(np.float32))


@settings(max_examples=200, deadline=None)
@given(blobs=BLOBS, query=arrays(np.float32, DIM), lexical=st.dictionaries(st.integers(0, 29), st.floats(0, 50)))
def test_scores_of_any_stored_bytes_and_any_query_are_finite_and_skip_damaged_rows(
        blobs: Sequence[bytes | None], query: np.ndarray, lexical: dict[int, float]) -> None:
    rows, damaged = decode(blobs, DIM)
    cache = VectorCache(DIM)
    cache.append(list(range(1, len(blobs) + 1)), ["s"] * len(blobs), rows, damaged=damaged)
    lexical = {p: s for p, s in lexical.items() if p < len(blobs)}
    ranked = rank(cache, query, lexical, 10, SearchConfig(neighbour_dense=0.0, neighbour_lexical=0.0))
    assert all(np.isfinite(r.score) and 0.0 <= r.similarity <= 1.0 for r in ranked)
    for r in ranked:  # a damaged row only comes back through its words
        assert not damaged[r.position] or lexical.get(r.position, 0) > 0


def test_a_zero_or_nan_query_ranks_by_words_alone() -> None:
    rows, damaged = decode([_unit(n).tobytes() for n in range(5)], DIM)
    cache = VectorCache(DIM)
    cache.append([1, 2, 3, 4, 5], ["a", "b", "c", "d", "e"], rows, damaged=damaged)
    for query in (np.zeros(DIM, dtype=np.float32), np.full(DIM, np.nan, dtype=np.float32)):
        assert query_direction(query) is None
        assert [r.position for r in rank(cache, query, {3: 2.0}, 5, SearchConfig())] == [3]
    assert np.array_equal(query_direction(rows[0]), rows[0])
    assert np.allclose(np.linalg.norm(query_direction(rows[0] * 1e30)), 1)


class _Broken:
    """An embedder whose service answers NaN, or a row too few (a custom or remote one can)."""

    def __init__(self, nan: bool) -> None:
        self.nan = nan

    id = "broken-test"
    dimension = 256

    def embed(self, texts: Sequence[str]) -> Any:
        out = np.ones((len(texts) if self.nan else len(texts) - 1, 256), dtype=np.float32) / 16
        if self.nan:
            out[-1, 3] = np.nan
        return out


@pytest.mark.parametrize(("nan", "words"), [(True, "NaN or infinite values for 1 of 2"), (False, "shape (1, 256)")])
def test_an_embedder_answering_nan_or_the_wrong_shape_stores_nothing(tmp_path: Path, nan: bool, words: str) -> None:
    with SQLiteIndex(tmp_path / "recall.db", embedder=_Broken(nan)) as index:
        with pytest.raises(RecallError, match="broken-test") as error:
            index.add([record("a", "first"), record("b", "second")])
        assert words in str(error.value) and "nothing was stored" in str(error.value)
        assert index.count() == 0
    assert embedded(get_embedder(), ["fine"]).shape == (1, 256)


def test_the_damage_report_names_the_file_the_count_and_the_command() -> None:
    text = damage_report("/data/recall.db", 3, 1000, "minilm-static-256")
    assert text.startswith("3 of the 1000 stored vectors in the recall index /data/recall.db are damaged")
    assert "`pi-memory recall reindex --index /data/recall.db --embedder minilm-static-256`" in text


def test_the_reindex_command_runs_as_given_in_a_shell_for_a_path_with_spaces_and_quotes(tmp_path: Path) -> None:
    """The command the damage report and the web UI give is pasted into a shell: a path with a
    space or a quote must still name the index (it was given unquoted)."""
    path = tmp_path / "it's my notes" / "recall.db"
    with SQLiteIndex(path) as index:
        index.add([record("a", "the staging database moved to Frankfurt"), record("b", "tomatoes")])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE messages SET embedding = substr(embedding, 1, 10) WHERE id = 'a'")
    db.close()
    with SQLiteIndex(path) as index:
        assert index.info()["damaged_vectors"] == 1
    command = reindex_command(str(path), "minilm-static-256")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["/bin/sh", "-c", command], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    with SQLiteIndex(path) as index:
        assert index.info()["damaged_vectors"] == 0 and index.count() == 2
