"""The lexical half of the PostgreSQL index: BM25 over an English ``tsvector``, within the lexical
budget — the same ranking function as SQLite's FTS5, from statistics the server keeps exact
(:mod:`.postgres_terms`).

Why BM25 and not ``ts_rank_cd``: ``ts_rank_cd`` weighs no word by its rarity and no message by
its length, so a question's common word ("Caroline", "time") counts as much as the word that
finds the answer, and a long chatty turn outranks a short one with the same match. On the LoCoMo
development conversations that cost eight points of R@5 against SQLite (54.9 vs 63.2).

What is the same as FTS5's ``bm25()``: ``k1 = 1.2``, ``b = 0.75``, the IDF
``ln((N − n + 0.5) / (n + 0.5))`` floored at 1e-6, a term's frequency counted in the message, the
length against the average, every message of the table counted (filters do not change the
statistics). What differs: a message's length is its number of distinct words (FTS5: its tokens;
the same unless a word repeats — counting tokens would unnest every candidate, see
:mod:`.postgres_terms`); and, because PostgreSQL's parser is not FTS5's, words are stemmed by the
English Snowball stemmer (FTS5: Porter — nearly always the same stem), PostgreSQL's English
stopwords are not in the ``tsvector`` (nor in a length), a query word PostgreSQL splits in two
(``foo_bar``) scores as two words, not as a phrase. Two query words with one stem ("run",
"running") count once on both (SQLite keeps the first of them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from pi_memory.recall.fusion import SearchConfig
from pi_memory.recall.postgres_terms import TERMS_SUFFIX
from pi_memory.recall.text import MAX_QUERY_TERMS, budget_split, content_terms, heavy_words

__all__ = ["K1", "B", "Statistics", "TsLexical", "idf"]

K1 = 1.2
B = 0.75
"""FTS5's ``bm25()`` defaults (and the usual ones)."""


def idf(messages: int, holding: int) -> float:
    """FTS5's inverse document frequency: ``ln((N − n + 0.5) / (n + 0.5))``, at least 1e-6 (a word
    in more than half the messages still counts a little, never against a message)."""
    value = math.log((messages - holding + 0.5) / (holding + 0.5))
    return value if value > 0 else 1e-6


@dataclass(frozen=True)
class Statistics:
    """A query's words against the index: ``lexemes[word]`` (the stems PostgreSQL indexes it
    under), ``docs[lexeme]`` (messages holding it), the number of messages and their average length."""

    lexemes: dict[str, list[str]]
    docs: dict[str, int]
    messages: int
    average_length: float
    newest: int = 0
    """The highest ``seq`` of the table (0 when empty)."""

    def frequency(self, word: str) -> int:
        """Messages holding ``word``: those of its rarest lexeme (a stopword has none: 0)."""
        return min((self.docs.get(lexeme, 0) for lexeme in self.lexemes.get(word, [])), default=0)


