"""The word statistics BM25 needs on PostgreSQL, kept by the server in step with the messages.

BM25 weighs a word by how few messages hold it (its document frequency) and a message by its
length against the average. PostgreSQL's full-text search keeps neither where a query can read
it cheaply: ``ts_stat`` computes the counts by reading every ``tsvector`` of the table (about a
second at 100k messages, measured — per query), and the planner's ``most_common_elems`` are a
sample of the ~1,000 most common words only. So each messages table gets a companion table,
``<table>_terms(term, docs, tokens)``: one row per lexeme (messages holding it, its occurrences),
and one row under the empty term (no lexeme is empty) holding the number of messages and their
total length. A message's length is its number of distinct lexemes (``length(tsv)``, read from
the ``tsvector``'s header): counting its tokens means unnesting every candidate's ``tsvector`` at
query time, which measured about twice the cost of the rest of the lexical search at 100k.

A statement-level trigger on the messages table keeps it exact: every ``INSERT``, ``DELETE`` and
``UPDATE`` (an upsert that changes a text) adds the new rows' lexemes and subtracts the old ones',
in the same transaction as the rows — so a rolled-back write leaves no trace and a process that
bypasses pi-memory (plain SQL, an older pi-memory of the fleet) keeps the counts right too. Each
statement's changes are applied in one upsert sorted by term, the empty term first: every writer
takes that one row's lock before any other, so concurrent writers queue on it instead of
deadlocking on each other's terms. A table made by an older pi-memory has no companion yet;
:func:`create_term_counts` builds it from the stored rows under a table lock (writers wait,
searches go on), reporting progress for a large table.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

__all__ = ["MIGRATION_CHUNK", "TERMS_SUFFIX", "create_term_counts", "drop_term_counts", "has_term_counts",
           "report_to_stderr", "term_counts_probe"]

TERMS_SUFFIX = "_terms"
MIGRATION_CHUNK = 10_000
"""Messages counted per step when an existing table gets its statistics (a progress report each)."""
_LARGE = 2 * MIGRATION_CHUNK
"""Below this many messages the migration takes well under a second and reports nothing by default."""


def _names(table: str) -> tuple[str, str, str]:
    """The companion table, its apply function and the trigger function of messages ``table``."""
    return f"{table}{TERMS_SUFFIX}", f"{table}_terms_apply", f"{table}_terms_trigger"


def term_counts_probe(table: str) -> tuple[str, tuple[str, str]]:
    """A scalar SQL expression (and its parameters) that is ``'3'`` when ``table`` has its three
    triggers — and so its statistics: both are made in one transaction, and a table re-created
    by an older pi-memory has neither. Searches read it in the round trip they start with."""
    return ("(SELECT count(*)::text FROM pg_trigger WHERE tgrelid = to_regclass(%s) AND tgname LIKE %s)",
            (table, f"{table}_terms_%"))


def has_term_counts(db: Any, table: str) -> bool:
    """True when ``table`` has its statistics and the trigger that keeps them."""
    probe, args = term_counts_probe(table)
    row = db.execute(f"SELECT {probe}", args).fetchone()
    return bool(row and row[0] == "3")


def drop_term_counts(cur: Any, table: str) -> None:
    """Drop the statistics and their functions (the triggers go with the messages table)."""
    terms, apply, trigger = _names(table)
    cur.execute(f"DROP TABLE IF EXISTS {terms}")
    cur.execute(f"DROP FUNCTION IF EXISTS {trigger}() CASCADE")
    cur.execute(f"DROP FUNCTION IF EXISTS {apply}(tsvector[], tsvector[])")


def report_to_stderr(table: str) -> Callable[[int, int], None]:
    """The default progress of a migration: one line per step on stderr (never stdout, which
    may be a protocol stream such as MCP's)."""

    def report(done: int, total: int) -> None:
        print(f"pi-memory recall: counting words for BM25 in {table}: {done:,} / {total:,} messages",
              file=sys.stderr, flush=True)

    return report


def create_term_counts(cur: Any, table: str, progress: Callable[[int, int], None] | None = None) -> None:
    """Create ``table``'s statistics and trigger, counting the rows it already holds.

    Runs inside the caller's transaction (a new table's, or a migration's under the writers'
    advisory lock). The table lock lets searches read on while the rows are counted but holds
    every writer — including ones that take no advisory lock — so no row is missed or counted
    twice. ``progress(done, total)`` follows a large table's count (default: stderr lines).
    """
    terms, apply, trigger = _names(table)
    cur.execute(f"LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE")
    drop_term_counts(cur, table)
    cur.execute(f"CREATE TABLE {terms}(term text PRIMARY KEY, docs bigint NOT NULL, tokens bigint NOT NULL)")
    # A tsvector keeps each lexeme's positions (its occurrences; a lexeme past position 16,383
    # keeps one); a message's length for BM25 is its distinct lexemes, as the search reads it.
    cur.execute(
        f"""CREATE FUNCTION {apply}(added tsvector[], removed tsvector[]) RETURNS void LANGUAGE sql AS $$
        WITH messages AS (
            SELECT v, 1 AS sign FROM unnest(added) v UNION ALL SELECT v, -1 FROM unnest(removed) v
        ), lexemes AS (
            SELECT u.lexeme, m.sign, m.sign * coalesce(array_length(u.positions, 1), 1) AS n
            FROM messages m, unnest(m.v) u
        ), delta AS (
            SELECT lexeme AS term, sum(sign) AS docs, sum(n) AS tokens FROM lexemes GROUP BY lexeme
            UNION ALL SELECT '', (SELECT coalesce(sum(sign), 0) FROM messages),
                (SELECT coalesce(sum(sign), 0) FROM lexemes)
        )
        INSERT INTO {terms} AS t(term, docs, tokens)
        SELECT term, docs, tokens FROM delta WHERE docs <> 0 OR tokens <> 0 OR term = '' ORDER BY term
        ON CONFLICT (term) DO UPDATE SET docs = t.docs + excluded.docs, tokens = t.tokens + excluded.tokens;
        -- a word no message holds any more goes (a statement apart: the upsert's own rows are
        -- invisible to the rest of its statement)
        DELETE FROM {terms} WHERE docs <= 0 AND term <> ''
            AND term IN (SELECT u.lexeme FROM unnest(removed) v, unnest(v) u);
        $$"""
    )
    # One function for the three events: the unchanged rows of an UPDATE (an access count) cancel
    # out before anything is written, so recording an access touches no statistics row.
    cur.execute(
        f"""CREATE FUNCTION {trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            added tsvector[] := '{{}}';
            removed tsvector[] := '{{}}';
        BEGIN
            IF TG_OP = 'INSERT' THEN
                added := ARRAY(SELECT tsv FROM new_rows);
            ELSIF TG_OP = 'DELETE' THEN
                removed := ARRAY(SELECT tsv FROM old_rows);
            ELSE
                added := ARRAY(SELECT n.tsv FROM new_rows n LEFT JOIN old_rows o ON o.seq = n.seq
                               WHERE o.tsv IS DISTINCT FROM n.tsv);
                removed := ARRAY(SELECT o.tsv FROM old_rows o LEFT JOIN new_rows n ON n.seq = o.seq
                                 WHERE n.tsv IS DISTINCT FROM o.tsv);
            END IF;
            IF cardinality(added) > 0 OR cardinality(removed) > 0 THEN
                PERFORM {apply}(added, removed);
            END IF;
            RETURN NULL;
        END $$"""
    )
    for event, tables in (("INSERT", "NEW TABLE AS new_rows"), ("DELETE", "OLD TABLE AS old_rows"),
                          ("UPDATE", "OLD TABLE AS old_rows NEW TABLE AS new_rows")):
        cur.execute(
            f"CREATE TRIGGER {table}_terms_{event.lower()} AFTER {event} ON {table} REFERENCING {tables}"
            f" FOR EACH STATEMENT EXECUTE FUNCTION {trigger}()"
        )
    cur.execute(f"INSERT INTO {terms} VALUES ('', 0, 0)")
    row = cur.execute(f"SELECT count(*), coalesce(min(seq), 0) FROM {table}").fetchone()
    total, low = (int(row[0]), int(row[1])) if row else (0, 0)
    if progress is None and total >= _LARGE:
        progress = report_to_stderr(table)
    done, last = 0, low - 1
    while done < total:
        # keyset steps through the primary key (not OFFSET, which re-reads what it skips)
        row = cur.execute(
            f"""WITH c AS MATERIALIZED (SELECT seq, tsv FROM {table} WHERE seq > %s ORDER BY seq LIMIT %s)
            SELECT (SELECT max(seq) FROM c), (SELECT count(*) FROM c), {apply}(ARRAY(SELECT tsv FROM c), '{{}}')""",
            (last, MIGRATION_CHUNK),
        ).fetchone()
        if row is None or row[0] is None:
            break
        last, done = int(row[0]), done + int(row[1])
        if progress:
            progress(done, total)
