"""The candidates statement (:mod:`pi_memory.recall.postgres_candidates`) on the real PostgreSQL:
both halves' candidates, each one's neighbours in its session and the cosines smoothing needs,
in one round trip, the same as reading them one lookup at a time."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import numpy as np

from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.postgres_candidates import read_candidates
from pi_memory.recall.postgres_index import PostgresIndex

from .conftest import HashEmbedder, record

_tables = itertools.count()


class Counting:
    """The index's connection, counting the statements sent through it."""

    def __init__(self, db: Any) -> None:
        self.db, self.statements = db, 0

    def execute(self, *args: Any) -> Any:
        self.statements += 1
        return self.db.execute(*args)


def test_one_statement_reads_both_halves_and_every_neighbour(pg_url: str) -> None:
    table = f"candidates{next(_tables)}"
    embedder = HashEmbedder()
    # three sessions interleaved, so a message's neighbour is rarely the next seq
    rows = [record(f"m{i}", f"coffee w{i % 7} tea w{i % 5}", session=f"s{i % 3}") for i in range(60)]
    index = PostgresIndex(pg_url, embedder=embedder, table=table, config=replace(SearchConfig(), candidates=10))
    try:
        index.add(rows)
        index.flush()
        vector = embedder.embed(["coffee w3"])[0]
        lexical = index._fts.statement("coffee w3", index.config, "", [])
        db = Counting(index._db)
        found = read_candidates(db, table, lexical, (vector, 10), "", [], True)
        assert db.statements == 1
        seq = dict(index._db.execute(f"SELECT id, seq FROM {table}").fetchall())
        order = {s: [seq[f"m{i}"] for i in range(60) if i % 3 == s] for s in range(3)}
        prev_next: dict[int, tuple[int | None, int | None]] = {}
        for seqs in order.values():
            for k, s in enumerate(seqs):
                prev_next[s] = (seqs[k - 1] if k else None, seqs[k + 1] if k + 1 < len(seqs) else None)
        assert found.lexical == index._fts.scores("coffee w3", index.config, "", [])
        assert list(found.lexical.values()) == sorted(found.lexical.values(), reverse=True)
        assert len(found.dense) == 10 and list(found.dense.values()) == sorted(found.dense.values(), reverse=True)
        for s in set(found.lexical) | set(found.dense):
            assert found.neighbours[s] == prev_next[s]
        for s in found.lexical:  # a lexical hit's neighbours know their own neighbours too
            assert all(found.neighbours[o] == prev_next[o] for o in prev_next[s] if o is not None)
        vectors = {seq[r["id"]]: embedder.embed([r["text"]])[0] for r in rows}
        needed = set(found.dense) | {o for s in found.dense for o in prev_next[s] if o is not None}
        assert set(found.cosines) == needed
        for s, cosine in found.cosines.items():
            assert abs(cosine - float(np.dot(vectors[s], vector))) < 1e-5
    finally:
        index.clear()
        index.close()


def test_either_half_alone_and_neither(pg_url: str) -> None:
    table = f"candidates{next(_tables)}"
    index = PostgresIndex(pg_url, embedder=HashEmbedder(), table=table)
    try:
        index.add([record(f"m{i}", f"coffee w{i}", session="s") for i in range(5)])
        index.flush()
        lexical = index._fts.statement("coffee", index.config, "", [])
        alone = read_candidates(index._db, table, lexical, None, "", [], False)
        assert len(alone.lexical) == 5 and alone.dense == {} and alone.cosines == {}
        dense = read_candidates(index._db, table, None, (HashEmbedder().embed(["w1"])[0], 3), "", [], False)
        assert dense.lexical == {} and len(dense.dense) == 3
        assert read_candidates(index._db, table, None, None, "", [], True).neighbours == {}
    finally:
        index.clear()
        index.close()
