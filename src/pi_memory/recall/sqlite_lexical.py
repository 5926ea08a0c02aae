"""The lexical half of the SQLite index: BM25 over FTS5, within the lexical budget.

With every query word the top list is one FTS5 query. On a large index, common words make that
expensive (FTS5 scores every message matching any word of the OR), so :meth:`FtsLexical.split`
divides the words into rare and common ones by their document counts, and two cheap queries give
the same top list for every message that holds a rare word (see :meth:`FtsLexical.scores`).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.text import MAX_QUERY_TERMS, budget_split, content_terms, heavy_words, weighted_match

__all__ = ["FtsLexical"]

_STEM_CACHE = 50_000
"""Words whose stems a connection remembers before it starts over (a few MB at most)."""


class FtsLexical:
    """BM25 scoring over one connection's ``messages_fts`` (the caller holds the index's lock)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._scratch = False  # the temp tables of stems and document_frequencies exist
        self._stems: dict[str, frozenset[str]] = {}

    def scores(self, query: str, config: SearchConfig, size: int, where: str, params: list[Any]) -> dict[int, float]:
        """BM25 of the best ``3 · candidates`` messages (seq → score) among ``size`` messages.

        ``where``/``params`` are filter clauses over ``messages m``. Two queries when some words
        are common: BM25 over the rare words, and BM25 over all words for the messages that hold
        a rare *and* a common word (an AND that FTS5 evaluates by skipping through the common
        words' postings). A message's full score is the second when it has one, else the first
        (it holds no common word); both lists are already cut to the top ``3 · candidates``,
        which keeps the exact top list because adding words only raises a BM25 score. Messages
        holding only common words are left out — their scores are the lowest anyway. If every
        word is common, the newest ``budget`` matches are scored. A word few messages hold
        (:func:`~pi_memory.recall.text.heavy_words`) is in the OR ``rare_weight`` times, which
        counts it that many times in BM25 (FTS5 sums over the query's phrases).
        """
        if config.fusion == "dense":
            return {}
        words = self.distinct_stems(content_terms(query, config.stopwords)[:MAX_QUERY_TERMS])
        heavy = config.rare_weight > 1 and config.rare_messages > 0
        frequency = self.document_frequencies(words) if heavy or not self._fits(words, size, config) else None
        rare, common, window = self.split(words, size, config.lexical_budget, frequency)
        repeat = heavy_words(words, frequency or {}, config)

        def fts_match(group: list[str]) -> str | None:
            return weighted_match(group, repeat, config.rare_weight)
        limit = config.candidates * 3
        join = " JOIN messages m ON m.seq = f.rowid" if where else ""
        base = (
            f"SELECT f.rowid AS rowid, -bm25(messages_fts) AS score FROM messages_fts f{join}"
            f" WHERE messages_fts MATCH ?{where}"
        )
        scores: dict[int, float] = {}
        if window:
            newest = f"{base} ORDER BY f.rowid DESC LIMIT {int(window)}"
            sql = f"SELECT rowid, score FROM ({newest}) ORDER BY score DESC LIMIT ?"
            scores = dict(self._db.execute(sql, [fts_match(common), *params, limit]).fetchall())
        elif rare:
            ranked = f"{base} ORDER BY bm25(messages_fts) LIMIT ?"
            scores = dict(self._db.execute(ranked, [fts_match(rare), *params, limit]).fetchall())
            if common:
                both = f"({fts_match(rare)}) AND ({fts_match(common)})"
                scores.update(self._db.execute(ranked, [both, *params, limit]).fetchall())
                scores = dict(sorted(scores.items(), key=lambda item: -item[1])[:limit])
        return scores

    @staticmethod
    def _fits(words: list[str], size: int, config: SearchConfig) -> bool:
        budget = config.lexical_budget
        return budget <= 0 or size * len(words) <= budget

    def split(
        self, words: list[str], size: int, budget: int, frequency: dict[str, int] | None = None
    ) -> tuple[list[str], list[str], int]:
        """(rare words, common words, window) for a lexical budget of ``budget`` messages.

        Words are rare, rarest first, while their document counts add up to at most the budget;
        the rest are common. When not even the rarest fits, all are common and the window is the
        budget. Nothing is looked up when every word matching every one of ``size`` messages
        would fit (small indexes: LoCoMo's conversations never reach it). ``frequency``: the
        words' :meth:`document_frequencies`, when the caller has them.
        """
        if budget <= 0 or size * len(words) <= budget:
            return words, [], 0
        return budget_split(words, frequency or self.document_frequencies(words), budget)

    def distinct_stems(self, words: list[str]) -> list[str]:
        """``words`` without those FTS5 indexes under the stems of an earlier one ("run", "running").

        Why: BM25 sums over the query's phrases, so two words with one stem counted that stem
        twice — a question saying "paint" and "painting" rewarded the one word double, and
        PostgreSQL (whose ``tsquery`` holds each lexeme once) ranked differently. Dropping the
        later word changes no match (the earlier matches the same messages) and counts it once.
        """
        if len(words) < 2:
            return words
        stems = self.stems(words)
        seen: set[frozenset[str]] = set()
        kept = []
        for word in words:
            key = stems[word] or frozenset([word])
            if key not in seen:
                seen.add(key)
                kept.append(word)
        return kept

    def stems(self, words: list[str]) -> dict[str, frozenset[str]]:
        """The tokens FTS5's tokenizer makes of each word (its porter stem; several for a word it
        splits, none for one it drops).

        New words go through a scratch FTS5 table with the same tokenizer (private to this
        connection, in its temp schema), so the stems are FTS5's own, never a re-implementation;
        they are remembered (a history's questions reuse their words).
        """
        new = [w for w in dict.fromkeys(words) if w not in self._stems]
        if new:
            db = self._db
            self._create_scratch()
            db.execute("DELETE FROM temp.recall_query")
            db.executemany("INSERT INTO temp.recall_query(rowid, text) VALUES (?, ?)", list(enumerate(new)))
            found: dict[int, set[str]] = {}
            for term, row in db.execute("SELECT DISTINCT term, doc FROM temp.recall_query_tokens"):
                found.setdefault(int(row), set()).add(str(term))
            if len(self._stems) > _STEM_CACHE:
                self._stems.clear()
            for row, word in enumerate(new):
                self._stems[word] = frozenset(found.get(row, ()))
        return {w: self._stems[w] for w in words}

    def _create_scratch(self) -> None:
        if not self._scratch:
            db = self._db
            db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_query USING fts5(text, tokenize='porter unicode61')"
            )
            db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_query_tokens USING "
                "fts5vocab(temp, recall_query, instance)"
            )
            db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_vocab USING fts5vocab(main, messages_fts, row)")
            self._scratch = True

    def document_frequencies(self, words: list[str]) -> dict[str, int]:
        """Messages containing each word, as FTS5 tokenizes it (porter stems; a word that splits
        into several tokens is a phrase, counted by its rarest token); ``fts5vocab`` reads the
        counts off the index."""
        stems = self.stems(words)
        every = sorted(set().union(*stems.values()))
        marks = ", ".join("?" * len(every))
        sql = f"SELECT term, doc FROM temp.recall_vocab WHERE term IN ({marks})"
        counts = dict(self._db.execute(sql, every).fetchall()) if every else {}
        return {w: min((int(counts.get(t, 0)) for t in stems[w]), default=0) for w in words}
