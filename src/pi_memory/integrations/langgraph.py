"""LangGraph: ``PiStore``, a ``BaseStore`` on SQLite (default) or PostgreSQL whose ``search(query=…)``
is pi-memory's hybrid search, and ``static_embeddings``, the shipped offline embedding model as
an ``IndexConfig(embed=…)`` for any LangGraph store.

    from pi_memory.integrations.langgraph import PiStore

    store = PiStore()                                   # <agentDir>/langgraph-store.db
    store.put(("users", "u1"), "prefs", {"text": "Prefers dark mode"})
    store.search(("users",), query="what theme does the user like?")

**Search.** Every item is indexed (the whole value, or the fields ``index={"fields": [...]}`` or
``put(..., index=[...])`` name, in LangGraph's path syntax; ``index=False`` leaves it out). A
query ranks the items that pass the namespace prefix and ``filter`` by BM25 over their indexed
text fused with the cosine of their vectors — recall's fusion (:func:`pi_memory.recall.fusion.fuse`),
and by default recall's static embedder, so no embedding API is called. ``index={"embed": ...}``
uses your embeddings for the dense half instead. ``SearchItem.score`` is the fused score.

**The scanner.** Stored values end up in prompts, so every string in a value passes the threat
scanner the memory files use; a put carrying an injection or exfiltration payload raises
:class:`StoreWriteRefused` (a ``ValueError`` that says which pattern) and the whole batch is
left unwritten.

**TTL.** ``supports_ttl`` is true: ``put(..., ttl=minutes)`` (or ``ttl={"default_ttl": …}``) sets
an expiry that reads refresh (``refresh_on_read``); expired items are never returned and are
deleted by the next write, by :meth:`PiStore.sweep_ttl`, or every ``sweep_interval_minutes``.

**Where.** ``url`` is a path (SQLite, WAL, safe for several processes) or a
``postgresql://`` DSN; without one, the ``pi-memory`` settings' ``backend: "postgres"`` and its
``dsn`` (or ``$PI_MEMORY_DSN``) are used, as for the memory files, else
``<agentDir>/langgraph-store.db``.

``PiMemoryMiddleware`` (LangChain's ``create_agent``) lives in :mod:`pi_memory.integrations.langchain`
and is re-exported here.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
)

from pi_memory.recall import StaticEmbedder
from pi_memory.recall.fusion import SearchConfig, fuse
from pi_memory.recall.text import content_terms, terms
from pi_memory.security.threats import first_threat_message
from pi_memory.session import get_agent_dir

from .langgraph_sql import TABLE_NAME, Database, join_namespace, split_namespace

if TYPE_CHECKING:
    from pi_memory.integrations.langchain import PiMemoryMiddleware

__all__ = ["STATIC_EMBEDDING_DIMS", "PiMemoryMiddleware", "PiStore", "StoreWriteRefused", "default_store_path",
           "static_embeddings"]

STATIC_EMBEDDING_DIMS = 256
"""Dimensions of :func:`static_embeddings` (the shipped ``minilm-static-256`` table)."""
_BM25_K1, _BM25_B = 1.2, 0.75

_static: StaticEmbedder | None = None
_static_lock = threading.Lock()


def _static_embedder() -> StaticEmbedder:
    global _static
    with _static_lock:
        if _static is None:
            _static = StaticEmbedder()
        return _static


def static_embeddings(texts: Sequence[str]) -> list[list[float]]:
    """Embed ``texts`` with the static model shipped in pi-memory (offline, no API key).

    An ``EmbeddingsFunc``: ``InMemoryStore(index={"dims": STATIC_EMBEDDING_DIMS, "embed": static_embeddings})``.
    """
    matrix = _static_embedder().embed(list(texts))
    rows: list[list[float]] = matrix.tolist()
    return rows


def default_store_path() -> Path:
    """``<agentDir>/langgraph-store.db``, beside recall's index."""
    return Path(get_agent_dir()) / "langgraph-store.db"


