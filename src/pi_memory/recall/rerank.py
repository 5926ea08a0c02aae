"""The second stage every backend's search ends with: the fused top list re-ordered by who wrote
a message, when, and which session it belongs to.

The first stage (BM25 + dense + neighbour smoothing + fusion) scores text against text. Three
things a question carries are not text matches:

* **The author.** "What did Melanie paint?" names a person; BM25 sees ``melanie`` as one common
  word, and it is in every turn that *addresses* her ("Wow, Melanie!") as much as in her own.
  A message whose author the question names gets a share of the list's best score. The author
  is the record's ``metadata`` (``author``, ``speaker`` or ``name``), or the speaker label of a
  transcript line (``Melanie: …``, the way chat logs, meeting notes and quoted conversations are
  written). A question naming every author in the list is left as it was.
* **Dates.** "What did Maria donate in December 2023?" or "… on 7 July, 2023" names a day, a
  month or a year; the words ``december`` and ``2023`` rarely appear in the message that answers
  it, but its timestamp does lie in (or just after) that period. Messages whose timestamp falls
  in the named period, widened by a few days either side (an event is often talked about days
  later, "last weekend we…"), get a share of the best score. Relative dates ("last week") are
  left alone: without knowing when the question is asked they name no period.
* **The session.** An answer is a stretch of conversation: the question before the best turn,
  the reply after it, the detail two turns on. Every candidate gains a share of the best score
  in its session, so a session that answers lifts all its turns.

The boosts re-order the first ``rerank_depth`` candidates and never bring in a message the first
stage did not find. Each is measured on LoCoMo in ``bench/results/locomo_recall.json`` (tuning
and held-out questions); the weights are round values from a small grid on the tuning part. A
fourth, the reply lift (a share of the previous turn's score), helped only the tuning part and
is off.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Any

from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.text import terms
from pi_memory.recall.types import Hit

__all__ = [
    "Candidate",
    "asks",
    "author_of",
    "day_of",
    "named_periods",
    "previous_indices",
    "rerank",
    "rerank_hits",
    "reranks",
]

_SPEAKER = re.compile(r"^\s*([^\W\d_][\w'.-]*(?: [^\W\d_][\w'.-]*){0,2}):\s", re.UNICODE)
"""A transcript line's speaker label: one to three words, then a colon and a space."""
_AUTHOR_KEYS = ("author", "speaker", "name")

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_YEAR = r"(?:19|20)\d\d"
_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH})\.?,?\s+({_YEAR})\b", re.IGNORECASE)
_MONTH_DAY_YEAR = re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+({_YEAR})\b", re.IGNORECASE)
_ISO_DAY = re.compile(rf"\b({_YEAR})-(\d\d)-(\d\d)\b")
_MONTH_YEAR = re.compile(rf"\b({_MONTH})\.?,?\s+(?:of\s+)?({_YEAR})\b", re.IGNORECASE)
_LONE_YEAR = re.compile(rf"\b(?:in|of|during|since)\s+({_YEAR})\b", re.IGNORECASE)


def author_of(text: str, metadata: Mapping[str, Any] | None = None) -> str | None:
    """Who wrote a message, lower-cased: the metadata's ``author``/``speaker``/``name``, else the
    speaker label a transcript line opens with (``Name: …``); None when neither says."""
    for key in _AUTHOR_KEYS:
        value = (metadata or {}).get(key)
        if isinstance(value, str) and value.strip():
            return _name(value)
    match = _SPEAKER.match(text)
    return _name(match.group(1)) if match else None


@functools.lru_cache(maxsize=4096)
def _name(label: str) -> str | None:
    """A name as question words compare to it (a history has few authors: cached)."""
    return " ".join(terms(label)) or None


