"""A PostgreSQL search's candidates in one statement: the BM25 top list, the HNSW top list, and
each candidate's neighbours in its session with the cosines smoothing needs.

Why one statement: each round trip on a busy 2-core machine costs a wake-up of the server and
of the client, not just the query (lexical, ``SET LOCAL hnsw.ef_search`` inside a transaction,
dense, neighbours were seven round trips; p95 44 ms at 100k messages). Why the shape:

* The session of each candidate comes with its row (the lexical and dense scans read the row
  anyway), so the neighbour lookups start from it instead of fetching every candidate again by
  its primary key.
* The previous and next message are read two at a time from the ``(session_id, seq)`` index
  (one descent gives the neighbour and the one beyond, which a lexical hit's neighbours need for
  their own smoothing), touching only that index, not the rows: an index-only scan.
* A vector is read only for the neighbours of a dense candidate, the only ones whose cosine is
  used (a lexical candidate's neighbours lend it only their BM25 scores).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

__all__ = ["Candidates", "candidates_sql", "read_candidates"]


@dataclass(frozen=True)
class Candidates:
    """What fusion needs: ``lexical`` (seq → BM25, best first), ``dense`` (seq → cosine, nearest
    first), ``neighbours`` (seq → previous and next seq in its session) and ``cosines`` (the dense
    candidates' and their neighbours')."""

    lexical: dict[int, float]
    dense: dict[int, float]
    neighbours: dict[int, tuple[int | None, int | None]]
    cosines: dict[int, float]


def _side(table: str, alias: str, op: str, order: str, near: str, far: str) -> str:
    """The message next to ``m`` in its session on one side, and the one beyond it."""
    return (f"CROSS JOIN LATERAL (SELECT {near}(y.seq) AS near, CASE WHEN count(*) = 2 THEN {far}(y.seq) END AS far"
            f" FROM (SELECT x.seq FROM {table} x WHERE x.session_id = m.session_id AND x.seq {op} m.seq"
            f" ORDER BY x.seq {order} LIMIT 2) y) {alias}")


def candidates_sql(table: str, lexical: str | None, dense: bool, where: str) -> str:
    """The statement: ``lexical`` is :meth:`TsLexical.statement`'s SQL (``None``: no lexical
    half), ``dense`` adds the nearest ``%s`` rows to the vector (``where``: the filter clauses).
    Rows ``(seq, bm25, cosine, dense rank, previous, before it, next, after it, previous's
    cosine, next's cosine)`` in ``seq`` order; parameters in order: the lexical statement's, then
    (when ``dense``) vector, filters, vector, count, vector, vector."""
    parts, halves = [], []
    if lexical is not None:
        parts.append(f"lex AS MATERIALIZED ({lexical})")
        halves.append("SELECT seq, session_id, score, NULL::float8 AS cosine, NULL::bigint AS rank FROM lex")
    if dense:
        # ranked in the order the index returns them (nearest first), ties included
        parts.append(f"ann AS MATERIALIZED (SELECT seq, session_id, 1 - (embedding <=> %s) AS cosine FROM {table}"
                     f" WHERE true{where} ORDER BY embedding <=> %s LIMIT %s)")
        halves.append("SELECT seq, session_id, NULL::float8 AS score, cosine, row_number() OVER () AS rank FROM ann")
    union = " UNION ALL ".join(halves)
    parts.append(f"m AS (SELECT seq, session_id, max(score) AS score, max(cosine) AS cosine, max(rank) AS rank"
                 f" FROM ({union}) u GROUP BY seq, session_id)")
    columns = "m.seq, m.score, m.cosine, m.rank, p.near, p.far, n.near, n.far"
    joins = f"{_side(table, 'p', '<', 'DESC', 'max', 'min')} {_side(table, 'n', '>', '', 'min', 'max')}"
    if dense:  # a CASE, not a join filter: only a dense candidate's neighbours read their row
        columns += "".join(f", CASE WHEN m.rank IS NOT NULL THEN (SELECT 1 - (x.embedding <=> %s) FROM {table} x"
                           f" WHERE x.seq = {side}.near) END" for side in ("p", "n"))
    else:
        columns += ", NULL::float8, NULL::float8"
    return f"WITH {', '.join(parts)} SELECT {columns} FROM m {joins} ORDER BY m.seq"


def read_candidates(
    db: Any,
    table: str,
    lexical: tuple[str, list[Any]] | None,
    dense: tuple[Any, int] | None,
    where: str,
    params: list[Any],
    reach_lexical: bool,
) -> Candidates:
    """Run :func:`candidates_sql`: ``lexical`` is the BM25 statement and its parameters, ``dense``
    the query vector and the number of nearest rows; ``reach_lexical`` also gives each lexical
    hit's neighbours their own neighbours (the hit lends its score to its reply, which then
    needs the message after it for its own smoothing)."""
    if lexical is None and dense is None:
        return Candidates({}, {}, {}, {})
    args: list[Any] = list(lexical[1]) if lexical else []
    if dense is not None:
        vector, count = dense
        args += [vector, *params, vector, count, vector, vector]
    sql = candidates_sql(table, lexical[0] if lexical else None, dense is not None, where)
    rows = db.execute(sql, args).fetchall()
    # the lexical statement's order (best first, ties: the newer first) and the ANN's (nearest first)
    bm25 = sorted(((int(r[0]), float(r[1])) for r in rows if r[1] is not None), key=lambda x: (-x[1], -x[0]))
    # a stored zero vector (a text of no known word) has a NaN cosine with everything: never a candidate
    nearest = sorted((int(r[3]), int(r[0]), float(r[2])) for r in rows if r[3] is not None and math.isfinite(r[2]))
    lexical_scores = dict(bm25)
    dense_scores = {seq: cosine for _, seq, cosine in nearest}
    cosines = dict(dense_scores)
    reach = lexical_scores if reach_lexical else {}
    neighbours: dict[int, tuple[int | None, int | None]] = {}
    second: dict[int, tuple[int | None, int | None]] = {}
    for seq, _, _, _, prev, before_prev, nxt, after_next, prev_cosine, next_cosine in rows:
        neighbours[seq] = (prev, nxt)
        if seq in reach:  # the step beyond: the reply's next message, the question's previous one
            steps = ((prev, (before_prev, seq)), (nxt, (seq, after_next)))
            second.update({int(o): two for o, two in steps if o is not None})
        for other, cosine in ((prev, prev_cosine), (nxt, next_cosine)):
            if other is not None and cosine is not None and math.isfinite(cosine):
                cosines.setdefault(int(other), float(cosine))
    return Candidates(lexical_scores, dense_scores, {**second, **neighbours}, cosines)
