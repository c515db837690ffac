# mypy: disable-error-code="no-untyped-call"
"""The BM25 query loop: accumulate each query's postings, keep its best ``k`` documents.

One algorithm, two implementations that produce the same bits: a compiled loop
(numba, when installed; here) and a numpy loop (:mod:`~ragspine_nb.retrieval.bm25_numpy`).
For every query, in the order its distinct terms first appear in the query (so the
float32 sums do not depend on term ids)::

    w(t, d)   = float32(idf(t) * tf * (k1 + 1) / (tf + norm(d)))
    acc[d]   += count(t) * w(t, d)                 (float32)
    top k     = best acc[d] over the touched, allowed documents; ties by lower tie key

where ``norm(d) = k1 * (1 - b + b * |d| / avgdl)``. Only the documents a query
touches are ranked (a heap of size ``k``), so a query costs its postings, not the
corpus size; a query that reads most documents scans them all without branching.
Postings come in segments (a main block and a small delta block of recent additions),
each a terms × docs CSR of raw term frequencies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ragspine_nb.retrieval.bm25_numpy import query_numpy, select_numpy
from ragspine_nb.retrieval.compiled import WorkCounter, compiled_now, njit

__all__ = ["Postings", "QueryBatch", "TopK", "distinct_terms", "top_k_batch",
           "COMPILE_AFTER_QUERIES"]

#: queries a process ranks on the numpy loop before it loads numba. Loading numba and its
#: cached kernels costs about 0.8 s; the compiled loop is 2-5x faster a query (0.6 vs 1.4
#: ms over the agent's queries on the 29 FinanceBench dev 10-Ks). One question's searches
#: (about 8 queries) never reach it: a one-shot ``ragspine-nb ask`` does not pay for the
#: compiler, a session that keeps asking loads it within its first questions. Both loops
#: give the same bits: switching changes no ranking, only its cost.
COMPILE_AFTER_QUERIES = 64
_QUERIES = WorkCounter(COMPILE_AFTER_QUERIES)


@dataclass(frozen=True)
class Postings:
    """One segment's postings, terms × docs CSR: ``docs[ptr[t]:ptr[t+1]]`` hold term ``t``."""

    ptr: np.ndarray    # int64, one more than the vocabulary
    docs: np.ndarray   # int32 document slots, ascending inside each term
    tf: np.ndarray     # float32 raw term frequencies


@dataclass(frozen=True)
class QueryBatch:
    """Queries as CSR over distinct term ids in first-appearance order, with their counts."""

    ptr: np.ndarray    # int64, one more than the number of queries
    terms: np.ndarray  # int64 term ids
    counts: np.ndarray  # float32 occurrences of the term in the query


@dataclass(frozen=True)
class TopK:
    """Rankings of a batch, flat: query ``i`` owns ``docs[offsets[i]:offsets[i+1]]``."""

    offsets: np.ndarray  # int64, one more than the number of queries
    docs: np.ndarray     # int32 slots, best first inside each query
    scores: np.ndarray   # float32


# ------------------------------------------------------------------ compiled path
@njit
def _accumulate(ptr, docs, tf, t, idf_t, k1p1, cnt, norm, acc, touched, nt):  # type: ignore[no-untyped-def]  # noqa: E501  # pragma: no cover
    for p in range(ptr[t], ptr[t + 1]):
        d = docs[p]
        f = np.float64(tf[p])
        w = np.float32(idf_t * f * k1p1 / (f + norm[d]))
        if nt >= 0 and acc[d] == 0:
            touched[nt] = d
            nt += 1
        acc[d] += cnt * w
    return nt


@njit
def _accumulate_w(ptr, docs, w, t, cnt, acc, touched, nt):  # type: ignore[no-untyped-def]  # pragma: no cover
    if nt < 0:  # dense mode: every slot is scanned afterwards, nothing to track
        for p in range(ptr[t], ptr[t + 1]):
            acc[docs[p]] += cnt * w[p]
        return nt
    for p in range(ptr[t], ptr[t + 1]):
        d = docs[p]
        if acc[d] == 0:
            touched[nt] = d
            nt += 1
        acc[d] += cnt * w[p]
    return nt


