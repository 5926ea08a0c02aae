"""Chroma specifics (the shared index suite runs over it too): the dense half really comes from the
server, and the URL names a collection per agent."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pi_memory.recall import RecallError, open_index
from pi_memory.recall.chroma_index import ChromaIndex, parse_chroma_url
from pi_memory.recall.fusion import SearchConfig

from .conftest import record


def test_url_parsing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert parse_chroma_url("chroma://db.internal:9000/team-a") == ("db.internal", 9000, "team-a")
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent-1"))
    host, port, first = parse_chroma_url("chroma://localhost")
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent-2"))
    assert (host, port) == ("localhost", 8000) and first.startswith("pi-memory-")
    assert parse_chroma_url("chroma://localhost")[2] != first  # one collection per agent
    with pytest.raises(RecallError, match="collection name"):
        parse_chroma_url("chroma://localhost:1/x")


def test_dense_candidates_come_from_the_server(chroma_url: str, tmp_path: Path) -> None:
    chromadb = pytest.importorskip("chromadb")
    index = open_index(f"{chroma_url}/dense-probe")
    assert isinstance(index, ChromaIndex)
    try:
        index.add([record("v1", "My violin lesson is on Tuesday evening", session="s1"),
                   record("v2", "The staging database moved to Frankfurt", session="s2")])
        index.config = replace(SearchConfig(), fusion="dense", neighbour_dense=0.0)
        assert index.search("violin lesson on Tuesday", top_k=1)[0].id == "v1"
        host, port, name = parse_chroma_url(f"{chroma_url}/dense-probe")
        chromadb.HttpClient(host=host, port=port).get_collection(name).delete(ids=["v1"])  # gone from the server,
        # still in the local file
        assert [h.id for h in index.search("violin lesson on Tuesday", top_k=2)] == ["v2"]
        index.config = SearchConfig()
        assert index.search("violin lesson", top_k=1)[0].id == "v1"  # the lexical half is local
    finally:
        index.close()
