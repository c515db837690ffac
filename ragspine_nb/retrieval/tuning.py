"""Fast re-evaluation of one query set under new BM25 parameters (live k1/b sliders).

For a fixed query set the *structure* of the scores never changes with (k1, b): which
postings each (query, document) score sums is known once. :class:`QuerySetScorer`
precomputes that as a sparse matrix ``M`` (pairs × postings), so a new (k1, b) costs
one re-weighting of the postings, one sparse mat-vec and a scatter into a dense score
block; ranks of the judged documents are then counted directly, with no sort. The
figures equal :func:`~ragspine_nb.retrieval.metrics.evaluate_run` on
:meth:`BM25Index.search_many` (same tie-break by index position).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from scipy import sparse

from ragspine_nb.retrieval.bm25 import DEFAULT_B, DEFAULT_K1, BM25Index
from ragspine_nb.retrieval.fusion import rrf_fuse
from ragspine_nb.retrieval.metrics import RunScores, evaluate_run

__all__ = ["QuerySetScorer", "TuningEngine", "CHANNEL_CHOICES"]

#: The rankings a tuning run can score.
CHANNEL_CHOICES: tuple[str, ...] = ("bm25", "vectors", "hybrid")

_THREADS = max(1, min(4, os.cpu_count() or 1))
_POOL: ThreadPoolExecutor | None = None
_DENSE_LIMIT = 60_000_000  # cells: above this, de-duplicate by sorting instead of a table


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(_THREADS, thread_name_prefix="ragspine-bm25")
    return _POOL


def _unique_with_inverse(flat: np.ndarray, cells: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(flat, return_inverse=True)``, in linear time when a table fits."""
    if cells > _DENSE_LIMIT:
        pairs, inverse = np.unique(flat, return_inverse=True)
        return pairs, inverse
    seen = np.zeros(cells, dtype=bool)
    seen[flat] = True
    pairs = np.flatnonzero(seen)
    table = np.empty(cells, dtype=np.int64)
    table[pairs] = np.arange(pairs.size)
    return pairs, table[flat]