def _default_url() -> str:
    from pi_memory.backends import DSN_ENV
    from pi_memory.host.settings import load_settings

    section = load_settings(os.getcwd(), project_trusted=False).section("pi-memory")
    if section.get("backend") == "postgres":
        dsn = str(section.get("dsn") or os.environ.get(DSN_ENV, "")).strip()
        if not dsn:
            raise ValueError(f"pi-memory.backend is 'postgres' but no DSN is set: add pi-memory.dsn or set ${DSN_ENV}")
        return dsn
    return str(default_store_path())


class StoreWriteRefused(ValueError):
    """A put whose value the threat scanner refuses; nothing of its batch was written."""


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _refusal(op: PutOp) -> str | None:
    for text in _strings(op.value):
        message = first_threat_message(text)
        if message is not None:
            return (f"{message} Nothing was stored (namespace {op.namespace!r}, key {op.key!r}); "
                    "store the fact without the instruction.")
    return None


# ----------------------------------------------------------------------------- filters & namespaces


def _apply_operator(value: Any, operator: str, expected: Any) -> bool:
    if operator == "$eq":
        return bool(value == expected)
    if operator == "$ne":
        return bool(value != expected)
    comparisons: dict[str, Callable[[float, float], bool]] = {
        "$gt": lambda a, b: a > b, "$gte": lambda a, b: a >= b, "$lt": lambda a, b: a < b, "$lte": lambda a, b: a <= b}
    if operator not in comparisons:
        raise ValueError(f"Unsupported filter operator {operator!r}: use $eq, $ne, $gt, $gte, $lt or $lte")
    try:
        return comparisons[operator](float(value), float(expected))
    except (TypeError, ValueError):
        return False


def _matches(value: Any, expected: Any) -> bool:
    """LangGraph's filter semantics: exact (nested) equality, or ``{"$op": x}`` comparisons."""
    if isinstance(expected, Mapping):
        if any(str(k).startswith("$") for k in expected):
            return all(_apply_operator(value, str(k), v) for k, v in expected.items())
        return isinstance(value, Mapping) and all(_matches(value.get(k), v) for k, v in expected.items())
    if isinstance(expected, list | tuple):
        return (isinstance(value, list | tuple) and len(value) == len(expected)
                and all(_matches(a, b) for a, b in zip(value, expected, strict=True)))
    return bool(value == expected)


def _namespace_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    pairs = zip(namespace, path, strict=False) if condition.match_type == "prefix" else \
        zip(reversed(namespace), reversed(path), strict=False)
    if condition.match_type not in ("prefix", "suffix"):
        raise ValueError(f"Unsupported match type: {condition.match_type}")
    return all(p == "*" or n == p for n, p in pairs)


# ----------------------------------------------------------------------------- the store


