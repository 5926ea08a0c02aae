"""The lexical half of the PostgreSQL index: ``ts_rank_cd`` over an English ``tsvector``, within
the lexical budget (word counts from the planner's statistics rather than a count of matches)."""

from __future__ import annotations

from typing import Any

from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.text import MAX_QUERY_TERMS, budget_split, content_terms

__all__ = ["TsLexical"]


class TsLexical:
    """Lexical ranking over one messages table (the caller holds the index's lock)."""

    def __init__(self, db: Any, table: str) -> None:
        self._db = db
        self._table = table

    def scores(self, query: str, config: SearchConfig, where: str, params: list[Any]) -> dict[int, float]:
        """``ts_rank_cd`` of the best ``3 · candidates`` messages (seq → score), within the lexical budget.

        ``where``/``params`` are filter clauses over the table. What a lexical search costs here
        is reading every matching row from the heap (wide rows: a vector each) and ranking it —
        ~70 ms at 100k when a question holds a common word. So, as on SQLite, the words are split
        by how many messages hold them (:meth:`split`): the rarest, up to ``lexical_budget``
        messages together, choose the rows to rank (a GIN lookup), and every word ranks them.
        Unlike BM25, ``ts_rank_cd`` weighs no word by its rarity, so this is not the unbounded
        top list: messages holding only common words, which it could rank high (two common words
        side by side), are left out — the IDF it lacks. LoCoMo inside 100k distractors measures
        what that does (``bench/locomo_recall.py --backend postgres``). If every word is common,
        the newest ``lexical_budget`` matches are ranked.
        """
        words = content_terms(query, config.stopwords)[:MAX_QUERY_TERMS]
        if not words:
            return {}
        rare, common, window = self.split(words, config.lexical_budget)
        if not rare and not common:
            return {}
        ranked = " or ".join(words)
        limit = config.candidates * 3
        # the queries are parsed once, in FROM: inside the select list they would be parsed per row
        if window:
            sql = f"""SELECT seq, ts_rank_cd(tsv, q) FROM (
                SELECT seq, tsv FROM {self._table}, websearch_to_tsquery('english', %s) c WHERE tsv @@ c{where}
                ORDER BY seq DESC LIMIT {int(window)}) newest, websearch_to_tsquery('english', %s) q
                ORDER BY 2 DESC LIMIT %s"""
            args = [" or ".join(common), *params, ranked, limit]
        else:
            sql = f"""SELECT seq, ts_rank_cd(tsv, q) FROM {self._table},
                websearch_to_tsquery('english', %s) q, websearch_to_tsquery('english', %s) r
                WHERE tsv @@ r{where} ORDER BY 2 DESC LIMIT %s"""
            args = [ranked, " or ".join(rare), *params, limit]
        return {int(r[0]): float(r[1]) for r in self._db.execute(sql, args).fetchall()}

    def split(self, words: list[str], budget: int) -> tuple[list[str], list[str], int]:
        """(rare words, common words, window) for a lexical budget of ``budget`` messages, as
        SQLite splits them.

        Words are rare, rarest first, while their estimated message counts add up to at most the
        budget; the rest are common; if not even the rarest fits, all are common and the window is
        the budget. Every word is rare when nothing would be saved (a small index) or the table
        has no statistics yet (never analyzed: the planner's own estimates are missing too).
        """
        if budget <= 0:
            return words, [], 0
        frequency = self.document_frequencies(words, budget)
        if frequency is None:
            return words, [], 0
        return budget_split(words, frequency, budget)

    def document_frequencies(self, words: list[str], budget: int) -> dict[str, float] | None:
        """Estimated messages holding each word, from the planner's statistics (one catalog read).

        ``ANALYZE`` keeps the ~1,000 most common lexemes of ``tsv`` with their frequencies
        (``pg_stats.most_common_elems``); a lexeme not among them is rarer than the rarest listed,
        so it is counted at that bound. Counting matches for real would read the heap — the cost
        this budget exists to avoid. A word is as rare as its rarest lexeme (PostgreSQL stems
        and splits it as ``to_tsvector`` does; a stopword has none and matches nothing: 0).
        ``None`` when the table has no statistics, or when every word in every message would
        fit the budget anyway.
        """
        row = self._db.execute(
            """SELECT c.reltuples, s.most_common_elems::text::text[], s.most_common_elem_freqs::text::real[]
            FROM pg_class c LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = %s
                AND s.attname = 'tsv'
            WHERE c.oid = %s::regclass""",
            (self._table, self._table),
        ).fetchone()
        if row is None or row[1] is None or row[0] * len(words) <= budget:
            return None
        size, elements, frequencies = float(row[0]), list(row[1]), list(row[2])
        common = dict(zip(elements, frequencies, strict=False))  # freqs end with min, max and null share
        floor = min(frequencies[: len(elements)])
        lexemes = self._db.execute(
            """SELECT u.i, x.lexeme FROM unnest(%s::text[]) WITH ORDINALITY u(w, i),
                LATERAL unnest(to_tsvector('english', u.w)) x""",
            (words,),
        ).fetchall()
        estimate: dict[str, float] = dict.fromkeys(words, 0.0)
        for i, lexeme in lexemes:
            word = words[int(i) - 1]
            count = size * common.get(lexeme, floor)
            estimate[word] = count if estimate[word] == 0.0 else min(estimate[word], count)
        return estimate
