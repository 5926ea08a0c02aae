"""``embedders``: the shipped static table turns text into unit vectors that put meaning near meaning."""

from __future__ import annotations

import numpy as np
import pytest

from pi_memory.recall.embedders import StaticEmbedder, get_embedder, normalize_rows


def test_normalize_rows_gives_unit_rows_and_keeps_zero_rows() -> None:
    rows = normalize_rows(np.array([[3.0, 4.0], [0.0, 0.0]]))
    assert rows.dtype == np.float32
    assert np.allclose(rows, [[0.6, 0.8], [0.0, 0.0]])


def test_the_static_embedder_is_the_default_and_loaded_once() -> None:
    embedder = get_embedder()
    assert isinstance(embedder, StaticEmbedder)
    assert embedder is get_embedder("static") is get_embedder("minilm-static-256")
    assert embedder.id == "minilm-static-256" and embedder.dimension == 256


def test_static_vectors_are_unit_deterministic_and_near_for_related_text() -> None:
    embedder = get_embedder("static")
    texts = ["We moved the staging database to Frankfurt", "where is the staging database?",
             "My daughter starts violin lessons on Tuesday"]
    vectors = embedder.embed(texts)
    assert vectors.shape == (3, 256)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(vectors, embedder.embed(texts))
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


def test_an_unknown_spec_names_the_choices() -> None:
    with pytest.raises(ValueError, match="use static, onnx, openai:<model> or ollama:<model>"):
        get_embedder("word2vec")
