"""BM25 weights per (k1, b), kept for the parameter pairs in use and dropped on any change.

A notebook slider moves k1 and b between queries, so an index keeps the weights of the
last few pairs: each document's length norm, each posting's float32 weight (the main
segment's, once a pair has served enough queries to pay for it) and the terms × docs
weight matrix of the tuning scorers. One :class:`WeightCache` serves one state of the
index; the index makes a new one whenever its documents change.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from ragspine_nb.retrieval.bm25_kernels import Postings
from ragspine_nb.retrieval.bm25_postings import PostingStore, csr
from ragspine_nb.retrieval.compiled import compiled_now, njit

if TYPE_CHECKING:
    from scipy import sparse

__all__ = ["WeightCache", "WEIGHTS_AFTER_QUERIES", "doc_norms", "posting_weights"]

#: after this many queries with one (k1, b) the main segment's weights are cached
WEIGHTS_AFTER_QUERIES = 32
#: posting-weight sets kept (each is one float32 per posting of the main segment)
_POSTING_SETS = 2


def doc_norms(doc_len: np.ndarray, avgdl: float, k1: float, b: float) -> np.ndarray:
    """``k1 * (1 - b + b * |d| / avgdl)`` per document (float64).

    Examples
    --------
    >>> doc_norms(np.array([2.0, 4.0]), 3.0, 1.5, 0.75).round(4).tolist()
    [1.125, 1.875]
    """
    out: np.ndarray = k1 * (1.0 - b + b * doc_len / (avgdl or 1.0))
    return out


@njit
def _weights_compiled(ptr, docs, tf, idf, k1p1, norm, out):  # type: ignore[no-untyped-def]  # pragma: no cover
    for t in range(ptr.shape[0] - 1):
        idf_t = idf[t]
        for p in range(ptr[t], ptr[t + 1]):
            f = np.float64(tf[p])
            out[p] = np.float32(idf_t * f * k1p1 / (f + norm[docs[p]]))


def posting_weights(seg: Postings, idf: np.ndarray, norm: np.ndarray, k1: float) -> np.ndarray:
    """Every posting's float32 weight, exactly as the query loop computes it."""
    if compiled_now():
        out = np.empty(seg.docs.size, np.float32)
        _weights_compiled(seg.ptr, seg.docs, seg.tf, idf, k1 + 1.0, norm, out)  # type: ignore[no-untyped-call]
        return out
    terms = np.repeat(np.arange(seg.ptr.size - 1), np.diff(seg.ptr))
    f = seg.tf.astype(np.float64)
    weights: np.ndarray = (idf[terms] * f * (k1 + 1.0) / (f + norm[seg.docs])).astype(np.float32)
    return weights


V = TypeVar("V")


def _key(k1: float, b: float) -> tuple[float, float]:
    return float(k1), float(b)


class WeightCache:
    """The weights of one index state for the (k1, b) pairs in use, least recent dropped.

    Parameters
    ----------
    store : PostingStore
        The index's postings and document lengths.
    idf : numpy.ndarray
        Each term's idf over the live documents.
    avgdl : float
        The live documents' mean length.
    size : int
        How many pairs' norms and weight matrices are kept.

    Examples
    --------
    >>> from ragspine_nb.retrieval.bm25 import BM25Index
    >>> idx = BM25Index.build(["a", "b"], ["x x y", "y z"])
    >>> cache = idx._weights  # lengths 3 and 2, avgdl 2.5
    >>> cache.norm(1.5, 0.75).round(4).tolist()
    [1.725, 1.275]
    >>> cache.main(1.2, 0.5, n_queries=1) is None  # one query: weights computed per query
    True
    >>> _ = idx.weights(1.2, 0.5); cache.pairs
    [(1.2, 0.5)]
    """

    def __init__(self, store: PostingStore, idf: np.ndarray, avgdl: float, size: int) -> None:
        self._store, self._idf, self._avgdl, self._size = store, idf, avgdl, size
        self._norms: OrderedDict[tuple[float, float], np.ndarray] = OrderedDict()
        self._posting: OrderedDict[tuple[float, float], np.ndarray] = OrderedDict()
        self._matrices: OrderedDict[tuple[float, float], sparse.csr_matrix] = OrderedDict()
        self._seen: dict[tuple[float, float], int] = {}

    @staticmethod
    def _kept(cache: OrderedDict[tuple[float, float], V], key: tuple[float, float],
              make: Callable[[], V], size: int) -> V:
        hit = cache.get(key)
        if hit is None:
            hit = cache[key] = make()
            if len(cache) > size:
                cache.popitem(last=False)
        else:
            cache.move_to_end(key)
        return hit

    def norm(self, k1: float, b: float) -> np.ndarray:
        """``k1 * (1 - b + b * |d| / avgdl)`` per document slot."""
        return self._kept(self._norms, _key(k1, b),
                          lambda: doc_norms(self._store.slot_len, self._avgdl, k1, b), self._size)

    def posting(self, k1: float, b: float) -> np.ndarray:
        """The main segment's float32 weight per posting (two sets are kept)."""
        return self._kept(self._posting, _key(k1, b),
                          lambda: posting_weights(self._store.main, self._idf,
                                                  self.norm(k1, b), float(k1)), _POSTING_SETS)

    def main(self, k1: float, b: float, n_queries: int) -> np.ndarray | None:
        """The main segment's posting weights, once (k1, b) has served enough queries.

        Until then each query computes the weights of the postings it reads; both give
        the same bits.
        """
        key = _key(k1, b)
        if key not in self._posting:
            self._seen[key] = self._seen.get(key, 0) + n_queries
            if self._seen[key] < WEIGHTS_AFTER_QUERIES:
                return None
        return self.posting(k1, b)

    def matrix(self, k1: float, b: float, term_matrix: sparse.csr_matrix) -> sparse.csr_matrix:
        """Terms × docs BM25 weights over ``term_matrix`` (the compacted raw frequencies)."""
        return self._kept(self._matrices, _key(k1, b), lambda: csr(
            (self.posting(k1, b), term_matrix.indices, term_matrix.indptr),
            shape=term_matrix.shape), self._size)

    @property
    def pairs(self) -> list[tuple[float, float]]:
        """The (k1, b) pairs whose weight matrices are kept, least recent first."""
        return list(self._matrices)
