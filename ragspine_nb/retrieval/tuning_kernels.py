"""Kernels behind :class:`~ragspine_nb.retrieval.tuning.QuerySetScorer`: dense BM25 blocks.

A query set is a queries × terms CSR of counts, the corpus a terms × docs CSR of
BM25 weights for the current (k1, b). Every kernel computes, per query row and in
the order of the row's term ids (ascending, as ``Q @ W`` in scipy sums them)::

    score[q, d] = float32 sum over the query's terms t of float32(count(q, t) * w(t, d))

so the compiled loop (numba, when installed) and the scipy fallback produce the same
bits. The rank of a judged document ``d`` in row ``q`` is the number of documents
scoring higher plus the number tied with it at lower positions (``inf`` when it
scores 0), exactly as :meth:`BM25Index.search_many` orders results.

Memory: the compiled rank kernel needs one row (``n_docs`` float32) at a time; the
fallback works in blocks of at most :data:`BLOCK_CELLS` cells of the score block.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ragspine_nb.retrieval.compiled import njit, numba_enabled

if TYPE_CHECKING:
    from scipy import sparse

__all__ = ["BLOCK_CELLS", "QueryRows", "block_rows", "fill_rows", "judged_ranks",
           "ranks_in_block"]

Arr = np.ndarray

#: Most cells (queries × docs, float32) a dense score block holds at once: 128 MB.
BLOCK_CELLS = 32_000_000


@dataclass(frozen=True)
class QueryRows:
    """A query set against one corpus, both CSR, with arrays typed for the kernels.

    Attributes
    ----------
    q : scipy.sparse.csr_matrix
        Queries × terms counts (float32), canonical: sorted term ids, no duplicates.
    t_ptr : numpy.ndarray
        int64 row pointer of the corpus terms × docs matrix.
    t_docs : numpy.ndarray
        Document position of each posting (aligned with the weights' ``data``).
    """

    q: sparse.csr_matrix
    t_ptr: np.ndarray
    t_docs: np.ndarray

    @property
    def q_ptr(self) -> np.ndarray:
        """int64 row pointer of :attr:`q`."""
        out: np.ndarray = self.q.indptr.astype(np.int64, copy=False)
        return out

    @property
    def postings(self) -> int:
        """Postings one full scoring pass reads (sum over queries of their terms' df)."""
        return int(np.diff(self.t_ptr)[self.q.indices].sum())


def block_rows(n_docs: int, cells: int | None = None) -> int:
    """Rows of a dense score block that fit in ``cells`` cells (at least one).

    ``cells`` defaults to :data:`BLOCK_CELLS`, read at call time.

    Examples
    --------
    >>> block_rows(5_000, cells=12_000)
    2
    """
    return max(1, (BLOCK_CELLS if cells is None else cells) // max(n_docs, 1))


# ------------------------------------------------------------------ compiled path
@njit
def _fill_row(q_ptr: Arr, q_terms: Arr, q_counts: Arr, t_ptr: Arr, t_docs: Arr, w: Arr, i: int,
              row: Arr) -> None:  # pragma: no cover - compiled
    row[:] = 0
    for j in range(q_ptr[i], q_ptr[i + 1]):
        t, c = q_terms[j], q_counts[j]
        for p in range(t_ptr[t], t_ptr[t + 1]):
            row[t_docs[p]] += c * w[p]


@njit
def _fill_compiled(q_ptr: Arr, q_terms: Arr, q_counts: Arr, t_ptr: Arr, t_docs: Arr, w: Arr,
                   r0: int, out: Arr) -> None:  # pragma: no cover - compiled
    for r in range(out.shape[0]):
        _fill_row(q_ptr, q_terms, q_counts, t_ptr, t_docs, w, r0 + r, out[r])


@njit
def _rank_in_row(row: Arr, d: int) -> float:  # pragma: no cover - compiled
    own = row[d]
    if own <= 0:
        return np.inf
    above = 0
    for k in range(row.shape[0]):
        if row[k] > own:
            above += 1
    for k in range(d):  # ties rank by index position
        if row[k] == own:
            above += 1
    return float(above)


@njit
def _ranks_compiled(q_ptr: Arr, q_terms: Arr, q_counts: Arr, t_ptr: Arr, t_docs: Arr, w: Arr,
                    j_ptr: Arr, j_docs: Arr, row: Arr,
                    ranks: Arr) -> None:  # pragma: no cover - compiled
    for i in range(j_ptr.shape[0] - 1):
        if j_ptr[i] == j_ptr[i + 1]:
            continue  # no judged document: the row is never needed
        _fill_row(q_ptr, q_terms, q_counts, t_ptr, t_docs, w, i, row)
        for e in range(j_ptr[i], j_ptr[i + 1]):
            ranks[e] = _rank_in_row(row, j_docs[e])


# ------------------------------------------------------------------ dispatch
def fill_rows(rows: QueryRows, weights: sparse.csr_matrix, r0: int, out: np.ndarray) -> None:
    """Write the scores of queries ``r0 .. r0 + len(out)`` into ``out`` (float32, overwritten).

    Parameters
    ----------
    rows : QueryRows
        The query set and corpus structure.
    weights : scipy.sparse.csr_matrix
        Terms × docs BM25 weights (float32), same structure as the corpus matrix.
    r0 : int
        First query row.
    out : numpy.ndarray
        C-contiguous float32 block, ``len(out)`` rows × ``n_docs``.
    """
    if numba_enabled():
        _fill_compiled(rows.q_ptr, rows.q.indices, rows.q.data, rows.t_ptr, rows.t_docs,
                       weights.data, r0, out)
        return
    out.fill(0)  # csr toarray(out=...) adds into the block
    (rows.q[r0:r0 + out.shape[0]] @ weights).toarray(out=out)


def ranks_in_block(block: np.ndarray, rows: np.ndarray, docs: np.ndarray) -> np.ndarray:
    """Rank of document ``docs[e]`` in row ``rows[e]`` of ``block`` (numpy).

    Parameters
    ----------
    block : numpy.ndarray
        Dense score rows.
    rows, docs : numpy.ndarray
        Aligned row indices into ``block`` and document positions.

    Returns
    -------
    numpy.ndarray
        float64 0-based ranks; ``inf`` where the document scores 0.
    """
    scores = block[rows]
    own = scores[np.arange(docs.size), docs]
    ranks = np.count_nonzero(scores > own[:, None], axis=1).astype(np.float64)
    tied = np.flatnonzero(np.count_nonzero(scores == own[:, None], axis=1) > 1)
    for t in tied:  # rare: count equal scores at lower positions
        ranks[t] += np.count_nonzero(scores[t, : docs[t]] == own[t])
    ranks[own <= 0] = np.inf
    out: np.ndarray = ranks
    return out


def _judged_blocks(j_ptr: np.ndarray, n_docs: int) -> Iterator[np.ndarray]:
    """The judged query rows, in blocks of at most :data:`BLOCK_CELLS` dense cells."""
    judged = np.flatnonzero(np.diff(j_ptr))
    step = block_rows(n_docs)
    for s in range(0, judged.size, step):
        yield judged[s:s + step]


def judged_ranks(rows: QueryRows, weights: sparse.csr_matrix, j_ptr: np.ndarray,
                 j_docs: np.ndarray, n_docs: int) -> np.ndarray:
    """Rank of every judged document, for judged documents grouped by query row.

    Parameters
    ----------
    rows : QueryRows
        The query set and corpus structure.
    weights : scipy.sparse.csr_matrix
        Terms × docs BM25 weights (float32).
    j_ptr : numpy.ndarray
        int64, one more than the queries: query ``i`` owns ``j_docs[j_ptr[i]:j_ptr[i+1]]``.
    j_docs : numpy.ndarray
        int64 document positions of the judged documents.
    n_docs : int
        Documents in the corpus.

    Returns
    -------
    numpy.ndarray
        float64 ranks aligned with ``j_docs`` (``inf`` where the document scores 0).
    """
    ranks = np.full(j_docs.size, np.inf)
    if numba_enabled():
        row = np.empty(n_docs, np.float32)
        _ranks_compiled(rows.q_ptr, rows.q.indices, rows.q.data, rows.t_ptr, rows.t_docs,
                        weights.data, j_ptr, j_docs, row, ranks)
        return ranks
    for qs in _judged_blocks(j_ptr, n_docs):
        block = np.zeros((qs.size, n_docs), np.float32)
        (rows.q[qs] @ weights).toarray(out=block)
        counts = j_ptr[qs + 1] - j_ptr[qs]
        lo = int(j_ptr[qs[0]])
        hi = lo + int(counts.sum())
        ranks[lo:hi] = ranks_in_block(block, np.repeat(np.arange(qs.size), counts),
                                      j_docs[lo:hi])
    return ranks