def _valid_day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _month_end(year: int, month: int) -> date:
    return (date(year + month // 12, month % 12 + 1, 1)) - timedelta(days=1)


def named_periods(query: str) -> list[tuple[date, date]]:
    """The absolute periods a question names, as inclusive ``(first day, last day)``: a day
    (``7 July, 2023``, ``July 7, 2023``, ``2023-07-07``), a month (``December 2023``) or a year
    (``in 2022``). A day inside a named month is not counted twice."""
    periods: list[tuple[date, date]] = []
    taken: list[tuple[int, int]] = []

    def free(span: tuple[int, int]) -> bool:
        return not any(a < span[1] and span[0] < b for a, b in taken)

    for pattern, order in ((_DAY_MONTH_YEAR, "dmy"), (_MONTH_DAY_YEAR, "mdy"), (_ISO_DAY, "iso")):
        for m in pattern.finditer(query):
            if not free(m.span()):
                continue
            if order == "dmy":
                day = _valid_day(int(m.group(3)), _MONTHS[m.group(2).lower()], int(m.group(1)))
            elif order == "mdy":
                day = _valid_day(int(m.group(3)), _MONTHS[m.group(1).lower()], int(m.group(2)))
            else:
                day = _valid_day(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            taken.append(m.span())  # an impossible day (31 February) names no period at all
            if day is not None:
                periods.append((day, day))
    for m in _MONTH_YEAR.finditer(query):
        if free(m.span()):
            year, month = int(m.group(2)), _MONTHS[m.group(1).lower()]
            periods.append((date(year, month, 1), _month_end(year, month)))
            taken.append(m.span())
    for m in _LONE_YEAR.finditer(query):
        if free(m.span()):
            year = int(m.group(1))
            periods.append((date(year, 1, 1), date(year, 12, 31)))
            taken.append(m.span())
    return periods


def day_of(timestamp: str) -> int:
    """A timestamp's day as a proleptic ordinal (``date.toordinal``); 0 when it is not ISO."""
    try:
        return datetime.fromisoformat(timestamp.replace("Z", "+00:00")).date().toordinal()
    except ValueError:
        return 0


def _named_authors(query: str, authors: set[str]) -> set[str]:
    """The authors (of the candidates) whose every name word is a word of the question."""
    asked = set(terms(query))
    return {a for a in authors if set(a.split()) <= asked}


@dataclass(frozen=True)
class Candidate:
    """What the second stage reads of one first-stage result (a backend keeps these per row, so
    re-ranking reads no text: :class:`~pi_memory.recall.hybrid.VectorCache` holds them in memory)."""

    score: float
    author: str | None
    """:func:`author_of` the message."""
    day: int
    """:func:`day_of` its timestamp (0: unknown)."""
    session: Hashable
    previous: int | None = None
    """Index (among the candidates) of the turn before it in its session, if that is one of them."""
    asks: bool = False
    """Whether the message asks a question (:func:`asks`)."""


def rerank(query: str, candidates: Sequence[Candidate], config: SearchConfig, top_k: int) -> list[tuple[int, float]]:
    """The best ``top_k`` of a backend's first-stage candidates (best first, ``config.rerank_depth``
    of them) after the second stage: ``(index into candidates, new score)``, best first.

    A named author's messages gain ``author_weight × best``; a message dated inside a named
    period (± ``date_slack_days``) gains ``date_weight × best``; then every candidate gains
    ``session_weight ×`` the best score in its session, ``reply_weight ×`` its previous
    turn's, and ``answer_weight ×`` its previous turn's when that turn asks a question. The
    author boost is skipped when the question names every author present (it would lift
    everything alike). With every weight 0 the order is the first stage's.
    """
    scores = [c.score for c in candidates]
    if candidates and reranks(config):
        best = max(scores)
        scale = best if best > 0 else 1.0
        if config.author_weight:
            present = {c.author for c in candidates if c.author}
            named = _named_authors(query, present)
            if named and named != present:
                for i, c in enumerate(candidates):
                    if c.author in named:
                        scores[i] += config.author_weight * scale
        if config.date_weight:
            slack = config.date_slack_days
            periods = [(first.toordinal() - slack, last.toordinal() + slack) for first, last in named_periods(query)]
            for i, c in enumerate(candidates):
                if c.day and any(first <= c.day <= last for first, last in periods):
                    scores[i] += config.date_weight * scale
        if config.session_weight:
            best_in: dict[Hashable, float] = {}
            for c, score in zip(candidates, scores, strict=True):
                best_in[c.session] = max(best_in.get(c.session, score), score)
            scores = [s + config.session_weight * best_in[c.session] for c, s in zip(candidates, scores, strict=True)]
        if config.reply_weight or config.answer_weight:
            before = list(scores)
            for i, c in enumerate(candidates):
                if c.previous is not None:
                    lift = config.reply_weight + (config.answer_weight if candidates[c.previous].asks else 0.0)
                    scores[i] += lift * before[c.previous]
    order = sorted(range(len(candidates)), key=lambda i: -scores[i])[:top_k]
    return [(i, scores[i]) for i in order]


def rerank_hits(
    query: str, hits: Sequence[Hit], config: SearchConfig, top_k: int, previous: Sequence[int | None] | None = None
) -> list[Hit]:
    """:func:`rerank` for a backend that has the candidates' rows (text, timestamp, metadata) at
    hand, as :class:`Hit` s best first; each keeps its fields, ``score`` becomes the new one.
    ``previous[i]``: the index (in ``hits``) of hit ``i``'s previous turn, when it is one of them."""
    candidates = [
        Candidate(
            h.score,
            author_of(h.text, h.metadata),
            day_of(h.timestamp),
            h.session_id,
            previous[i] if previous is not None else None,
            asks(h.text),
        )
        for i, h in enumerate(hits)
    ]
    return [replace(hits[i], score=score) for i, score in rerank(query, candidates, config, top_k)]


def previous_indices(keys: Sequence[Hashable], previous_of: Mapping[Hashable, Hashable | None]) -> list[int | None]:
    """For :func:`rerank_hits`: the index (in ``keys``) of each key's previous turn, when that is
    one of ``keys`` (``previous_of``: a row's key → the key of the turn before it in its session)."""
    where = {key: i for i, key in enumerate(keys)}
    return [where.get(previous_of.get(key)) for key in keys]


def reranks(config: SearchConfig) -> bool:
    """Whether ``config`` turns the second stage on (a backend then fetches ``rerank_depth`` rows)."""
    return bool(
        config.author_weight or config.date_weight or config.session_weight or config.reply_weight
        or config.answer_weight
    )


def asks(text: str) -> bool:
    """Whether a message asks a question: it holds a question mark (SQLite's cache computes the
    same in SQL, ``instr(text, '?') > 0``)."""
    return "?" in text
