"""The second stage of search (``pi_memory.recall.rerank``) on small real SQLite indexes: a
question naming a person prefers that person's messages, one naming a date prefers messages of
that period, and a session that answers lifts its other turns. The Chroma backend searches
through the same SQLite path; PostgreSQL is to call the same function (docs/recall.md)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

from pi_memory.recall import SearchConfig, SQLiteIndex
from pi_memory.recall.rerank import Candidate, author_of, named_periods, rerank, rerank_hits

from .conftest import record

FIRST_STAGE = replace(SearchConfig(), author_weight=0.0, date_weight=0.0, session_weight=0.0, answer_weight=0.0)


def _index(tmp_path: Path, records: list[dict[str, Any]], config: SearchConfig | None = None) -> SQLiteIndex:
    index = SQLiteIndex(tmp_path / "recall.db", config=config)
    index.add(records)
    return index


def _ids(index: SQLiteIndex, query: str, top_k: int = 5) -> list[str]:
    return [h.id for h in index.search(query, top_k=top_k)]


# A turn that *addresses* Maria (her name twice, the question's words twice) and her own turn.
ADDRESSING = "John: Maria, your painting is lovely! Maria, how long did painting take you?"
OWN = "Maria: I finished a painting of the lake at sunset last weekend."


def test_a_question_naming_a_speaker_prefers_that_speakers_turn(tmp_path: Path) -> None:
    records = [record("john", ADDRESSING, ts="2025-03-01T10:00:00Z"), record("maria", OWN, ts="2025-03-01T10:01:00Z")]
    with _index(tmp_path, records, FIRST_STAGE) as index:
        assert _ids(index, "What did Maria paint?", 1) == ["john"]  # BM25 alone: the name counted twice
        index.config = SearchConfig()
        assert _ids(index, "What did Maria paint?", 1) == ["maria"]


def test_the_author_can_come_from_metadata(tmp_path: Path) -> None:
    records = [
        {**record("john", "Maria, your painting is lovely! Maria, how long did painting take you?"),
         "metadata": {"author": "John"}},
        {**record("maria", "I finished a painting of the lake at sunset last weekend."),
         "metadata": {"author": "Maria"}},
    ]
    with _index(tmp_path, records) as index:
        assert _ids(index, "What did Maria paint?", 1) == ["maria"]


def test_a_question_naming_every_author_is_left_as_the_first_stage_ranks_it(tmp_path: Path) -> None:
    records = [record("john", ADDRESSING), record("maria", OWN)]
    with _index(tmp_path, records, replace(SearchConfig(), author_weight=0.0)) as index:
        first = _ids(index, "What did Maria and John paint?")
        index.config = SearchConfig()
        assert _ids(index, "What did Maria and John paint?") == first


def test_a_question_naming_a_month_prefers_messages_of_that_month(tmp_path: Path) -> None:
    records = [
        record("june", "We repainted the garden fence green, it took all day.", session="a",
               ts="2025-06-14T09:00:00Z"),
        record("march", "We repainted the garden fence white.", session="b", ts="2025-03-08T09:00:00Z"),
    ]
    query = "What did we do to the garden fence in March 2025?"
    with _index(tmp_path, records, FIRST_STAGE) as index:
        assert _ids(index, query, 1) == ["june"]
        index.config = SearchConfig()
        assert _ids(index, query, 1) == ["march"]
        assert _ids(index, "What did we do to the garden fence on 9 March, 2025?", 1) == ["march"]


def test_a_session_that_answers_lifts_its_other_turns(tmp_path: Path) -> None:
    """Two equally weak matches: the one in the session holding the best match ranks above the
    other (without the second stage the earlier message does)."""
    weak = "The contract renews every year in spring."
    records = [
        record("b-weak", weak, session="b", ts="2025-01-01T09:00:00Z"),
        record("b-other", "Lunch was fine, nothing to report.", session="b", ts="2025-01-01T09:01:00Z"),
        record("a-best", "We signed the staging database hosting contract with Hetzner.", session="a",
               ts="2025-01-02T09:00:00Z"),
        record("a-filler", "Coffee machine is broken again.", session="a", ts="2025-01-02T09:01:00Z"),
        record("a-weak", weak, session="a", ts="2025-01-02T09:02:00Z"),
    ]
    query = "Which staging database hosting contract did we sign?"
    with _index(tmp_path, records, FIRST_STAGE) as index:
        first = _ids(index, query)
        assert first[0] == "a-best" and first.index("b-weak") < first.index("a-weak")
        index.config = SearchConfig()
        second = _ids(index, query)
        assert second[0] == "a-best" and second.index("a-weak") < second.index("b-weak")


def test_scores_come_back_from_the_second_stage_in_order(tmp_path: Path) -> None:
    records = [record("john", ADDRESSING), record("maria", OWN)]
    with _index(tmp_path, records) as index:
        hits = index.search("What did Maria paint?", top_k=2)
        assert [h.id for h in hits] == ["maria", "john"]
        assert hits[0].score > hits[1].score


def test_author_of_reads_metadata_then_a_speaker_label() -> None:
    assert author_of("Maria: hello there") == "maria"
    assert author_of("Dr. Ann Lee: the results are in") == "dr ann lee"
    assert author_of("hello", {"speaker": "Jon"}) == "jon"
    assert author_of("Jon: hi", {"author": "Gina"}) == "gina"
    assert author_of("Note: the deploy is at 10:30") == "note"  # a label is a label; unnamed unless asked
    assert author_of("plain text, no label") is None
    assert author_of("at 10: 30 people came") is None


def test_named_periods_reads_days_months_and_years() -> None:
    assert named_periods("on 7 July, 2023?") == [(date(2023, 7, 7), date(2023, 7, 7))]
    assert named_periods("on October 13, 2023") == [(date(2023, 10, 13), date(2023, 10, 13))]
    assert named_periods("since 2024-02-29") == [(date(2024, 2, 29), date(2024, 2, 29))]
    assert named_periods("in December 2023") == [(date(2023, 12, 1), date(2023, 12, 31))]
    assert named_periods("in February 2024") == [(date(2024, 2, 1), date(2024, 2, 29))]
    assert named_periods("beach trips in 2023") == [(date(2023, 1, 1), date(2023, 12, 31))]
    assert named_periods("last week") == []
    assert named_periods("May I ask about the 2023 budget?") == []
    assert named_periods("on 31 February, 2023") == []


def test_rerank_hits_gives_a_row_holding_backend_the_same_second_stage(tmp_path: Path) -> None:
    """What a backend that fetches its candidates' rows calls (PostgreSQL): the same order as the
    SQLite index's, which reads authors and days from its cache."""
    records = [record("john", ADDRESSING, ts="2025-03-01T10:00:00Z"), record("maria", OWN, ts="2025-03-01T10:01:00Z")]
    query = "What did Maria paint?"
    with _index(tmp_path, records, FIRST_STAGE) as index:
        first = index.search(query, top_k=2)
        index.config = SearchConfig()
        second = index.search(query, top_k=2)
    previous = [None if h.id == "john" else [f.id for f in first].index("john") for h in first]  # maria answers john
    again = rerank_hits(query, first, SearchConfig(), 2, previous)
    assert [(h.id, round(h.score, 6)) for h in again] == [(h.id, round(h.score, 6)) for h in second]
    assert [h.id for h in second] != [h.id for h in first]  # the second stage did re-order them


