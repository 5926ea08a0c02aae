"""Vectors checked where they cross a boundary: from an embedder into an index, and from a file's
BLOBs into the in-memory search.

* A stored row is ``2 · dimension`` bytes of float16 holding a unit vector, or all zeros (a text
  with no known token). A bit flip in one decodes to NaN, ±inf or a component up to 2¹⁶ times too
  large; scored as it is, its cosine is NaN (which ``argpartition`` ranks above every real one, and
  ``min``/``max`` clip to a similarity of 1.0) or far above 1, so garbage rises to the top.
  :func:`decode` checks each row once, as the cache loads it: the right length, and a norm of 0
  or within :data:`NORM_TOLERANCE` of 1 (NaN and inf fail that too). A damaged row is loaded as
  zeros and left out of the dense half; its text is intact, so the lexical half still finds it
  and re-embedding repairs it. About 50 ms per 100k rows (157 vs 110 ms unchecked), once per process.
* An embedder's answer is checked before anything is stored (:func:`embedded`): a remote model
  that returns NaN, or rows of another length, is a clear error and not a poisoned index.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from pi_memory.recall.embedders import Embedder
from pi_memory.recall.types import RecallError

__all__ = ["NORM_TOLERANCE", "damage_report", "decode", "embedded", "query_direction", "reindex_command"]

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]

NORM_TOLERANCE = 0.02
"""How far from 1 a stored row's norm may be. float16 rounding moves a unit row's norm by under
0.1% (11-bit mantissa), and a cosine is at most the row's norm, so a row that passes scores at
most 1.02 against any query: damage small enough to pass barely moves a score."""


def decode(blobs: Sequence[bytes | None], dimension: int) -> tuple[FloatArray, BoolArray]:
    """``(rows, damaged)``: the float16 BLOBs as float32 rows (``len(blobs) × dimension``), damaged
    ones (missing, wrong length, NaN/inf, not unit length and not zero) as zeros and marked in ``damaged``."""
    width = 2 * dimension
    sized = np.fromiter((b is not None and len(b) == width for b in blobs), dtype=bool, count=len(blobs))
    if sized.all():
        half = np.frombuffer(b"".join(b for b in blobs if b is not None), dtype=np.float16).reshape(-1, dimension)
    else:  # rows of another length would shift every row after them: each is placed on its own
        half = np.zeros((len(blobs), dimension), dtype=np.float16)
        for i in np.flatnonzero(sized):
            half[i] = np.frombuffer(blobs[int(i)] or b"", dtype=np.float16)
    rows: FloatArray = half.astype(np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        norms = np.sqrt(np.einsum("ij,ij->i", rows, rows))
        damaged: BoolArray = ~sized | ~((norms == 0) | (np.abs(norms - 1) <= NORM_TOLERANCE))
    if damaged.any():
        rows[damaged] = 0
    return rows, damaged


def query_direction(vector: FloatArray) -> FloatArray | None:
    """The query vector to score with: ``vector`` (rescaled to unit length if it is not), or None
    when it has no direction: all zeros (a query of no known word; every cosine with it is 0, or
    NaN on pgvector) or not finite."""
    with np.errstate(over="ignore", invalid="ignore"):
        norm = float(np.linalg.norm(np.asarray(vector, dtype=np.float64)))
    if not math.isfinite(norm) or norm == 0:
        return None
    if abs(norm - 1) <= 1e-3:
        return np.asarray(vector, dtype=np.float32)
    unit: FloatArray = (np.asarray(vector, dtype=np.float64) / norm).astype(np.float32)
    return unit


def embedded(embedder: Embedder, texts: Sequence[str]) -> FloatArray:
    """``embedder``'s vectors for ``texts`` as float32, or a :class:`RecallError` that says what was
    wrong with them (called before anything is stored)."""
    matrix = np.asarray(embedder.embed(texts), dtype=np.float32)
    if matrix.shape != (len(texts), embedder.dimension):
        raise RecallError(f"the embedder {embedder.id!r} returned vectors of shape {matrix.shape} for {len(texts)} "
                          f"text(s) of {embedder.dimension} dimensions; nothing was stored. Check the embedder's "
                          "model and settings (`pi-memory recall status` shows the index's dimension).")
    bad = ~np.isfinite(matrix).all(axis=1)
    if bad.any():
        raise RecallError(f"the embedder {embedder.id!r} returned NaN or infinite values for {int(bad.sum())} of "
                          f"{len(texts)} text(s); nothing was stored. Check the embedding model or service, then "
                          "index again (the messages are retried).")
    return matrix


def damage_report(location: str, damaged: int, total: int, embedder: str) -> str:
    """What a search logs, once, when it meets damaged stored vectors: what happened and the way out."""
    return (f"{damaged} of the {total} stored vectors in the recall index {location} are damaged (wrong length, "
            "NaN/inf or not unit length: the file changed on disk). Searches leave them out of the meaning "
            "half and still find those messages by their words; the texts are intact. Run "
            f"`{reindex_command(location, embedder)}` to re-embed every message.")


def reindex_command(location: str, embedder: str) -> str:
    """The command that re-embeds every message of the index at ``location`` with ``embedder``,
    repairing its damaged vectors (quoted for a POSIX shell where a path needs it)."""
    return f"pi-memory recall reindex --index {shlex.quote(location)} --embedder {shlex.quote(embedder)}"
