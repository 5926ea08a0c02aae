"""A recall file with damaged stored vectors, made for real: the index is written by
:class:`SQLiteIndex`, then chosen vectors are overwritten in the file's bytes, found by their known
bytes (not at an offset that depends on how SQLite laid the pages out).

``build(path)`` writes :data:`REAL` (three messages a :data:`QUERY` finds), the :data:`DAMAGE`
victims and :data:`FILLERS` notes; ``damage_on_disk(path)`` then damages each victim's vector as
its entry says. The ones in :data:`DETECTED` count as damaged (``recall status``'
``damaged_vectors``); an all-zero vector is what a text of no known word stores, so it does not.
Loaded with :func:`peer_modules.load_test_module` (``recall/vector_damage_fixtures.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from peer_modules import load_test_module
from pi_memory.recall import SQLiteIndex, get_embedder

record = load_test_module("recall/conftest.py").record

REAL = {
    "real1": "We moved the staging database to the Frankfurt cluster on Friday",
    "real2": "The staging database migration to Frankfurt needs a maintenance window",
    "real3": "Frankfurt staging database backups run every night",
}
QUERY = "staging database Frankfurt"
FILLERS = 60


def _flip_exponents(v: np.ndarray) -> np.ndarray:
    """The top exponent bit of every other component flipped: values 2¹⁶ times too large, or inf."""
    bits = v.view(np.uint16).copy()
    bits[::2] ^= 0x4000
    return bits.view(np.float16)


def _ff_sector(v: np.ndarray) -> np.ndarray:
    """Every byte 0xFF, as an erased flash page reads: every component NaN."""
    return np.full(v.shape, 0xFFFF, dtype=np.uint16).view(np.float16)


def _one_inf(v: np.ndarray) -> np.ndarray:
    """One component's exponent bits all set: +inf or -inf, the rest intact."""
    bits = v.view(np.uint16).copy()
    bits[int(np.argmax(np.abs(v)))] |= 0x7C00
    bits[int(np.argmax(np.abs(v)))] &= 0xFC00
    return bits.view(np.float16)


def _zeroed(v: np.ndarray) -> np.ndarray:
    """All zeros: what a text of no known word stores, so not told apart (and harmless: cosine 0)."""
    return np.zeros_like(v)


DAMAGE: dict[str, tuple[str, Callable[[np.ndarray], np.ndarray]]] = {
    "flipped": ("Grandmother baked a lemon cake for the picnic in the orchard", _flip_exponents),
    "erased": ("My nephew practises the violin every Tuesday evening", _ff_sector),
    "one-inf": ("The quarterly audit is due at the end of June this year", _one_inf),
    "zeroed": ("We adopted a grey kitten from the shelter last spring", _zeroed),
}
DETECTED = {"flipped", "erased", "one-inf"}


def build(path: Path) -> None:
    fillers = [record(f"f{n}", f"note {n} about the garden, tomatoes and the weather", session="g")
               for n in range(FILLERS)]
    victims = [record(name, text, session=f"v-{name}") for name, (text, _) in DAMAGE.items()]
    with SQLiteIndex(path) as index:  # closing the last connection checkpoints the WAL into the file
        index.add([record(k, t, session=f"s-{k}") for k, t in REAL.items()] + victims + fillers)


def damage_on_disk(path: Path) -> None:
    embedder = get_embedder()
    data = bytearray(path.read_bytes())
    for _, (text, damage) in DAMAGE.items():
        stored = embedder.embed([text])[0].astype(np.float16)
        at = data.find(stored.tobytes())
        assert at >= 0 and data.find(stored.tobytes(), at + 1) < 0, "each vector is on disk once"
        data[at : at + stored.nbytes] = damage(stored).tobytes()
    path.write_bytes(bytes(data))


