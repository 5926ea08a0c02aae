"""The index contract, run against every backend."""

from __future__ import annotations

import math
from typing import Any

import pytest

from pi_memory.recall import EmbedderMismatchError, Hit

from .conftest import HashEmbedder, record

CORPUS = [
    ("a1", "We moved the staging database to Frankfurt last week", "s1", "user", "2025-01-01T10:00:00Z"),
    ("a2", "Good, the latency to the EU customers should drop then", "s1", "assistant", "2025-01-01T10:00:05Z"),
    ("a3", "My daughter starts violin lessons on Tuesday", "s1", "user", "2025-01-02T09:00:00Z"),
    ("b1", "Deploy failed: the migration timed out on the orders table", "s2", "toolResult", "2025-02-01T08:00:00Z"),
    ("b2", "Let's add an index on orders.created_at before retrying", "s2", "assistant", "2025-02-01T08:01:00Z"),
    ("b3", "I prefer tabs over spaces in Go code", "s2", "user", "2025-02-02T12:00:00Z"),
]


def _load(index: Any) -> None:
    assert index.add([record(i, t, session=s, role=r, ts=ts) for i, t, s, r, ts in CORPUS]) == len(CORPUS)


def test_search_finds_the_message_and_fills_every_field(make_index: Any) -> None:
    index = make_index()
    _load(index)
    hits = index.search("where is the staging database?", top_k=3)
    assert hits and isinstance(hits[0], Hit)
    top = hits[0]
    assert top.id == "a1"
    assert (top.role, top.session_id, top.timestamp) == ("user", "s1", "2025-01-01T10:00:00Z")
    assert 0.0 <= top.similarity <= 1.0 and top.similarity > 0.2
    assert all(0.0 <= h.similarity <= 1.0 for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert len(index.search("orders migration", top_k=2)) == 2


def test_add_is_idempotent_by_id_and_updates_changed_text(make_index: Any) -> None:
    index = make_index()
    _load(index)
    assert index.add([record(i, t, session=s, role=r, ts=ts) for i, t, s, r, ts in CORPUS]) == 0
    assert index.count() == len(CORPUS)
    assert index.add([record("b3", "I prefer spaces over tabs in Python code", session="s2")]) == 1
    assert index.count() == len(CORPUS)
    assert index.get(["b3"])[0].text.startswith("I prefer spaces")
    assert index.search("python spaces", top_k=1)[0].id == "b3"
    # duplicates inside one batch count once
    assert index.add([record("c1", "hello there"), record("c1", "hello there")]) == 1


def test_delete(make_index: Any) -> None:
    index = make_index()
    _load(index)
    assert index.delete(["a1", "nope"]) == 1
    assert index.count() == len(CORPUS) - 1
    assert "a1" not in [h.id for h in index.search("staging database Frankfurt", top_k=10)]
    assert index.get(["a1"]) == []


def test_filters(make_index: Any) -> None:
    index = make_index()
    _load(index)
    only_s2 = index.search("database", top_k=10, filters={"session_id": "s2"})
    assert only_s2 and {h.session_id for h in only_s2} == {"s2"}
    users = index.search("code lessons database", top_k=10, filters={"role": ["user"]})
    assert users and {h.role for h in users} == {"user"}
    february = index.search(
        "orders", top_k=10, filters={"since": "2025-02-01T00:00:00Z", "until": "2025-02-02T00:00:00Z"}
    )
    assert {h.id for h in february} <= {"b1", "b2"} and february


def test_empty_index_and_no_matches(make_index: Any) -> None:
    index = make_index()
    assert index.search("anything") == []
    assert index.count() == 0
    _load(index)
    assert index.search("", top_k=3) is not None  # an empty query returns dense neighbours or nothing, never fails


def test_embedder_mismatch_is_refused_with_the_way_out(make_index: Any) -> None:
    index = make_index()
    _load(index)
    index.close()
    other = make_index(embedder=HashEmbedder(), name="a")
    with pytest.raises(EmbedderMismatchError, match="pi-memory recall reindex"):
        other.search("database")
    with pytest.raises(EmbedderMismatchError):
        other.add([record("z", "another message")])
    # reopening without naming an embedder uses the recorded one
    again = make_index(name="a")
    assert again.search("staging database", top_k=1)[0].id == "a1"


def test_access_tracking(make_index: Any) -> None:
    index = make_index()
    _load(index)
    index.record_access(["a1", "b2"], when="2025-03-01T00:00:00.000Z")
    index.record_access(["a1"], when="2025-03-02T00:00:00.000Z")
    stats = {s.id: s for s in index.access_stats()}
    assert stats["a1"].access_count == 2 and stats["a1"].last_access == "2025-03-02T00:00:00.000Z"
    assert stats["b2"].access_count == 1 and stats["a3"].access_count == 0 and stats["a3"].last_access is None


def test_zero_vectors_never_give_a_nan_similarity_or_dense_noise(make_index: Any) -> None:
    """A text of no known word embeds to zeros. pgvector's cosine distance to one, stored or asked,
    is NaN, which the 0–1 clip turned into similarity 1.0; in process a zero query tied every row
    and lent 100 arbitrary ones the dense half's full weight. Before and after a flush (PostgreSQL:
    an exact scan, then its HNSW index)."""
    index = make_index()
    _load(index)
    index.add([record("blank", "", session="z"), record("spaces", "   ", session="z")])
    for _ in range(2):
        hits = index.search("where is the staging database?", top_k=8)
        assert hits[0].id == "a1" and all(math.isfinite(h.similarity) and 0 <= h.similarity <= 1 for h in hits)
        assert {h.similarity for h in hits if h.id in ("blank", "spaces")} <= {0.0}
        assert index.search("   ", top_k=5) == []  # no word and no direction: nothing to rank by
        index.flush()


def test_info(make_index: Any) -> None:
    index = make_index()
    _load(index)
    info = index.info()
    assert info["count"] == len(CORPUS)
    assert info["embedder"] == "minilm-static-256" and info["dimension"] == 256
    assert info["backend"] in ("sqlite", "postgres", "chroma") and info["size_bytes"] > 0
    if info["backend"] == "chroma":  # the vectors are on the server, everything else in the local file
        assert info["remote_count"] == len(CORPUS) and info["local_file"].endswith(".db")


def test_the_reply_to_a_lexical_hit_shares_its_score_on_every_backend(make_index: Any) -> None:
    """Neighbour smoothing: the turn after a match ("Yes, last Friday!") gains half its BM25
    score although it shares no word with the question. PostgreSQL used to smooth only its
    candidates, so such a reply had no score there unless the dense half proposed it."""
    from dataclasses import replace

    from pi_memory.recall import SearchConfig

    index = make_index(embedder=HashEmbedder())
    _load(index)
    index.config = replace(SearchConfig(), fusion="lexical", neighbour_dense=0.0, author_weight=0.0,
                           date_weight=0.0, session_weight=0.0, answer_weight=0.0)
    assert [h.id for h in index.search("Frankfurt", top_k=2)] == ["a1", "a2"]