class PiStore(BaseStore):
    """A persistent LangGraph store (see the module docstring)."""

    supports_ttl: bool = True

    def __init__(
        self,
        url: str | os.PathLike[str] | None = None,
        *,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
        search_config: SearchConfig | None = None,
        table: str = "langgraph",
    ) -> None:
        if TABLE_NAME.fullmatch(table) is None:
            raise ValueError(f"table must be a lower-case SQL identifier such as 'langgraph', got {table!r}")
        self.url = os.fspath(url) if url is not None else _default_url()
        self.index_config: IndexConfig = dict(index or {})  # type: ignore[assignment]
        self.ttl_config = ttl
        self.search_config = search_config or SearchConfig()
        embed = self.index_config.get("embed")
        self._embed_documents: Callable[[list[str]], list[list[float]]]
        self._embed_query: Callable[[str], list[float]]
        if embed is None:
            self._embed_documents = static_embeddings
            self._embed_query = lambda text: static_embeddings([text])[0]
        else:
            embeddings = ensure_embeddings(embed)
            self._embed_documents = embeddings.embed_documents
            self._embed_query = embeddings.embed_query
        self._fields = [(path, tokenize_path(path) if path != "$" else "$")
                        for path in (self.index_config.get("fields") or ["$"])]
        self._db = Database(self.url, table)
        self._closed = threading.Event()
        interval = (ttl or {}).get("sweep_interval_minutes")
        if interval:
            threading.Thread(target=self._sweep_every, args=(float(interval) * 60,), name="pi-store-ttl-sweep",
                             daemon=True).start()

    def _sweep_every(self, seconds: float) -> None:
        """``TTLConfig.sweep_interval_minutes``: delete expired items on a timer until :meth:`close`."""
        while not self._closed.wait(seconds):
            try:
                self.sweep_ttl()
            except Exception:  # a busy or lost database: the next round tries again
                continue

    def close(self) -> None:
        """Stop the TTL sweeper (if any) and close the database connection."""
        self._closed.set()
        self._db.close()

    def __enter__(self) -> PiStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- BaseStore -----------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` in order in one transaction (puts of the same key: the last one wins)."""
        ops = list(ops)
        for op in ops:
            if isinstance(op, PutOp) and op.value is not None and (refusal := _refusal(op)) is not None:
                raise StoreWriteRefused(refusal)
        # Embedding happens before the transaction, so a slow embedder never holds the write lock.
        vectors = self._embed_puts(ops)
        queries = {op.query for op in ops if isinstance(op, SearchOp) and op.query}
        query_vectors = {q: np.asarray(self._embed_query(q), dtype=np.float32) for q in queries}
        now = time.time()
        results: list[Result] = []
        with self._db.transaction() as db:
            if any(isinstance(op, PutOp) for op in ops):
                db.drop_expired(now)
            for n, op in enumerate(ops):
                if isinstance(op, GetOp):
                    results.append(self._get(db, op, now))
                elif isinstance(op, SearchOp):
                    results.append(self._search(db, op, now, query_vectors))
                elif isinstance(op, ListNamespacesOp):
                    results.append(self._list_namespaces(db, op, now))
                elif isinstance(op, PutOp):
                    self._put(db, op, now, vectors.get(n))
                    results.append(None)
                else:
                    raise ValueError(f"Unknown operation type: {type(op)}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """:meth:`batch` in a worker thread, so the event loop never waits on the database."""
        return await asyncio.to_thread(self.batch, list(ops))

    def sweep_ttl(self) -> int:
        """Delete expired items now; returns how many were deleted."""
        now = time.time()
        with self._db.transaction() as db:
            expired = db.expired(now)
            for namespace, key in expired:
                db.delete(namespace, key)
        return len(expired)

    # --- operations ----------------------------------------------------------------------------

    def _get(self, db: Database, op: GetOp, now: float) -> Item | None:
        rows = db.get(join_namespace(op.namespace), op.key, now)
        if not rows:
            return None
        if op.refresh_ttl:
            db.refresh(rows, now)
        return _item(rows[0])

    def _put(self, db: Database, op: PutOp, now: float, vectors: list[tuple[str, str, bytes]] | None) -> None:
        namespace = join_namespace(op.namespace)
        if op.value is None:
            db.delete(namespace, op.key)
        else:
            db.put(namespace, op.key, json.dumps(dict(op.value), ensure_ascii=False), now, op.ttl, vectors or [])

    def _embed_puts(self, ops: Sequence[Op]) -> dict[int, list[tuple[str, str, bytes]]]:
        """Per put (by position in the batch): ``(path, text, vector bytes)`` for each indexed text."""
        texts: list[tuple[int, str, str]] = []
        for n, op in enumerate(ops):
            if not isinstance(op, PutOp) or op.value is None or op.index is False:
                continue
            fields = self._fields if op.index is None else [(p, tokenize_path(p) if p != "$" else "$")
                                                            for p in op.index]
            for path, tokens in fields:
                found = get_text_at_path(op.value, tokens)
                for i, text in enumerate(found):
                    texts.append((n, path if len(found) == 1 else f"{path}.{i}", text))
        matrix = self._embed_documents([t for _, _, t in texts]) if texts else []
        by_put: dict[int, list[tuple[str, str, bytes]]] = {}
        for (n, path, text), vector in zip(texts, matrix, strict=True):
            by_put.setdefault(n, []).append((path, text, np.asarray(vector, dtype=np.float32).tobytes()))
        return by_put

    def _search(self, db: Database, op: SearchOp, now: float, query_vectors: Mapping[str, Any]) -> list[SearchItem]:
        rows = db.alive(op.namespace_prefix, now)
        if op.filter:
            rows = [r for r in rows if all(_matches(json.loads(r[2]).get(k), v) for k, v in op.filter.items())]
        scores: dict[int, float] = {}
        if op.query and rows:
            scores = self._rank(db, rows, op.query, query_vectors[op.query])
            ranked = sorted((r for r in rows if r[5] in scores), key=lambda r: -scores[r[5]])
            rows = ranked + [r for r in rows if r[5] not in scores]  # unindexed items last, as InMemoryStore
        page = rows[op.offset: op.offset + op.limit]
        if op.refresh_ttl:
            db.refresh(page, now)
        return [_search_item(r, scores.get(r[5]) if op.query else None) for r in page]

    def _rank(self, db: Database, rows: Sequence[tuple[Any, ...]], query: str, query_vector: Any) -> dict[int, float]:
        """Fused BM25 + cosine score per item ``seq`` (items without indexed text get none)."""
        keys = {(r[0], r[1]): r[5] for r in rows}
        texts: dict[int, list[str]] = {}
        best_cosine: dict[int, float] = {}
        for namespace, key, text, vector in db.vectors_for(rows):
            seq = keys.get((namespace, key))
            if seq is None:
                continue
            texts.setdefault(seq, []).append(text)
            if vector is not None:
                v = np.frombuffer(bytes(vector), dtype=np.float32)
                norm = float(np.linalg.norm(v)) * float(np.linalg.norm(query_vector))
                cosine = float(np.dot(v, query_vector) / norm) if norm > 0 and v.shape == query_vector.shape else 0.0
                best_cosine[seq] = max(best_cosine.get(seq, -1.0), cosine)
        lexical = _bm25({seq: " ".join(parts) for seq, parts in texts.items()}, query, self.search_config.stopwords)
        fused = fuse(lexical, best_cosine, self.search_config)
        return {seq: fused.get(seq, 0.0) for seq in texts}

    def _list_namespaces(self, db: Database, op: ListNamespacesOp, now: float) -> list[tuple[str, ...]]:
        namespaces = db.namespaces(now)
        if op.match_conditions:
            namespaces = [ns for ns in namespaces if all(_namespace_matches(c, ns) for c in op.match_conditions)]
        if op.max_depth is not None:
            namespaces = sorted({ns[: op.max_depth] for ns in namespaces})
        else:
            namespaces = sorted(namespaces)
        return namespaces[op.offset: op.offset + op.limit]


def _bm25(documents: Mapping[int, str], query: str, drop_stopwords: bool) -> dict[int, float]:
    """Okapi BM25 of ``query``'s content terms over ``documents`` (the search's candidates)."""
    words = content_terms(query, drop_stopwords)
    if not words or not documents:
        return {}
    tokenised = {seq: terms(text) for seq, text in documents.items()}
    average = sum(len(t) for t in tokenised.values()) / len(tokenised) or 1.0
    frequency = {w: sum(1 for t in tokenised.values() if w in set(t)) for w in words}
    scores: dict[int, float] = {}
    for seq, tokens in tokenised.items():
        score = 0.0
        for word in words:
            tf = tokens.count(word)
            if not tf:
                continue
            idf = math.log(1 + (len(tokenised) - frequency[word] + 0.5) / (frequency[word] + 0.5))
            score += idf * tf * (_BM25_K1 + 1) / (tf + _BM25_K1 * (1 - _BM25_B + _BM25_B * len(tokens) / average))
        if score > 0:
            scores[seq] = score
    return scores


def _item(row: tuple[Any, ...]) -> Item:
    return Item(value=json.loads(row[2]), key=row[1], namespace=split_namespace(row[0]),
                created_at=datetime.fromisoformat(row[3]), updated_at=datetime.fromisoformat(row[4]))


def _search_item(row: tuple[Any, ...], score: float | None) -> SearchItem:
    return SearchItem(namespace=split_namespace(row[0]), key=row[1], value=json.loads(row[2]),
                      created_at=datetime.fromisoformat(row[3]), updated_at=datetime.fromisoformat(row[4]), score=score)


def __getattr__(name: str) -> Any:
    """``PiMemoryMiddleware`` on first use: it needs ``langchain``, which a plain store does not."""
    if name == "PiMemoryMiddleware":
        from pi_memory.integrations.langchain import PiMemoryMiddleware

        return PiMemoryMiddleware
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
