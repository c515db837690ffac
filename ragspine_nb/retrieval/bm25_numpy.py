"""The BM25 query loop in numpy: the same bits as the compiled loop, for machines without numba.

:func:`~ragspine_nb.retrieval.bm25_kernels.top_k_batch` runs a batch here until numba pays
for its load (or always, without numba). Per query, in the order its distinct terms first
appear: each segment's postings of the term are weighted (or read from the cached
weights of the main segment) and added to a float32 accumulator with numpy's scatter-add,
then the best ``k`` of the touched, allowed slots are kept, ties by the lower tie key.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

__all__ = ["Segment", "query_numpy", "select_numpy"]


class Segment(Protocol):
    """A terms × docs CSR of raw term frequencies (:class:`~.bm25_kernels.Postings`)."""

    @property
    def ptr(self) -> np.ndarray: ...  # noqa: D102
    @property
    def docs(self) -> np.ndarray: ...  # noqa: D102
    @property
    def tf(self) -> np.ndarray: ...  # noqa: D102


def query_numpy(terms: np.ndarray, counts: np.ndarray, idf: np.ndarray, k1p1: float,
                norm: np.ndarray, segments: Sequence[Segment], main_w: np.ndarray | None,
                acc: np.ndarray) -> np.ndarray:
    """Accumulate one query into ``acc`` (same float32 steps as the loop); touched slots."""
    touched = []
    for t, cnt in zip(terms.tolist(), counts, strict=True):
        for n, seg in enumerate(segments):
            lo, hi = seg.ptr[t], seg.ptr[t + 1]
            if lo == hi:
                continue
            docs = seg.docs[lo:hi]
            if n == 0 and main_w is not None:
                w = main_w[lo:hi]
            else:
                f = seg.tf[lo:hi].astype(np.float64)
                w = (idf[t] * f * k1p1 / (f + norm[docs])).astype(np.float32)
            acc[docs] += cnt * w
            touched.append(docs)
    if not touched:
        return np.zeros(0, np.int32)
    seen = np.zeros(acc.shape[0], np.bool_)  # a mask, not np.unique: O(docs), no hashing
    for docs in touched:
        seen[docs] = True
    return np.flatnonzero(seen).astype(np.int32)


def select_numpy(acc: np.ndarray, touched: np.ndarray, allowed: np.ndarray,
                 tie: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The best ``k`` touched, allowed slots with a score above 0, and their scores.

    Best first, ties by the lower ``tie`` key; the touched slots of ``acc`` are reset to 0.
    """
    docs = touched[allowed[touched]]
    scores = acc[docs]
    acc[touched] = 0
    live = scores > 0
    docs, scores = docs[live], scores[live]
    if docs.size > k:
        kth = scores[np.argpartition(-scores, k - 1)[k - 1]]
        keep = scores >= kth  # every tie at the boundary, then the tie key trims
        docs, scores = docs[keep], scores[keep]
    order = np.lexsort((tie[docs], -scores))[:k]
    return docs[order], scores[order]
