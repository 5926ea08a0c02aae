"""Query processing and message rendering shared by the lexical halves of every backend.

Why these steps (each measured in ``bench/results/locomo_recall.json``):

* FTS5 treats juxtaposed terms as AND. A question almost never shares *all* its words with the
  message that answers it, so an AND query finds nothing; we OR the content words and let BM25
  rank.
* Question words and stopwords ("what", "did", "the") carry no evidence but still match most
  messages; dropping them keeps BM25 from rewarding long chatty turns.
* A message is often only meaningful with the turn before it ("Yes, last Tuesday!"), so the index
  keeps the neighbouring turns in a separate, down-weighted column (lexical) and blends their
  vectors into the message's own (dense).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_memory.recall.fusion import SearchConfig

__all__ = [
    "MAX_QUERY_TERMS",
    "STOPWORDS",
    "budget_split",
    "content_terms",
    "dense_query",
    "fts_match",
    "fts_query",
    "heavy_words",
    "terms",
    "weighted_match",
]

_WORD = re.compile(r"\w+", re.UNICODE)

STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "aren't",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "don't",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "let",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "s",
        "t",
        "ll",
        "re",
        "ve",
        "d",
        "m",
        "o",
        "y",
        "also",
        "ever",
        "kind",
        "like",
        "might",
        "must",
        "shall",
        "may",
        "get",
        "got",
        "go",
        "going",
        "went",
        "tell",
        "told",
        "say",
        "said",
        "much",
        "many",
    ]
)
"""English function words. Only the query is filtered; the index keeps every word (phrase lookups
and other languages still work)."""


def terms(text: str) -> list[str]:
    """Lower-cased word tokens the way FTS5's ``unicode61`` tokenizer sees them (diacritics folded)."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return _WORD.findall(folded)


def content_terms(text: str, drop_stopwords: bool = True) -> list[str]:
    """Distinct non-stopword terms in order; all distinct terms if the text is only stopwords."""
    words = list(dict.fromkeys(terms(text)))
    kept = [w for w in words if w not in STOPWORDS] if drop_stopwords else words
    return kept or words


MAX_QUERY_TERMS = 64


def fts_match(words: list[str]) -> str | None:
    """An FTS5 MATCH expression that ORs ``words`` (each quoted, so no term can be read as an
    operator or column filter). ``None`` for no words."""
    if not words:
        return None
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in words[:MAX_QUERY_TERMS])


def weighted_match(words: list[str], repeat: Collection[str], times: int) -> str | None:
    """:func:`fts_match` with each word of ``repeat`` in it ``times`` times: FTS5's BM25 sums
    over the query's phrases, so that is the word's weight (``times`` = 1: plain OR)."""
    if not words:
        return None
    words = words[:MAX_QUERY_TERMS]
    return fts_match(words) if times <= 1 or not repeat else " OR ".join(
        '"' + w.replace('"', '""') + '"' for w in words for _ in range(times if w in repeat else 1)
    )


def heavy_words(words: list[str], frequency: Mapping[str, float], config: SearchConfig) -> set[str]:
    """The words BM25 counts ``config.rare_weight`` times: held by at most ``config.rare_messages``
    messages of the whole index (and by at least one).

    Why: BM25 adds up the words' weights, so a message holding two middling words of the
    question ("meeting", "Maria") outranks the one holding the word only a handful of messages
    hold ("Jean"), the one that singles out what the question is about. A count, not a share of
    the index: in a large history a word in 2% of the messages is in thousands, no clue at all,
    and boosting it cost recall (measured inside 100,000 messages). Counting the word twice is
    the weight FTS5 can be given (its ``bm25()`` takes no per-word weights, and repeating a
    word in the OR counts it again). Both lexical indexes use it.
    """
    if config.rare_weight <= 1 or config.rare_messages <= 0:
        return set()
    return {w for w in words if 0 < frequency.get(w, 0) <= config.rare_messages}


def fts_query(text: str, drop_stopwords: bool = True) -> str | None:
    """:func:`fts_match` of the query's content terms; ``None`` when nothing searchable is left."""
    return fts_match(content_terms(text, drop_stopwords))


def dense_query(text: str, config: SearchConfig) -> str:
    """The text the query vector is made of (the question itself unless configured otherwise)."""
    if not config.dense_stopwords:
        return text
    return " ".join(content_terms(text))


def budget_split(words: list[str], frequency: Mapping[str, float], budget: int) -> tuple[list[str], list[str], int]:
    """``(rare, common, window)`` words of a query for a lexical budget of ``budget`` messages.

    Words are rare, rarest first, while their message counts (``frequency``) add up to at most
    the budget; the rest are common and only re-rank. When not even the rarest fits, all are
    common and the window is the budget (rank the newest that many matches). Words absent from
    ``frequency`` match nothing and are dropped. Both lexical indexes use it, so they agree.
    """
    present = sorted((w for w in words if frequency.get(w, 0) > 0), key=lambda w: frequency[w])
    if present and frequency[present[0]] > budget:
        return [], present, budget
    total = 0.0
    for n, word in enumerate(present):
        if total + frequency[word] > budget:
            return present[:n], present[n:], 0
        total += frequency[word]
    return present, [], 0
