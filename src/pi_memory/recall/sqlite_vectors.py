"""The SQLite index's vectors in memory: what the dense half of a search scores.

* :class:`StoredVectors` loads the file's rows into a :class:`~pi_memory.recall.hybrid.VectorCache`
  once, and on later searches only the rows added since (``seq`` above the last one loaded).
  ``PRAGMA data_version`` moves when another connection commits, so a search with nothing new
  costs two small reads; a delete or a changed text bumps the file's generation counter, which
  makes every process load everything again.
* Each stored vector is checked as it loads (:func:`~pi_memory.recall.vectors.decode`): a damaged
  one is kept out of the dense half, counted, and logged once with the way out.

The caller (:class:`~pi_memory.recall.sqlite_index.SQLiteIndex`) holds its lock and a read
transaction around :meth:`StoredVectors.load`, so the rows and the counters it reads agree.
"""

from __future__ import annotations

import logging
import sqlite3

from pi_memory.recall.embedders import Embedder
from pi_memory.recall.hybrid import VectorCache
from pi_memory.recall.rerank import author_of, day_of
from pi_memory.recall.rows import metadata_of
from pi_memory.recall.vectors import damage_report, decode

__all__ = ["StoredVectors"]

log = logging.getLogger("pi_memory.recall")

_LABEL_CHARS = 80
"""Enough of a message's start to hold a transcript speaker label (``Name: …``)."""


class StoredVectors:
    """The vectors of the file behind ``db`` (named ``location`` in what is logged), kept between searches."""

    def __init__(self, db: sqlite3.Connection, location: str) -> None:
        self._db = db
        self._location = location
        self._cache: VectorCache | None = None
        self._generation = ""
        self._data_version = -1
        self._reported = 0
        """How many damaged vectors have been reported (a load logs again only when more turn up)."""

    def stale(self) -> None:
        """Look at the file again on the next load: ``PRAGMA data_version`` only moves for other
        connections' commits, so the index calls this for its own writes."""
        self._data_version = -1

    def load(self, embedder: Embedder) -> VectorCache:
        """The vectors brought up to date with the file (cheap when nothing changed)."""
        version = int(self._db.execute("PRAGMA data_version").fetchone()[0])
        row = self._db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        generation = (str(row[0]) if row is not None else "") or "0"
        if self._cache is None or generation != self._generation or self._cache.dimension != embedder.dimension:
            self._cache = VectorCache(embedder.dimension)
        elif version == self._data_version:
            return self._cache
        cache = self._cache
        rows = self._db.execute(
            f"SELECT seq, session_id, CAST(embedding AS BLOB), substr(text, 1, {_LABEL_CHARS}), timestamp, metadata,"
            " instr(text, '?') > 0 FROM messages WHERE seq > ? ORDER BY seq",
            (cache.last_seq,),
        ).fetchall()
        if rows:
            vectors, damaged = decode([r[2] for r in rows], cache.dimension)
            authors = [author_of(r[3], metadata_of(r[5])) for r in rows]
            cache.append([r[0] for r in rows], [r[1] for r in rows], vectors, authors,
                         [day_of(r[4]) for r in rows], [bool(r[6]) for r in rows], damaged)
            if len(cache.damaged) > self._reported:
                self._reported = len(cache.damaged)
                log.warning("%s", self.damage(embedder.id))
        self._generation, self._data_version = generation, version
        return cache

    def damage(self, embedder: str) -> str | None:
        """What is wrong with the vectors loaded so far and the way out, re-embedding with
        ``embedder`` (None: nothing)."""
        if self._cache is None or not len(self._cache.damaged):
            return None
        return damage_report(self._location, len(self._cache.damaged), len(self._cache), embedder)
