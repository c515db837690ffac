"""Fast re-evaluation of one query set under new BM25 parameters (live k1/b sliders).

For a fixed query set only the postings' weights change with (k1, b). Set-up keeps
the queries × terms count matrix; a new (k1, b) re-weights the postings (the index's
cached :meth:`BM25Index.weights`), adds each query's terms' postings straight into a
dense score row (:mod:`~ragspine_nb.retrieval.tuning_kernels`: a compiled loop with
numba, ``Q @ W`` in row blocks without) and counts the ranks of the judged
documents directly, with no sort. The figures equal
:func:`~ragspine_nb.retrieval.metrics.evaluate_run` on :meth:`BM25Index.search_many`
(same float32 sums, same tie-break by index position).

Memory per (k1, b): one row of ``n_docs`` float32 (compiled) or dense blocks of at
most :data:`~ragspine_nb.retrieval.tuning_kernels.BLOCK_CELLS` cells (fallback);
:meth:`QuerySetScorer.dense_scores` alone holds the whole queries × docs block.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ragspine_nb.retrieval.bm25 import DEFAULT_B, DEFAULT_K1, BM25Index
from ragspine_nb.retrieval.fusion import rrf_fuse
from ragspine_nb.retrieval.metrics import RunScores, evaluate_run
from ragspine_nb.retrieval.tuning_kernels import (
    QueryRows,
    block_rows,
    fill_rows,
    judged_ranks,
    ranks_in_block,
)

__all__ = ["QuerySetScorer", "TuningEngine", "CHANNEL_CHOICES", "judged_cells", "run_scores"]

#: The rankings a tuning run can score.
CHANNEL_CHOICES: tuple[str, ...] = ("bm25", "vectors", "hybrid")


def judged_cells(index: BM25Index, query_ids: Sequence[str],
                 qrels: Mapping[str, Mapping[str, int]]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[list[int]]]:
    """The relevant (query row, document position, relevance) cells of ``qrels``.

    Returns the three aligned arrays, each query's count of relevant judgements and
    their gains, best first (for the ideal DCG). Unknown queries and documents (not in
    the index) are skipped; documents still count in ``n_rel``.
    """
    row_of = {qid: i for i, qid in enumerate(query_ids)}
    rq, rd, rel = [], [], []
    n_rel = np.zeros(len(query_ids))
    gains: list[list[int]] = [[] for _ in query_ids]
    for qid, judged in qrels.items():
        if qid not in row_of:
            continue
        i = row_of[qid]
        gains[i] = sorted((r for r in judged.values() if r > 0), reverse=True)
        n_rel[i] = len(gains[i])
        for did, r in judged.items():
            pos = index.position_of(did)
            if pos is not None and r > 0:
                rq.append(i)
                rd.append(pos)
                rel.append(r)
    return (np.array(rq, np.int64), np.array(rd, np.int64), np.array(rel, np.float64), n_rel,
            gains)


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

    Notes
    -----
    Set-up costs the query matrix only. Each :meth:`evaluate` reads every posting of
    every judged query's terms once and compares each judged document with its row.
    """

    def __init__(self, index: BM25Index, queries: Mapping[str, str | Sequence[str]],
                 qrels: Mapping[str, Mapping[str, int]] | None = None) -> None:
        self.index = index
        self.query_ids = list(queries)
        q = index.query_matrix(list(queries.values())).astype(np.float32)
        q.sum_duplicates()  # canonical: a row sums its terms in ascending id order,
        q.sort_indices()    # as the scorer always has
        self._rows = QueryRows(q, index.term_matrix.indptr.astype(np.int64),
                               index.postings_docs)
        self._buffer: np.ndarray | None = None
        self._block: np.ndarray | None = None
        self._qrels = qrels
        self._judged = self._prepare_qrels(qrels) if qrels is not None else None

    def _prepare_qrels(self, qrels: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
        q_arr, d_arr, rel, n_rel, gains = judged_cells(self.index, self.query_ids, qrels)
        order = np.argsort(q_arr, kind="stable")  # judged documents grouped by query row
        j_ptr = np.zeros(len(self.query_ids) + 1, np.int64)
        np.cumsum(np.bincount(q_arr, minlength=len(self.query_ids)), out=j_ptr[1:])
        return {"q": q_arr, "d": d_arr, "order": order, "j_ptr": j_ptr,
                "j_docs": np.ascontiguousarray(d_arr[order]),
                "identity": q_arr.size == len(self.query_ids)
                and bool(np.array_equal(q_arr, np.arange(q_arr.size))),
                "rel": rel, "n_rel": n_rel, "gains": gains,
                "rows": np.array([i for i, qid in enumerate(self.query_ids) if qid in qrels],
                                 np.int64),
                "idcg": {}}  # k → ideal DCG per query, filled on first use of each k

    def score_blocks(self, k1: float = DEFAULT_K1,
                     b: float = DEFAULT_B) -> Iterator[tuple[int, np.ndarray]]:
        """Dense scores for (k1, b) as ``(first row, rows × docs block)``, in query order.

        Blocks hold at most ``BLOCK_CELLS`` cells; each one is overwritten by the next.
        """
        weights = self.index.weights(k1, b)
        n_q, n_docs = len(self.query_ids), self.index.n_docs
        step = min(block_rows(n_docs), max(n_q, 1))
        if self._block is None or self._block.shape != (step, n_docs):
            self._block = np.empty((step, n_docs), dtype=np.float32)
        block = self._block
        for r0 in range(0, n_q, step):
            out = block[: min(step, n_q - r0)]
            fill_rows(self._rows, weights, r0, out)
            yield r0, out

    def dense_scores(self, k1: float = DEFAULT_K1, b: float = DEFAULT_B) -> np.ndarray:
        """Queries × docs scores for (k1, b) (float32, the whole block in memory).

        The returned array is reused by the next call; copy it to keep it.
        """
        n_q, n_docs = len(self.query_ids), self.index.n_docs
        if self._buffer is None:
            self._buffer = np.empty((n_q, n_docs), dtype=np.float32)
        weights = self.index.weights(k1, b)
        step = block_rows(n_docs)
        for r0 in range(0, n_q, step):  # row blocks bound the fallback's sparse product
            fill_rows(self._rows, weights, r0, self._buffer[r0:r0 + step])
        return self._buffer

    def _require_judged(self) -> dict[str, Any]:
        if self._judged is None:
            raise ValueError("QuerySetScorer was built without qrels")
        return self._judged

    def ranks_of_judged(self, scores: np.ndarray) -> np.ndarray:
        """0-based rank of every judged relevant document (``inf`` when it scores 0).

        Rank = documents scoring higher + documents tied before it by index position,
        exactly as :meth:`BM25Index.search_many` orders them.
        """
        j = self._require_judged()
        rows = np.arange(j["d"].size) if j["identity"] else j["q"]
        return ranks_in_block(scores, rows, j["d"])

    def judged_ranks(self, k1: float = DEFAULT_K1, b: float = DEFAULT_B) -> np.ndarray:
        """:meth:`ranks_of_judged` for (k1, b), without the full score block."""
        j = self._require_judged()
        grouped = judged_ranks(self._rows, self.index.weights(k1, b), j["j_ptr"],
                               j["j_docs"], self.index.n_docs)
        ranks = np.empty_like(grouped)
        ranks[j["order"]] = grouped
        return ranks

    def evaluate(self, k1: float = DEFAULT_K1, b: float = DEFAULT_B, k_ndcg: int = 10,
                 k_recall: int = 100) -> RunScores:
        """nDCG@k, Recall@k and MRR of the query set under (k1, b), aggregate and per query."""
        j = self._require_judged()
        ranks = self.judged_ranks(k1, b)
        return run_scores(j, self.query_ids, ranks, k_ndcg, k_recall)

    def __repr__(self) -> str:
        return (f"QuerySetScorer(queries={len(self.query_ids)}, "
                f"query_terms={self._rows.q.nnz}, postings_touched={self._rows.postings})")


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
    rerank_runs : mapping, optional
        Query id → ranked doc ids after a reranker (a third list the hybrid run fuses).
    """

    def __init__(self, bm25: BM25Index, queries: Mapping[str, str],
                 qrels: Mapping[str, Mapping[str, int]],
                 vector_runs: Mapping[str, list[str]] | None = None, depth: int = 100,
                 rerank_runs: Mapping[str, list[str]] | None = None) -> None:
        self.bm25 = bm25
        self.queries = dict(queries)
        self.qrels = {q: dict(qrels[q]) for q in self.queries if q in qrels}
        self.vector_runs = dict(vector_runs) if vector_runs else None
        self.depth = depth
        self.rerank_runs = dict(rerank_runs) if rerank_runs else None
        self.scorer = QuerySetScorer(bm25, self.queries, self.qrels)
        self.last_ms = 0.0
        self._runs_cache: dict[tuple[float, float], dict[str, list[str]]] = {}

    def with_qrels(self, qrels: Mapping[str, Mapping[str, int]],
                   queries: Mapping[str, str] | None = None) -> TuningEngine:
        """The same engine under new judgments (a judgment click), reusing what it can.

        With the same queries the query matrix and the cached BM25 runs are kept; new
        queries build a new engine.
        """
        if queries is not None and dict(queries) != self.queries:
            return TuningEngine(self.bm25, queries, qrels, self.vector_runs, self.depth,
                                self.rerank_runs)
        import copy

        out = copy.copy(self)
        out.qrels = {q: dict(qrels[q]) for q in self.queries if q in qrels}
        out.scorer = copy.copy(self.scorer)
        out.scorer._qrels = out.qrels
        out.scorer._judged = out.scorer._prepare_qrels(out.qrels)
        return out

    def judged_rows(self) -> np.ndarray:
        """Rows (of ``scorer.query_ids``) of the queries with a relevant judgment."""
        return np.array([i for i, q in enumerate(self.scorer.query_ids)
                         if any(r > 0 for r in self.qrels.get(q, {}).values())], np.int64)

    def bm25_runs(self, k1: float, b: float) -> dict[str, list[str]]:
        """Each query's BM25 top ``depth`` for (k1, b) (the last 8 settings are cached)."""
        key = (float(k1), float(b))
        if key not in self._runs_cache:
            if len(self._runs_cache) >= 8:
                self._runs_cache.pop(next(iter(self._runs_cache)))
            self._runs_cache[key] = self._bm25_runs(k1, b)
        return self._runs_cache[key]

    def channels(self) -> tuple[str, ...]:
        """Channels available with the data given."""
        return CHANNEL_CHOICES if self.vector_runs else ("bm25",)

    def _bm25_runs(self, k1: float, b: float) -> dict[str, list[str]]:
        # the index's own top-k (ties by position, zeros dropped), as search_many orders them
        tops = [top for _, block in self.scorer.score_blocks(k1, b)
                for top in self.bm25.top_k(block, self.depth)]
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


def run_scores(judged: Mapping[str, Any], query_ids: Sequence[str], ranks: np.ndarray,
               k_ndcg: int, k_recall: int) -> RunScores:
    """nDCG@k, Recall@k and MRR from the ranks of the judged cells (pure).

    ``judged`` holds the arrays of :func:`judged_cells` (``q``, ``rel``, ``n_rel``,
    ``gains``), the judged query rows (``rows``) and an ``idcg`` cache per k, filled here.
    """
    j = judged
    n_q = len(query_ids)
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
    per = {qid: {"ndcg": a, "recall": r, "mrr": m} for qid, a, r, m in
           zip(query_ids, ndcg.tolist(), recall.tolist(), rr.tolist(), strict=True)}
    rows = j["rows"]
    n = max(rows.size, 1)
    return RunScores(ndcg=float(ndcg[rows].sum() / n), recall=float(recall[rows].sum() / n),
                     mrr=float(rr[rows].sum() / n), k_ndcg=k_ndcg, k_recall=k_recall,
                     per_query=per)
