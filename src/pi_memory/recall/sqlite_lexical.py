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
from pi_memory.recall.text import MAX_QUERY_TERMS, budget_split, content_terms, fts_match

__all__ = ["FtsLexical"]


class FtsLexical:
    """BM25 scoring over one connection's ``messages_fts`` (the caller holds the index's lock)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._scratch = False  # the temp tables of document_frequencies exist

    def scores(self, query: str, config: SearchConfig, size: int, where: str, params: list[Any]) -> dict[int, float]:
        """BM25 of the best ``3 · candidates`` messages (seq → score) among ``size`` messages.

        ``where``/``params`` are filter clauses over ``messages m``. Two queries when some words
        are common: BM25 over the rare words, and BM25 over all words for the messages that hold
        a rare *and* a common word (an AND that FTS5 evaluates by skipping through the common
        words' postings). A message's full score is the second when it has one, else the first
        (it holds no common word); both lists are already cut to the top ``3 · candidates``,
        which keeps the exact top list because adding words only raises a BM25 score. Messages
        holding only common words are left out — their scores are the lowest anyway. If every
        word is common, the newest ``budget`` matches are scored.
        """
        if config.fusion == "dense":
            return {}
        words = content_terms(query, config.stopwords)[:MAX_QUERY_TERMS]
        rare, common, window = self.split(words, size, config.lexical_budget)
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

    def split(self, words: list[str], size: int, budget: int) -> tuple[list[str], list[str], int]:
        """(rare words, common words, window) for a lexical budget of ``budget`` messages.

        Words are rare, rarest first, while their document counts add up to at most the budget;
        the rest are common. When not even the rarest fits, all are common and the window is the
        budget. Nothing is looked up when every word matching every one of ``size`` messages
        would fit (small indexes: LoCoMo's conversations never reach it).
        """
        if budget <= 0 or size * len(words) <= budget:
            return words, [], 0
        return budget_split(words, self.document_frequencies(words), budget)

    def document_frequencies(self, words: list[str]) -> dict[str, int]:
        """Messages containing each word, as FTS5 tokenizes it (porter stems; a word that splits
        into several tokens is a phrase, counted by its rarest token).

        The words go through a scratch FTS5 table with the same tokenizer (private to this
        connection, in its temp schema), and ``fts5vocab`` reads the counts off the index.
        """
        db = self._db
        if not self._scratch:
            db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_query USING fts5(text, tokenize='porter unicode61')"
            )
            db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_query_tokens USING "
                "fts5vocab(temp, recall_query, instance)"
            )
            db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_vocab USING fts5vocab(main, messages_fts, row)")
            self._scratch = True
        db.execute("DELETE FROM temp.recall_query")
        db.executemany("INSERT INTO temp.recall_query(rowid, text) VALUES (?, ?)", list(enumerate(words)))
        tokens = db.execute("SELECT DISTINCT term, doc FROM temp.recall_query_tokens").fetchall()
        stems = sorted({t for t, _ in tokens})
        marks = ", ".join("?" * len(stems))
        counts = dict(db.execute(f"SELECT term, doc FROM temp.recall_vocab WHERE term IN ({marks})", stems).fetchall())
        frequency: dict[str, int] = {}
        for term, row in tokens:
            word = words[int(row)]
            frequency[word] = min(frequency.get(word, 1 << 62), int(counts.get(term, 0)))
        return frequency
