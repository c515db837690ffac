"""Ranking metrics with aggregate and per-query figures (trec_eval conventions).

``ndcg_at_k`` uses linear gains (``rel / log2(rank + 1)``) and the ideal ordering of
all judged documents, as ``trec_eval``'s ``ndcg_cut``; ``recall_at_k`` counts
documents with relevance > 0; ``mrr`` is the reciprocal rank of the first relevant
document (0 when none is retrieved).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["ndcg_at_k", "recall_at_k", "mrr", "evaluate_run", "RunScores"]

Qrels = Mapping[str, Mapping[str, int]]


def ndcg_at_k(ranked: Sequence[str], rels: Mapping[str, int], k: int = 10) -> float:
    """nDCG@k of one ranked list of ids."""
    dcg = sum(rels.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted((r for r in rels.values() if r > 0), reverse=True)[:k]
    idcg = sum(r / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


def recall_at_k(ranked: Sequence[str], rels: Mapping[str, int], k: int = 100) -> float:
    """Share of relevant documents found in the top k."""
    relevant = {d for d, r in rels.items() if r > 0}
    if not relevant:
        return 0.0
    return len(relevant.intersection(ranked[:k])) / len(relevant)


def mrr(ranked: Sequence[str], rels: Mapping[str, int], k: int | None = None) -> float:
    """Reciprocal rank of the first relevant document (within ``k`` if given)."""
    for i, d in enumerate(ranked if k is None else ranked[:k]):
        if rels.get(d, 0) > 0:
            return 1.0 / (i + 1)
    return 0.0


@dataclass(frozen=True)
class RunScores:
    """Mean metrics of a run and the per-query values behind them."""

    ndcg: float
    recall: float
    mrr: float
    k_ndcg: int
    k_recall: int
    per_query: dict[str, dict[str, float]] = field(repr=False)


def evaluate_run(run: Mapping[str, Sequence[str]], qrels: Qrels, k_ndcg: int = 10,
                 k_recall: int = 100) -> RunScores:
    """Score a run ``{query id: ranked doc ids}`` against ``qrels``.

    Every judged query counts; a query missing from the run scores 0 (trec_eval's
    ``-c`` convention).
    """
    per: dict[str, dict[str, float]] = {}
    for qid, rels in qrels.items():
        ranked = run.get(qid, ())
        per[qid] = {"ndcg": ndcg_at_k(ranked, rels, k_ndcg),
                    "recall": recall_at_k(ranked, rels, k_recall), "mrr": mrr(ranked, rels)}
    n = max(len(per), 1)
    return RunScores(
        ndcg=sum(p["ndcg"] for p in per.values()) / n,
        recall=sum(p["recall"] for p in per.values()) / n,
        mrr=sum(p["mrr"] for p in per.values()) / n,
        k_ndcg=k_ndcg, k_recall=k_recall, per_query=per,
    )
