"""BM25's formulas and the dense top-k, as small pure functions.

::

    idf(t)      = ln(1 + (N - df + 0.5) / (df + 0.5))
    w(t, d)     = idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * |d| / avgdl))

(Robertson & Zaragoza, 2009; the ``ln(1 + …)`` IDF is Lucene's, which never goes
negative.) :class:`~ragspine_nb.retrieval.bm25.BM25Index` composes them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["idf_lucene", "bm25_weights", "select_top_k", "check_params", "dense_top_k",
           "checked_keys"]


def idf_lucene(df: np.ndarray, n_docs: int) -> np.ndarray:
    """``ln(1 + (N - df + 0.5) / (df + 0.5))`` per term."""
    df = np.asarray(df, dtype=np.float64)
    out: np.ndarray = np.log1p((n_docs - df + 0.5) / (df + 0.5))
    return out


def bm25_weights(tf: np.ndarray, doc_len: np.ndarray, avgdl: float, idf: np.ndarray,
                 k1: float, b: float) -> np.ndarray:
    """Okapi term weights for aligned arrays of tf, document length and idf."""
    norm = k1 * (1.0 - b + b * doc_len / avgdl)
    out: np.ndarray = idf * tf * (k1 + 1.0) / (tf + norm)
    return out


def select_top_k(doc_index: np.ndarray, scores: np.ndarray,
                 k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` best (doc index, score) pairs, best first, ties by lower doc index."""
    if k <= 0 or scores.size == 0:
        return doc_index[:0], scores[:0]
    if scores.size > k:
        cut = np.argpartition(-scores, k - 1)[:k]
        kth = scores[cut].min()
        keep = np.flatnonzero(scores >= kth)  # every tie at the boundary, then trim
        doc_index, scores = doc_index[keep], scores[keep]
    order = np.lexsort((doc_index, -scores))[:k]
    return doc_index[order], scores[order]


def check_params(k1: float, b: float) -> None:
    """Reject a k1 below 0 or a b outside [0, 1] (named errors)."""
    if not (isinstance(k1, int | float) and k1 >= 0):
        raise ValueError(f"k1 must be a number >= 0, got {k1!r}")
    if not (isinstance(b, int | float) and 0 <= b <= 1):
        raise ValueError(f"b must be a number in [0, 1], got {b!r}")


def dense_top_k(scores: np.ndarray, k: int, ids: np.ndarray) -> list[list[tuple[str, float]]]:
    """Row-wise best ``k`` (doc_id, score) of a dense queries × docs score block.

    Ties break by column (document position) and documents scoring 0 are dropped.
    ``ids`` holds the document id of each column (an object array).
    """
    n_rows, n = scores.shape
    if k <= 0 or n == 0:
        return [[] for _ in range(n_rows)]
    k = min(k, n)
    sel = np.argpartition(-scores, k - 1, axis=1)[:, :k] if k < n else \
        np.tile(np.arange(n), (n_rows, 1))
    sel.sort(axis=1)                              # doc position order inside the pick
    vals = np.take_along_axis(scores, sel, axis=1)
    order = np.argsort(-vals, axis=1, kind="stable")
    sel = np.take_along_axis(sel, order, axis=1)
    vals = np.take_along_axis(vals, order, axis=1)
    if k < n:  # a tie at the boundary may hide a lower-positioned doc: redo those rows
        kth = vals[:, -1]
        ties = (scores == kth[:, None]).sum(axis=1) > (vals == kth[:, None]).sum(axis=1)
        for r in np.flatnonzero(ties & (kth > 0)):
            d, v = select_top_k(np.arange(n), scores[r], k)
            sel[r], vals[r] = d, v
    out = []
    for docs, row in zip(sel, vals, strict=True):
        live = row > 0
        out.append(list(zip(ids[docs[live]].tolist(), row[live].tolist(), strict=True)))
    return out


def checked_keys(order_keys: Sequence[int] | np.ndarray | None, n: int) -> np.ndarray | None:
    """Checked tie keys for a build: strictly increasing, one per document."""
    if order_keys is None:
        return None
    keys = np.asarray(order_keys, np.int64)
    if keys.size != n or (n > 1 and not bool((np.diff(keys) > 0).all())):
        raise ValueError("order_keys must be strictly increasing, one per document")
    return keys