@njit
def _worse(s1, t1, s2, t2):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Whether (score s1, tie key t1) ranks below (s2, t2): lower score, then higher key."""
    return s1 < s2 or (s1 == s2 and t1 > t2)


@njit
def _sift_down(hs, ht, hd, n, j):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Restore the heap (worst entry at the root) below ``j``."""
    s, t, d = hs[j], ht[j], hd[j]
    while True:
        c = 2 * j + 1
        if c >= n:
            break
        if c + 1 < n and _worse(hs[c + 1], ht[c + 1], hs[c], ht[c]):
            c += 1
        if not _worse(hs[c], ht[c], s, t):
            break
        hs[j], ht[j], hd[j] = hs[c], ht[c], hd[c]
        j = c
    hs[j], ht[j], hd[j] = s, t, d


#: a positive float32's bits shifted by this keep its exponent and 4 mantissa bits: a
#: histogram bin 1/16 of an octave wide, monotonic in the score
_BIN_SHIFT = 19
_N_BINS = (0x7F800000 >> _BIN_SHIFT) + 1


@njit
def _threshold_bin(acc, bits, touched, nt, allowed, k, hist):  # type: ignore[no-untyped-def]  # noqa: E501  # pragma: no cover
    """The lowest score bin that still holds a query's best ``k`` (0 when all fit)."""
    lo, hi, total = hist.shape[0], -1, 0
    for j in range(nt if nt >= 0 else acc.shape[0]):
        d = touched[j] if nt >= 0 else j
        if acc[d] > 0 and allowed[d]:
            b = bits[d] >> _BIN_SHIFT
            hist[b] += 1
            total += 1
            lo, hi = min(lo, b), max(hi, b)
    thr, seen = 0, 0
    if total > k:
        for b in range(hi, lo - 1, -1):
            seen += hist[b]
            if seen >= k:
                thr = b
                break
    for b in range(lo, hi + 1):
        hist[b] = 0
    return thr


@njit
def _offer(s, t, d, h, k, hs, ht, hd):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Offer slot ``d`` (score ``s``, tie key ``t``) to the heap of ``h`` <= ``k`` entries."""
    if h < k:  # push: sift up
        i = h
        h += 1
        while i > 0:
            p = (i - 1) >> 1
            if not _worse(s, t, hs[p], ht[p]):
                break
            hs[i], ht[i], hd[i] = hs[p], ht[p], hd[p]
            i = p
        hs[i], ht[i], hd[i] = s, t, d
    elif s >= hs[0] and _worse(hs[0], ht[0], s, t):
        hs[0], ht[0], hd[0] = s, t, d
        _sift_down(hs, ht, hd, h, 0)
    return h


@njit
def _sorted_out(h, hs, ht, hd, out_d, out_s):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Heap-sort the ``h`` entries (the worst goes last) into ``out``; return ``h``."""
    for end in range(h - 1, 0, -1):
        hs[0], hs[end] = hs[end], hs[0]
        ht[0], ht[end] = ht[end], ht[0]
        hd[0], hd[end] = hd[end], hd[0]
        _sift_down(hs, ht, hd, end, 0)
    out_s[:h] = hs[:h]
    out_d[:h] = hd[:h]
    return h


@njit
def _select(acc, bits, touched, nt, allowed, tie, k, hist, hs, ht, hd, out_d, out_s):  # type: ignore[no-untyped-def]  # noqa: E501  # pragma: no cover
    """Best ``k`` of the touched slots into ``out``, best first, resetting ``acc``.

    A histogram of the scores' float bits gives a bin that the ``k``-th best reaches;
    only slots in or above it enter a heap of size ``k`` ordered by (score, tie key)
    with its worst entry at the root, which a heap sort then puts in order.
    """
    thr = _threshold_bin(acc, bits, touched, nt, allowed, k, hist)
    h = 0
    for j in range(nt if nt >= 0 else acc.shape[0]):  # nt < 0: scan every slot
        d = touched[j] if nt >= 0 else j
        s = acc[d]
        if s == 0:
            continue
        b = bits[d] >> _BIN_SHIFT
        acc[d] = 0
        if s < 0 or b < thr or not allowed[d]:
            continue
        h = _offer(s, tie[d], d, h, k, hs, ht, hd)
    return _sorted_out(h, hs, ht, hd, out_d, out_s)


