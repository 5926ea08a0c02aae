"""``standalone``: the two recall tools outside a session, over an index opened on the first call."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from pi_memory.extensions.recall import shared
from pi_memory.extensions.recall.settings import parse_recall_settings
from pi_memory.extensions.recall.standalone import LazyRecallService, standalone_recall_tools
from pi_memory.recall import open_index

pytestmark = pytest.mark.anyio


def test_disabled_recall_gives_no_tools() -> None:
    assert standalone_recall_tools({"enabled": False}) == []


async def test_the_index_opens_on_the_first_call_and_searches_past_sessions(tmp_path: Path) -> None:
    url = tmp_path / "recall.db"
    index = open_index(str(url))
    index.add([{"id": "old:1", "text": "The staging database moved to Frankfurt", "role": "user",
                "timestamp": "2025-01-02T10:00:00.000Z", "session_id": "old"}])
    index.close()
    tools = standalone_recall_tools({"url": str(url)})
    assert [t.name for t in tools] == ["search_memory", "get_important_memories"]
    search, important = tools
    try:
        found = (await search.run({"query": "where is the staging database?", "topK": 1})).structured_content
        assert found is not None and found["results"][0]["id"] == "old:1"
        weighed = (await important.run({"threshold": 0.0})).structured_content
        assert weighed is not None
        (memory,) = weighed["memories"]
        assert memory["id"] == "old:1" and memory["accessCount"] == 1  # the search counted as an access
    finally:
        service = search.get_service()  # the one opened by the first call, shared by both tools
        assert service is not None and important.get_service() is service
        shared.release(service)


async def test_listing_the_tools_opens_nothing(tmp_path: Path) -> None:
    url = tmp_path / "new" / "recall.db"
    (search, _) = standalone_recall_tools({"url": str(url)})
    assert not url.parent.exists()
    found = (await search.run({"query": "anything"})).structured_content
    assert found is not None and found["results"] == [] and url.exists()
    service = search.get_service()
    assert service is not None
    shared.release(service)


def test_an_index_that_cannot_open_is_none_once_and_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    lazy = LazyRecallService(parse_recall_settings({"url": str(tmp_path)}))  # a directory, not a file
    with caplog.at_level(logging.WARNING, logger="pi_memory.recall"):
        assert lazy.open() is None
        assert lazy.open() is None
    (record,) = caplog.records
    assert "could not be opened" in record.getMessage() and "is a directory" in record.getMessage()
