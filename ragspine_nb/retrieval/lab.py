"""The retrieval lab's computations over a :class:`~ragspine_nb.retrieval.tuning.TuningEngine`.

A :class:`LabSetting` is one point of the search space (k1, b, RRF k, channel weights,
run depth, channel). :func:`per_query` scores it with ``ir_measures``-named measures,
one value per judged query (aligned with :func:`judged_query_ids`), so two settings
can be compared query by query (:func:`compare_settings`: wins, losses, paired t-test
and randomisation test, Holm-corrected over the measures).

Runs are cut at ``top_k`` (the run's depth): a document ranked below it is not
retrieved. The BM25 channel is scored from the ranks of the judged documents alone
(no sort, the engine's fast path); the fused channel fuses each channel's top
``engine.depth`` with weighted RRF (``weight / (k + rank)``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ragspine_nb.retrieval.fusion import rrf_fuse
from ragspine_nb.retrieval.measures import Measure, measures_from_ranks, parse_measures
from ragspine_nb.retrieval.metrics import RunScores
from ragspine_nb.retrieval.significance import Comparison, compare, holm_adjusted
from ragspine_nb.retrieval.tuning import TuningEngine

__all__ = ["LabSetting", "judged_query_ids", "setting_runs", "per_query", "compare_settings",
           "channel_ranks", "fused_run", "cached_per_query", "as_run_scores"]


@dataclass(frozen=True)
class LabSetting:
    """One configuration of the lab: BM25 (k1, b), fusion (RRF k, weights), depth, channel."""

    k1: float = 1.5
    b: float = 0.75
    rrf_k: int = 60
    w_bm25: float = 1.0
    w_dense: float = 1.0
    w_rerank: float = 1.0
    top_k: int = 100
    channel: str = "bm25"

    def with_(self, **changes: float | int | str) -> LabSetting:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def label(self) -> str:
        """Short text naming the setting (only the fusion fields when they matter)."""
        base = f"{self.channel} k1={self.k1:g} b={self.b:g} top_k={self.top_k}"
        if self.channel != "hybrid":
            return base
        return (f"{base} rrf_k={self.rrf_k} w=({self.w_bm25:g}, {self.w_dense:g}, "
                f"{self.w_rerank:g})")


def judged_query_ids(engine: TuningEngine) -> list[str]:
    """The queries every measure is averaged over: judged, with a relevant judgment."""
    ids = engine.scorer.query_ids
    return [ids[i] for i in engine.judged_rows().tolist()]


def fused_run(lists: Sequence[Sequence[str]], weights: Sequence[float], rrf_k: int,
              depth: int) -> list[str]:
    """Weighted RRF of ranked id lists, cut at ``depth`` (zero-weight lists left out)."""
    keep = [(lst, w) for lst, w in zip(lists, weights, strict=True) if w > 0 and lst]
    if not keep:
        return []
    fused = rrf_fuse([lst for lst, _ in keep], k=rrf_k, weights=[w for _, w in keep])
    return [d for d, _ in fused[:depth]]


def setting_runs(engine: TuningEngine, s: LabSetting) -> dict[str, list[str]]:
    """Each query's ranked ids under ``s`` (cut at ``s.top_k``)."""
    if s.channel not in engine.channels():
        raise ValueError(f"channel {s.channel!r} not available; choose from {engine.channels()}")
    if s.channel == "vectors":
        return {q: list(r[:s.top_k]) for q, r in (engine.vector_runs or {}).items()}
    bm = engine.bm25_runs(s.k1, s.b)
    if s.channel == "bm25":
        return {q: r[:s.top_k] for q, r in bm.items()}
    vec, rer = engine.vector_runs or {}, engine.rerank_runs or {}
    return {q: fused_run([bm.get(q, []), vec.get(q, []), rer.get(q, [])],
                         [s.w_bm25, s.w_dense, s.w_rerank], s.rrf_k, min(s.top_k, engine.depth))
            for q in engine.queries}