@njit
def _select_dense(acc, bits, allowed, tie, k, hist, buf, hs, ht, hd, out_d, out_s):  # type: ignore[no-untyped-def]  # noqa: E501  # pragma: no cover
    """:func:`_select` for a query that read most slots: every slot is scanned, no list.

    The loops carry no branch on the scores (a slot that is zero, negative or not allowed
    counts in bin 0, which is never above the threshold; a slot is written to ``buf``
    and kept only when it reaches the threshold), so they run at memory speed; the
    ``k``-th best's bin leaves about ``k`` candidates for the heap, and one fill zeroes
    ``acc``. Same entries, same order as :func:`_select`.
    """
    n, hi = acc.shape[0], 0
    for d in range(n):
        b = max(bits[d] >> _BIN_SHIFT, 1) * (allowed[d] and acc[d] > 0)
        hist[b] += 1
        hi = max(hi, b)
    thr, seen = 1, 0
    for b in range(hi, 0, -1):
        seen += hist[b]
        if seen >= k:
            thr = b
            break
    hist[:hi + 1] = 0
    c = 0
    for d in range(n):
        buf[c] = d
        c += (acc[d] > 0) & ((bits[d] >> _BIN_SHIFT) >= thr)
    h = 0
    for j in range(c):
        d = buf[j]
        if allowed[d]:
            h = _offer(acc[d], tie[d], d, h, k, hs, ht, hd)
    acc[:] = 0
    return _sorted_out(h, hs, ht, hd, out_d, out_s)


@njit
def _top_k_compiled(q_ptr, q_terms, q_counts, idf, k1p1, norm, m_ptr, m_docs, m_tf,  # type: ignore[no-untyped-def]  # noqa: E501
                    m_w, d_ptr, d_docs, d_tf, allowed, tie, k, out_docs, out_scores,
                    out_n):  # pragma: no cover - compiled
    n_slots = norm.shape[0]
    acc = np.zeros(n_slots, dtype=np.float32)
    bits = acc.view(np.int32)
    hist = np.zeros(_N_BINS, dtype=np.int64)
    touched = np.empty(n_slots, dtype=np.int32)
    hs = np.empty(max(k, 1), dtype=np.float32)
    ht = np.empty(max(k, 1), dtype=tie.dtype)
    hd = np.empty(max(k, 1), dtype=np.int32)
    for i in range(q_ptr.shape[0] - 1):
        reads = 0
        for j in range(q_ptr[i], q_ptr[i + 1]):
            t = q_terms[j]
            reads += m_ptr[t + 1] - m_ptr[t] + d_ptr[t + 1] - d_ptr[t]
        nt = -1 if reads * 4 > n_slots else 0  # a query reading most slots scans them all
        for j in range(q_ptr[i], q_ptr[i + 1]):
            t, cnt = q_terms[j], q_counts[j]
            if m_w.shape[0]:  # the main segment's weights are cached for these (k1, b)
                nt = _accumulate_w(m_ptr, m_docs, m_w, t, cnt, acc, touched, nt)
            else:
                nt = _accumulate(m_ptr, m_docs, m_tf, t, idf[t], k1p1, cnt, norm, acc,
                                 touched, nt)
            nt = _accumulate(d_ptr, d_docs, d_tf, t, idf[t], k1p1, cnt, norm, acc, touched, nt)
        if nt < 0:
            out_n[i] = _select_dense(acc, bits, allowed, tie, k, hist, touched, hs, ht, hd,
                                     out_docs[i], out_scores[i])
        else:
            out_n[i] = _select(acc, bits, touched, nt, allowed, tie, k, hist, hs, ht, hd,
                               out_docs[i], out_scores[i])


@njit
def _distinct_compiled(lens, raw, n_terms):  # type: ignore[no-untyped-def]  # pragma: no cover
    mark = np.full(n_terms, -1, np.int64)
    slot = np.empty(n_terms, np.int64)
    ptr = np.zeros(lens.shape[0] + 1, np.int64)
    terms = np.empty(raw.shape[0], np.int64)
    counts = np.empty(raw.shape[0], np.float32)
    m = j = 0
    for i in range(lens.shape[0]):
        for _ in range(lens[i]):
            t = raw[j]
            j += 1
            if t < 0:
                continue
            if mark[t] != i:
                mark[t], slot[t], terms[m], counts[m] = i, m, t, 1
                m += 1
            else:
                counts[slot[t]] += 1
        ptr[i + 1] = m
    return ptr, terms[:m], counts[:m]


