"""``embedders``: the shipped static table turns text into unit vectors that put meaning near meaning."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import pi_memory.recall.embedders
from pi_memory.recall.embedders import MAX_EMBED_CHARS, StaticEmbedder, get_embedder, normalize_rows, sum_rows

MODEL = Path(pi_memory.recall.embedders.__file__).parent / "models" / "minilm-static"


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


def test_sum_rows_adds_each_texts_rows_in_token_order_whatever_its_batch() -> None:
    """Bit for bit ``table[ids].sum(axis=0)`` per text, for empty texts, texts of one token and
    texts that run on long after the rest of their batch has ended (summed one by one), and the
    same sum for a text alone as in any batch."""
    rng = np.random.default_rng(7)
    table = rng.standard_normal((500, 16)).astype(np.float32)
    lengths = [0, 1, 3, 40, 40, 7, 0, 900, 2, 41, 1200, 13] + [int(n) for n in rng.integers(0, 60, 40)]
    ids = [[int(t) for t in rng.integers(0, 500, n)] for n in lengths]
    sums = sum_rows(table, ids)
    assert sums.shape == (len(ids), 16) and sums.dtype == np.float32
    for row, text_ids in zip(sums, ids, strict=True):
        expected = table[text_ids].sum(axis=0) if text_ids else np.zeros(16, dtype=np.float32)
        assert row.tobytes() == expected.tobytes()
    for n in (0, 7, 10, 11):
        assert sum_rows(table, [ids[n]]).tobytes() == sums[n : n + 1].tobytes()
    assert sum_rows(table, []).shape == (0, 16) and not sum_rows(table, [[], []]).any()


def test_static_vectors_match_the_mean_of_the_token_rows() -> None:
    """What the model is: the normalised mean of the table rows of the text's WordPiece ids (the
    order of the additions may move a vector by float32 rounding, never more)."""
    embedder = get_embedder("static")
    assert isinstance(embedder, StaticEmbedder)
    texts = ["Caroline went to the LGBTQ support group yesterday", "", "ok", "Straße, café — naïve!" * 30]
    ids = embedder.token_ids(texts)
    assert ids[1] == [] and len(ids[3]) > 100
    table = np.load(MODEL / "embeddings.npy")
    expected = normalize_rows(np.array([table[i].astype(np.float64).mean(axis=0) if i else np.zeros(256) for i in ids]))
    assert np.allclose(embedder.embed(texts), expected, atol=1e-6, rtol=0)
    assert np.array_equal(embedder.embed(texts[3:]), embedder.embed(texts)[3:])


def _reference_ids(texts: list[str]) -> list[list[int]]:
    """What the shipped tokenizer itself gives, normaliser and all."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(MODEL / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return [e.ids for e in tokenizer.encode_batch(texts, add_special_tokens=False)]


def test_token_ids_are_the_tokenizers_own_for_every_ascii_character_and_any_mix() -> None:
    """ASCII texts skip the BERT normaliser (cleaned and lower-cased in Python instead); every ASCII
    character, alone and between others, must give the ids the full tokenizer gives."""
    embedder = get_embedder("static")
    assert isinstance(embedder, StaticEmbedder)
    texts = [form.format(c=chr(c)) for c in range(128) for form in ("{c}", "Ab{c}Cd", "{c}{c} x{c}Y", "don{c}t STOP")]
    texts += ["Caf\u00e9 na\u00efve \u4e2d\u6587 \U0001f600", "  Tabs\tand\r\nlines\x0b\x0c\x7f\x00 ", "", "A" * 9000]
    assert embedder.token_ids(texts) == _reference_ids([t[:MAX_EMBED_CHARS] for t in texts])
    mixed = ["plain ASCII first", "then caf\u00e9", "Then ASCII AGAIN", "\u00c9T\u00c9"]
    assert embedder.token_ids(mixed) == _reference_ids(mixed)
    assert [embedder.token_ids([t])[0] for t in mixed] == embedder.token_ids(mixed)