class TsLexical:
    """BM25 ranking over one messages table (the caller holds the index's lock)."""

    def __init__(self, db: Any, table: str) -> None:
        self._db = db
        self._table = table
        self._terms = f"{table}{TERMS_SUFFIX}"

    def scores(self, query: str, config: SearchConfig, where: str, params: list[Any]) -> dict[int, float]:
        """BM25 of the best ``3 · candidates`` messages (seq → score, higher is better; see
        :meth:`statement`)."""
        planned = self.statement(query, config, where, params)
        if planned is None:
            return {}
        return {int(r[0]): float(r[2]) for r in self._db.execute(*planned).fetchall()}

    def statement(
        self, query: str, config: SearchConfig, where: str, params: list[Any]
    ) -> tuple[str, list[Any]] | None:
        """The SQL (and its parameters) ranking the best ``3 · candidates`` messages by BM25:
        rows ``(seq, session_id, score)``, best first (ties: the newer first); ``None`` when no
        word of the query can match. The search runs it inside its one candidates statement
        (:mod:`.postgres_candidates`); the session is read with the row, for the neighbours.

        ``where``/``params`` are filter clauses over the table. The words are split by how many
        messages hold them, as on SQLite (:meth:`split`): the messages holding a rare word (up to
        ``lexical_budget`` together, found through the GIN index) are scored by every word of the
        question — the exact BM25 top list among them, since a common word only adds to a score.
        Messages holding only common words are left out: their scores are the lowest anyway, and
        reading them (each row carries its vector) was most of a 100k search. If every word is
        common, the newest ``lexical_budget`` matches are scored. One round trip (the statistics).
        """
        words = content_terms(query, config.stopwords)[:MAX_QUERY_TERMS]
        if not words:
            return None
        stats = self.statistics(words)
        if stats is None or stats.messages == 0:
            return None
        rare, common, window = self.split(words, config.lexical_budget, stats)
        heavy = heavy_words(words, {w: stats.frequency(w) for w in words}, config)
        weights = {lexeme: idf(stats.messages, stats.docs[lexeme]) * (config.rare_weight if word in heavy else 1)
                   for word in rare + common for lexeme in stats.lexemes[word] if stats.docs.get(lexeme)}
        if not weights:
            return None
        chosen = " or ".join(common if window else rare)
        matches, args = self._matches(chosen, where, params, window, stats, common)
        average = max(stats.average_length, 1e-9)
        # Each candidate's tsvector is cut down to the query's lexemes in C (marked with weight A,
        # the others keep D, then filtered) before it is unnested for their frequencies: a whole
        # unnest per candidate cost twice the rest of the search. Its length is its header's.
        lexemes = list(weights)
        sql = f"""WITH {matches}
            SELECT c.seq, c.session_id, sum(w.idf * f.tf * {K1 + 1}
                / (f.tf + {K1} * (1 - {B} + {B} * length(c.tsv) / {average!r}))) AS score
            FROM c CROSS JOIN LATERAL (
                SELECT lexeme, coalesce(array_length(positions, 1), 1) AS tf
                FROM unnest(ts_filter(setweight(c.tsv, 'A', %s::text[]), '{{a}}'))) f
            JOIN unnest(%s::text[], %s::float8[]) w(lexeme, idf) ON w.lexeme = f.lexeme
            GROUP BY c.seq, c.session_id ORDER BY 3 DESC, 1 DESC LIMIT %s"""
        return sql, [*args, lexemes, lexemes, list(weights.values()), config.candidates * 3]

    def _matches(
        self, chosen: str, where: str, params: list[Any], window: int, stats: Statistics, common: list[str]
    ) -> tuple[str, list[Any]]:
        """The CTE ``c`` of the messages to score (and its parameters): every match of ``chosen``,
        or with a ``window`` the newest ``window`` of them.

        The newest matches of common words were found by walking the primary key down from the
        newest message, reading every row until enough matched: 20–40k rows at 100k messages
        (5% of the questions; 25–40 ms, the slowest of all). Now the rows above a floor where
        about 1.25 × ``window`` matches are expected (from the words' counts) come from the GIN
        and primary-key indexes together, reading only the matching rows; the older ones are
        read only when the floor held too few — the same messages either way.
        """
        match = f"FROM {self._table}, websearch_to_tsquery('english', %s) q WHERE tsv @@ q{where}"
        if not window:
            return f"c AS MATERIALIZED (SELECT seq, session_id, tsv {match})", [chosen, *params]
        missing = 1.0
        for word in common:  # the share of messages holding none of the words, as if independent
            missing *= 1 - min(1.0, stats.frequency(word) / stats.messages)
        floor = stats.newest - math.ceil(1.25 * window / max(1 - missing, 1e-9))
        if floor <= 0:
            return (f"c AS MATERIALIZED (SELECT seq, session_id, tsv {match} ORDER BY seq DESC LIMIT {window:d})",
                    [chosen, *params])
        sql = f"""r AS MATERIALIZED (SELECT seq, session_id, tsv {match} AND seq > {floor:d}),
            c AS MATERIALIZED ((SELECT * FROM r ORDER BY seq DESC LIMIT {window:d}) UNION ALL
                (SELECT seq, session_id, tsv {match} AND seq <= {floor:d} AND (SELECT count(*) FROM r) < {window:d}
                 ORDER BY seq DESC LIMIT greatest(0, {window:d} - (SELECT count(*) FROM r))))"""
        return sql, [chosen, *params, chosen, *params]

    def split(self, words: list[str], budget: int, stats: Statistics | None = None) -> tuple[list[str], list[str], int]:
        """(rare words, common words, window) for a lexical budget of ``budget`` messages, as
        SQLite splits them (:func:`~pi_memory.recall.text.budget_split`), from the exact counts.

        Every word that matches anything is rare when nothing would be saved (a small index:
        every word in every message would still fit the budget).
        """
        stats = stats or self.statistics(words)
        if stats is None:
            return [], [], 0
        frequency = {word: float(stats.frequency(word)) for word in words}
        if budget <= 0 or stats.messages * len(words) <= budget:
            return [w for w in words if frequency[w] > 0], [], 0
        return budget_split(words, frequency, budget)

    def document_frequencies(self, words: list[str]) -> dict[str, int]:
        """Messages holding each word (as PostgreSQL stems it; by its rarest lexeme), exact."""
        stats = self.statistics(words)
        return {word: stats.frequency(word) if stats else 0 for word in words}

    def statistics(self, words: list[str]) -> Statistics | None:
        """The words' lexemes, their message counts, the index's size and average length: one
        round trip (``None`` when the table has no statistics yet — no messages table), with the
        newest ``seq`` (where the newest matches of common words start)."""
        rows = self._db.execute(
            f"""SELECT 0, '', docs, tokens, (SELECT coalesce(max(seq), 0) FROM {self._table}) FROM {self._terms}
                WHERE term = ''
            UNION ALL
            SELECT u.i, x.lexeme, coalesce(t.docs, 0), 0, 0 FROM unnest(%s::text[]) WITH ORDINALITY u(w, i)
                CROSS JOIN LATERAL unnest(to_tsvector('english', u.w)) x
                LEFT JOIN {self._terms} t ON t.term = x.lexeme""",
            (words,),
        ).fetchall()
        if not rows or rows[0][0] != 0:
            return None
        messages, tokens = int(rows[0][2]), int(rows[0][3])
        lexemes: dict[str, list[str]] = {word: [] for word in words}
        docs: dict[str, int] = {}
        for i, lexeme, count, _, _ in rows[1:]:
            lexemes[words[int(i) - 1]].append(str(lexeme))
            docs[str(lexeme)] = int(count)
        return Statistics(lexemes, docs, messages, tokens / messages if messages else 0.0, int(rows[0][4]))