def distinct_terms(lens: np.ndarray, raw: np.ndarray, n_terms: int) -> QueryBatch:
    """Queries as distinct term ids in first-appearance order, with counts.

    ``raw`` holds every query's token ids back to back (``lens`` per query), -1 for a
    token outside the vocabulary of ``n_terms`` terms.

    Examples
    --------
    >>> qb = distinct_terms(np.array([3, 2]), np.array([4, -1, 4, 2, 0]), 5)
    >>> qb.ptr.tolist(), qb.terms.tolist(), qb.counts.tolist()
    ([0, 1, 3], [4, 2, 0], [2.0, 1.0, 1.0])
    """
    if compiled_now():
        return QueryBatch(*_distinct_compiled(lens, raw, n_terms))
    ptr, j = [0], 0
    terms: list[int] = []
    counts: list[int] = []
    for n in lens.tolist():
        seen: dict[int, int] = {}  # insertion order: first appearance
        for t in raw[j:j + n].tolist():
            if t >= 0:
                seen[t] = seen.get(t, 0) + 1
        j += n
        terms.extend(seen)
        counts.extend(seen.values())
        ptr.append(len(terms))
    return QueryBatch(np.asarray(ptr, np.int64), np.asarray(terms, np.int64),
                      np.asarray(counts, np.float32))


def top_k_batch(queries: QueryBatch, idf: np.ndarray, norm: np.ndarray, k1: float,
                segments: Sequence[Postings], allowed: np.ndarray, tie: np.ndarray,
                k: int, main_weights: np.ndarray | None = None) -> TopK:
    """Each query's best ``k`` document slots and float32 scores, best first.

    Parameters
    ----------
    queries : QueryBatch
        Distinct term ids per query, in first-appearance order, with counts.
    idf, norm : numpy.ndarray
        Per-term idf and per-slot :func:`doc_norms` (float64).
    k1 : float
        The saturation parameter (``norm`` already carries ``b``).
    segments : sequence of Postings
        One or two segments over the same vocabulary and slots.
    allowed : numpy.ndarray
        Boolean per slot: a live document the caller allows.
    tie : numpy.ndarray
        int64 per slot: among equal scores the lower key ranks first.
    k : int
        Depth.
    main_weights : numpy.ndarray, optional
        :func:`posting_weights` of the main segment for these parameters (faster).
    """
    n_q = len(queries.ptr) - 1
    k = min(k, norm.shape[0])
    if k <= 0 or n_q == 0:
        return TopK(np.zeros(n_q + 1, np.int64), np.zeros(0, np.int32), np.zeros(0, np.float32))
    if _QUERIES.compiled(n_q):
        main = segments[0]
        delta = segments[1] if len(segments) > 1 else Postings(
            np.zeros(len(main.ptr), np.int64), np.zeros(0, np.int32), np.zeros(0, np.float32))
        out_docs = np.empty((n_q, k), np.int32)
        out_scores = np.empty((n_q, k), np.float32)
        out_n = np.zeros(n_q, np.int64)
        m_w = main_weights if main_weights is not None else np.zeros(0, np.float32)
        _top_k_compiled(queries.ptr, queries.terms, queries.counts, idf, k1 + 1.0, norm,
                        main.ptr, main.docs, main.tf, m_w, delta.ptr, delta.docs, delta.tf,
                        allowed, tie, k, out_docs, out_scores, out_n)
        filled = np.arange(k) < out_n[:, None]
        return TopK(np.concatenate([[0], np.cumsum(out_n)]), out_docs[filled],
                    out_scores[filled])
    acc = np.zeros(norm.shape[0], np.float32)
    found = []
    for i in range(n_q):
        lo, hi = queries.ptr[i], queries.ptr[i + 1]
        touched = query_numpy(queries.terms[lo:hi], queries.counts[lo:hi], idf, k1 + 1.0,
                               norm, segments, main_weights, acc)
        found.append(select_numpy(acc, touched, allowed, tie, k))
    sizes = [d.size for d, _ in found]
    return TopK(np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
                np.concatenate([d for d, _ in found]).astype(np.int32),
                np.concatenate([s for _, s in found]).astype(np.float32))