def per_query(engine: TuningEngine, s: LabSetting, measures: Sequence[str | Measure]
              ) -> dict[str, np.ndarray]:
    """Measure name → values aligned with :func:`judged_query_ids` for setting ``s``."""
    ms = parse_measures(measures)
    rows = engine.judged_rows()
    if s.channel == "bm25":
        j = engine.scorer._require_judged()
        ranks = engine.scorer.judged_ranks(s.k1, s.b).copy()
        ranks[ranks >= s.top_k] = np.inf
        values = measures_from_ranks(j["q"], ranks, j["rel"], j["gains"], ms)
        return {name: v[rows] for name, v in values.items()}
    runs = setting_runs(engine, s)
    q, ranks, rel, gains = _run_cells(runs, engine)
    values = measures_from_ranks(q, ranks, rel, gains, ms)
    return {name: v[rows] for name, v in values.items()}


def _run_cells(runs: Mapping[str, Sequence[str]], engine: TuningEngine
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[list[int]]]:
    j = engine.scorer._require_judged()
    qids = engine.scorer.query_ids
    pos = [{d: i for i, d in reversed(list(enumerate(runs.get(qid, ()))))} for qid in qids]
    ranks = np.full(j["q"].size, np.inf)
    ids = engine.bm25.doc_ids
    for e, (qi, di) in enumerate(zip(j["q"].tolist(), j["d"].tolist(), strict=True)):
        r = pos[qi].get(ids[di])
        if r is not None:
            ranks[e] = r
    return j["q"], ranks, j["rel"], j["gains"]


def compare_settings(engine: TuningEngine, now: LabSetting, baseline: LabSetting,
                     measures: Sequence[str | Measure], n_resamples: int = 2_000,
                     cache: dict[LabSetting, dict[str, np.ndarray]] | None = None
                     ) -> list[Comparison]:
    """Each measure, ``now`` vs ``baseline``, with both paired tests Holm-corrected."""
    names = [m.name for m in parse_measures(measures)]
    a = cached_per_query(engine, now, names, cache)
    b = cached_per_query(engine, baseline, names, cache)
    return holm_adjusted([compare(n, a[n], b[n], n_resamples) for n in names])


def cached_per_query(engine: TuningEngine, s: LabSetting, names: Sequence[str],
                     cache: dict[LabSetting, dict[str, np.ndarray]] | None
                     ) -> dict[str, np.ndarray]:
    """:func:`per_query`, reusing and extending ``cache`` (setting → measure → values)."""
    have = cache.get(s, {}) if cache is not None else {}
    missing = [n for n in names if n not in have]
    if not missing:
        return have
    merged = {**have, **per_query(engine, s, missing)}
    if cache is not None:
        cache[s] = merged
    return merged


def as_run_scores(engine: TuningEngine, values: Mapping[str, np.ndarray], top_k: int
                  ) -> RunScores:
    """``nDCG@10``, ``R@top_k`` and ``RR`` values as the panel's :class:`RunScores`."""
    qids = judged_query_ids(engine)
    nd, rc, rr = values["nDCG@10"], values[f"R@{top_k}"], values["RR"]
    per = {q: {"ndcg": float(a), "recall": float(r), "mrr": float(m)}
           for q, a, r, m in zip(qids, nd, rc, rr, strict=True)}
    n = max(len(qids), 1)
    return RunScores(ndcg=float(nd.sum() / n), recall=float(rc.sum() / n),
                     mrr=float(rr.sum() / n), k_ndcg=10, k_recall=top_k, per_query=per)


def channel_ranks(engine: TuningEngine, s: LabSetting, query_id: str, doc_id: str
                  ) -> dict[str, int | None]:
    """1-based rank of ``doc_id`` in each channel's list before fusion (``None``: absent)."""
    lists = {"bm25": engine.bm25_runs(s.k1, s.b).get(query_id, [])}
    if engine.vector_runs:
        lists["dense"] = list(engine.vector_runs.get(query_id, []))
    if engine.rerank_runs:
        lists["rerank"] = list(engine.rerank_runs.get(query_id, []))
    return {ch: (lst.index(doc_id) + 1 if doc_id in lst else None) for ch, lst in lists.items()}