class QuerySetScorer:
    """Scores and metrics of a fixed query set, for any (k1, b), without re-indexing.

    Parameters
    ----------
    index : BM25Index
        The corpus.
    queries : mapping of query id to text (or tokens)
        The query set.
    qrels : mapping, optional
        ``{query id: {doc id: relevance}}``, needed for :meth:`evaluate`.
    """

    def __init__(self, index: BM25Index, queries: Mapping[str, str | Sequence[str]],
                 qrels: Mapping[str, Mapping[str, int]] | None = None) -> None:
        self.index = index
        self.query_ids = list(queries)
        q = index.query_matrix(list(queries.values()))
        n_docs = index.n_docs
        q_rows = np.repeat(np.arange(q.shape[0]), np.diff(q.indptr))
        term_matrix = index.term_matrix
        indptr = term_matrix.indptr
        starts = indptr[q.indices]
        lens = indptr[q.indices + 1] - starts
        total = int(lens.sum())
        positions = np.arange(total, dtype=np.int64) + np.repeat(starts - (np.cumsum(lens) - lens),
                                                                 lens)
        flat = np.repeat(q_rows, lens) * n_docs + index.postings_docs[positions]
        pairs, inverse = _unique_with_inverse(flat, q.shape[0] * n_docs)
        m = sparse.csr_matrix((np.repeat(q.data, lens), (inverse, positions)),
                              shape=(pairs.size, term_matrix.nnz))
        step = -(-m.shape[0] // _THREADS)
        self._blocks = [m[i:i + step] for i in range(0, m.shape[0], step)] or [m]
        self._flat = pairs
        self._pairs = pairs.size
        self._touched = m.nnz
        self._buffer: np.ndarray | None = None
        self._qrels = qrels
        self._judged = self._prepare_qrels(qrels) if qrels is not None else None

    def _prepare_qrels(self, qrels: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
        row_of = {qid: i for i, qid in enumerate(self.query_ids)}
        rq, rd, rel = [], [], []
        n_rel = np.zeros(len(self.query_ids))
        gains: list[list[int]] = [[] for _ in self.query_ids]
        for qid, judged in qrels.items():
            if qid not in row_of:
                continue
            i = row_of[qid]
            gains[i] = sorted((r for r in judged.values() if r > 0), reverse=True)
            n_rel[i] = len(gains[i])
            for did, r in judged.items():
                pos = self.index.position_of(did)
                if pos is not None and r > 0:
                    rq.append(i)
                    rd.append(pos)
                    rel.append(r)
        q_arr = np.array(rq, np.int64)
        return {"q": q_arr, "d": np.array(rd, np.int64),
                "identity": q_arr.size == len(self.query_ids)
                and bool(np.array_equal(q_arr, np.arange(q_arr.size))),
                "rel": np.array(rel, np.float64), "n_rel": n_rel, "gains": gains,
                "idcg": {}}  # k → ideal DCG per query, filled on first use of each k

    def dense_scores(self, k1: float = DEFAULT_K1, b: float = DEFAULT_B) -> np.ndarray:
        """Queries × docs scores for (k1, b) (the sparse mat-vec runs on all cores).

        The returned array is reused by the next call; copy it to keep it.
        """
        w = self.index.weights(k1, b).data
        if len(self._blocks) > 1:
            parts = list(_pool().map(lambda blk: blk @ w, self._blocks))
            values = np.concatenate(parts)
        else:
            values = self._blocks[0] @ w
        # Only the (query, doc) pairs that share a token can be non-zero, and they are the
        # same for every (k1, b): the buffer is zeroed once and those cells overwritten.
        if self._buffer is None:
            self._buffer = np.zeros((len(self.query_ids), self.index.n_docs), dtype=np.float32)
        self._buffer.ravel()[self._flat] = values
        return self._buffer

    def ranks_of_judged(self, scores: np.ndarray) -> np.ndarray:
        """0-based rank of every judged relevant document (``inf`` when it scores 0).

        Rank = documents scoring higher + documents tied before it by index position,
        exactly as :meth:`BM25Index.search_many` orders them.
        """
        j = self._judged
        if j is None:
            raise ValueError("QuerySetScorer was built without qrels")
        rows = scores if j["identity"] else scores[j["q"]]
        own = rows[np.arange(j["d"].size), j["d"]]
        ranks = np.count_nonzero(rows > own[:, None], axis=1).astype(np.float64)
        tied = np.flatnonzero(np.count_nonzero(rows == own[:, None], axis=1) > 1)
        for t in tied:  # rare: count equal scores at lower positions
            ranks[t] += np.count_nonzero(rows[t, : j["d"][t]] == own[t])
        ranks[own <= 0] = np.inf
        result: np.ndarray = ranks
        return result

    def evaluate(self, k1: float = DEFAULT_K1, b: float = DEFAULT_B, k_ndcg: int = 10,
                 k_recall: int = 100) -> RunScores:
        """nDCG@k, Recall@k and MRR of the query set under (k1, b), aggregate and per query."""
        j = self._judged
        if j is None:
            raise ValueError("QuerySetScorer was built without qrels")
        ranks = self.ranks_of_judged(self.dense_scores(k1, b))
        n_q = len(self.query_ids)
        hit_ndcg = ranks < k_ndcg
        dcg = np.bincount(j["q"][hit_ndcg], weights=j["rel"][hit_ndcg] /
                          np.log2(ranks[hit_ndcg] + 2), minlength=n_q)
        idcg = j["idcg"].get(k_ndcg)
        if idcg is None:  # depends on the qrels and k only: not recomputed per slider move
            idcg = j["idcg"][k_ndcg] = np.array(
                [sum(g / math.log2(i + 2) for i, g in enumerate(gains[:k_ndcg]))
                 for gains in j["gains"]])
        ndcg = np.divide(dcg, idcg, out=np.zeros(n_q), where=idcg > 0)
        hits = np.bincount(j["q"][ranks < k_recall], minlength=n_q)
        recall = np.divide(hits, j["n_rel"], out=np.zeros(n_q), where=j["n_rel"] > 0)
        best = np.full(n_q, np.inf)
        np.minimum.at(best, j["q"], ranks)
        rr = np.where(best < k_recall, 1.0 / (best + 1), 0.0)  # MRR within the top k_recall
        per = {qid: {"ndcg": float(ndcg[i]), "recall": float(recall[i]), "mrr": float(rr[i])}
               for i, qid in enumerate(self.query_ids)}
        judged = [i for i, q in enumerate(self.query_ids) if q in (self._qrels or {})]
        n = max(len(judged), 1)
        return RunScores(ndcg=float(ndcg[judged].sum() / n), recall=float(recall[judged].sum() / n),
                         mrr=float(rr[judged].sum() / n), k_ndcg=k_ndcg, k_recall=k_recall,
                         per_query=per)

    def __repr__(self) -> str:
        return (f"QuerySetScorer(queries={len(self.query_ids)}, pairs={self._pairs}, "
                f"postings_touched={self._touched})")


class TuningEngine:
    """The computation behind the panel, usable without widgets (and in benchmarks).

    Parameters
    ----------
    bm25 : BM25Index
        The corpus (document ids must be the ids used in ``qrels``).
    queries : mapping
        Query id → text.
    qrels : mapping
        Query id → {doc id: relevance}.
    vector_runs : mapping, optional
        Query id → ranked doc ids from a dense model (enables ``vectors`` and ``hybrid``).
    """

    def __init__(self, bm25: BM25Index, queries: Mapping[str, str],
                 qrels: Mapping[str, Mapping[str, int]],
                 vector_runs: Mapping[str, list[str]] | None = None, depth: int = 100) -> None:
        self.bm25 = bm25
        self.queries = dict(queries)
        self.qrels = {q: dict(qrels[q]) for q in self.queries if q in qrels}
        self.vector_runs = dict(vector_runs) if vector_runs else None
        self.depth = depth
        self.scorer = QuerySetScorer(bm25, self.queries, self.qrels)
        self.last_ms = 0.0

    def channels(self) -> tuple[str, ...]:
        """Channels available with the data given."""
        return CHANNEL_CHOICES if self.vector_runs else ("bm25",)

    def _bm25_runs(self, k1: float, b: float) -> dict[str, list[str]]:
        # the index's own top-k (ties by position, zeros dropped), as search_many orders them
        tops = self.bm25.top_k(self.scorer.dense_scores(k1, b), self.depth)
        return {qid: [d for d, _ in top] for qid, top in zip(self.scorer.query_ids, tops,
                                                             strict=True)}

    def evaluate(self, k1: float = 1.5, b: float = 0.75, rrf_k: int = 60, top_k: int = 100,
                 channel: str = "bm25") -> RunScores:
        """Metrics for one configuration (nDCG@10, Recall@top_k, MRR)."""
        if channel not in self.channels():
            raise ValueError(f"channel {channel!r} not available; choose from {self.channels()}")
        t0 = time.perf_counter()
        if channel == "bm25" and top_k <= self.depth:
            result = self.scorer.evaluate(k1, b, k_ndcg=10, k_recall=top_k)
        else:
            if channel == "vectors":
                runs = dict(self.vector_runs or {})
            else:
                bm = self._bm25_runs(k1, b)
                runs = bm if channel == "bm25" else {
                    q: [d for d, _ in rrf_fuse([bm.get(q, []), (self.vector_runs or {})
                                                .get(q, [])], k=rrf_k)][:self.depth]
                    for q in self.queries}
            result = evaluate_run(runs, self.qrels, k_ndcg=10, k_recall=top_k)
        self.last_ms = (time.perf_counter() - t0) * 1e3
        return result
