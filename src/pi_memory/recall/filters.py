"""What a search's :class:`~pi_memory.recall.types.Filters` mean, read once for every backend.

:func:`conditions` turns the filters into plain conditions (column, operator, value); the SQL
indexes render them with :func:`filter_sql` (SQLite and PostgreSQL differ only in how a
parameter is marked and in PostgreSQL binding an "any of" list as one array), and Chroma renders
the same conditions as its ``where`` document. A new filter key is added here, once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pi_memory.recall.types import Filters

__all__ = ["Condition", "conditions", "filter_sql"]


@dataclass(frozen=True)
class Condition:
    """One restriction: ``column`` is any of ``value`` (``in``), or compares with it (ISO text)."""

    column: Literal["session_id", "role", "timestamp"]
    op: Literal["in", ">=", "<"]
    value: tuple[str, ...] | str


def conditions(filters: Filters | None) -> list[Condition]:
    """The conditions every given key of ``filters`` sets, in a fixed order (none: no filter)."""
    if not filters:
        return []
    found: list[Condition] = []
    if "session_id" in filters:
        found.append(Condition("session_id", "in", _any_of(filters["session_id"])))
    if "role" in filters:
        found.append(Condition("role", "in", _any_of(filters["role"])))
    if "since" in filters:
        found.append(Condition("timestamp", ">=", filters["since"]))
    if "until" in filters:
        found.append(Condition("timestamp", "<", filters["until"]))
    return found


def _any_of(value: str | list[str]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def filter_sql(
    filters: Filters | None, *, mark: str = "?", arrays: bool = False, alias: str = ""
) -> tuple[str, list[Any]]:
    """``" AND …"`` clauses and their parameters for ``filters`` (``""`` and ``[]`` when none).

    ``mark`` is the driver's parameter marker (``?`` for sqlite3, ``%s`` for psycopg);
    ``arrays`` binds an "any of" list as one array parameter (``= ANY(%s)``, PostgreSQL) instead
    of one marker per value (``IN (?, ?)``); ``alias`` prefixes the columns (``"m."``).
    """
    clauses: list[str] = []
    params: list[Any] = []
    for condition in conditions(filters):
        column = f"{alias}{condition.column}"
        if isinstance(condition.value, str):
            clauses.append(f"{column} {condition.op} {mark}")
            params.append(condition.value)
        elif arrays:
            clauses.append(f"{column} = ANY({mark})")
            params.append(list(condition.value))
        else:
            clauses.append(f"{column} IN ({', '.join([mark] * len(condition.value))})")
            params.extend(condition.value)
    return "".join(f" AND {clause}" for clause in clauses), params