def test_every_backend_runs_the_same_second_stage(make_index: Any) -> None:
    """SQLite, Chroma (through SQLite's path) and PostgreSQL (over the rows it fetched) all lift
    the named speaker's own turn above the turn that only addresses her."""
    index = make_index()
    index.add([record("john", ADDRESSING, ts="2025-03-01T10:00:00Z"), record("maria", OWN, ts="2025-03-01T10:01:00Z")])
    assert [h.id for h in index.search("What did Maria paint?", top_k=1)] == ["maria"]
    assert {h.id for h in index.search("What did Maria paint?", top_k=5)} == {"john", "maria"}


# One session: a question that shares the question's words, its answer (which shares none), a
# statement that shares some, and the reply to that statement; unrelated notes around them.
BAKE_SALE = [
    ("ask", "Which cake did you bake for the school fair?"),
    ("answer", "Lemon drizzle, with poppy seeds on top."),
    ("told", "At the school fair every cake we baked sold out by noon."),
    ("reply", "Glad you enjoyed it, sounds lovely."),
]


def test_the_answer_to_a_matching_question_rises_above_a_statement(make_index: Any) -> None:
    """The turn that matches a question's words is often the one *asking* it; the answer is the
    reply after it. Every backend lifts that reply by a share of the question's score, and only
    a question's reply: the turn after the statement gains nothing."""
    index = make_index()
    index.add([record(i, text, session="s1", ts=f"2025-03-01T10:00:0{n}Z") for n, (i, text) in enumerate(BAKE_SALE)]
              + [record(f"f{i}", f"Note {i}: the garden needs water and the car a service.", session=f"f{i}")
                 for i in range(12)])
    query = "What cake was baked for the school fair?"
    index.config = replace(SearchConfig(), answer_weight=0.0)
    assert [h.id for h in index.search(query, top_k=3)] == ["ask", "told", "answer"]
    index.config = SearchConfig()
    assert [h.id for h in index.search(query, top_k=4)] == ["ask", "answer", "told", "reply"]


def test_only_a_question_lends_its_reply_a_share() -> None:
    candidates = [Candidate(1.0, None, 0, "s", asks=True), Candidate(0.5, None, 0, "s", previous=0),
                  Candidate(0.9, None, 0, "t"), Candidate(0.6, None, 0, "t", previous=2)]
    config = replace(SearchConfig(), author_weight=0.0, date_weight=0.0, session_weight=0.0, answer_weight=0.2)
    assert [(i, round(score, 6)) for i, score in rerank("q", candidates, config, 4)] == [
        (0, 1.0), (2, 0.9), (1, 0.7), (3, 0.6)]
