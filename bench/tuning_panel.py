"""Live k1/b retune: QuerySetScorer set-up and retune, old (pair matrix) vs new, one run.

    .venv/bin/python bench/tuning_panel.py [--repeat 3] [--datasets scifact cmrc2018-chunks]

Per dataset (``$RAGSPINE_DATA``, default ``../shared/datasets``) and implementation —
``old`` (the pair-matrix scorer, kept below for this comparison only), ``new`` with
numba and ``new`` with ``RAGSPINE_NO_NUMBA=1`` — a fresh child process times:

* set-up, first call in the process, and repeated (best of 3 more);
* the first evaluate (the panel's initial render; in a fresh process it includes
  numba's one-time start-up, ~0.5 s, shared with every compiled kernel);
* retunes (one slider move = ``evaluate(k1, b)`` for a new (k1, b)): mean and max.

Each child runs ``--repeat`` times and every figure is the best of those runs (the
machine is shared). The max metric difference (aggregate and per query, over a
(k1, b) grid) compares old and new in one process, for both new paths. Last, the
panel latency of :class:`TuningEngine` on SciFact (bm25 and, with cached e5 vectors
in bench/.cache/e5.db, the hybrid channel). Writes bench/results/tuning_panel.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse

from ragspine_nb.extract.beir import data_root, load_beir
from ragspine_nb.retrieval import BM25Index
from ragspine_nb.retrieval.metrics import RunScores
from ragspine_nb.retrieval.tuning import QuerySetScorer, TuningEngine, judged_cells, run_scores

HERE = Path(__file__).resolve().parent
FIRST = (1.5, 0.75)
MOVES = [(1.2, 0.75), (0.9, 0.75), (0.9, 0.5), (1.8, 0.5), (1.5, 0.9), (0.6, 0.3), (2.4, 0.6),
         (1.0, 0.8)]
GRID = [(k1, b) for k1 in (0.0, 0.6, 1.2, 1.5, 2.0, 3.0) for b in (0.0, 0.3, 0.75, 1.0)]
VARIANTS = {"old": "0", "new_numba": "0", "new_numpy": "1"}  # → RAGSPINE_NO_NUMBA


# ------------------------------------------------------------------ the old algorithm
_THREADS = max(1, min(4, os.cpu_count() or 1))
_POOL = ThreadPoolExecutor(_THREADS)
class OldQuerySetScorer:
    """The pair-matrix scorer this change replaced (pairs × postings CSR built at set-up)."""

    def __init__(self, index: BM25Index, queries: Mapping[str, Any],
                 qrels: Mapping[str, Mapping[str, int]]) -> None:
        self.index, self.query_ids = index, list(queries)
        q = index.query_matrix(list(queries.values()))
        n_docs, term_matrix = index.n_docs, index.term_matrix
        q_rows = np.repeat(np.arange(q.shape[0]), np.diff(q.indptr))
        indptr = term_matrix.indptr
        starts = indptr[q.indices]
        lens = indptr[q.indices + 1] - starts
        total = int(lens.sum())
        positions = np.arange(total, dtype=np.int64) + np.repeat(starts - (np.cumsum(lens) - lens),
                                                                 lens)
        flat = np.repeat(q_rows, lens) * n_docs + index.postings_docs[positions]
        cells = q.shape[0] * n_docs
        seen = np.zeros(cells, dtype=bool)  # old _unique_with_inverse (≤ 60M cells branch)
        seen[flat] = True
        pairs = np.flatnonzero(seen)
        table = np.empty(cells, dtype=np.int64)
        table[pairs] = np.arange(pairs.size)
        m = sparse.csr_matrix((np.repeat(q.data, lens), (table[flat], positions)),
                              shape=(pairs.size, term_matrix.nnz))
        step = -(-m.shape[0] // _THREADS)  # one block per thread, as the old code
        self._blocks = [m[i:i + step] for i in range(0, m.shape[0], step)] or [m]
        self._flat = pairs
        self._buffer: np.ndarray | None = None
        self._qrels = qrels
        self._j = self._prepare(qrels)

    def _prepare(self, qrels: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
        q_arr, d_arr, rel, n_rel, gains = judged_cells(self.index, self.query_ids, qrels)
        return {"q": q_arr, "d": d_arr, "rel": rel,
                "identity": q_arr.size == len(self.query_ids)
                and bool(np.array_equal(q_arr, np.arange(q_arr.size))),
                "n_rel": n_rel, "gains": gains, "idcg": {},
                "rows": np.array([i for i, q in enumerate(self.query_ids) if q in qrels],
                                 dtype=np.int64)}

    def dense_scores(self, k1: float, b: float) -> np.ndarray:
        w = self.index.weights(k1, b).data
        values = np.concatenate(list(_POOL.map(lambda blk: blk @ w, self._blocks)))
        if self._buffer is None:
            self._buffer = np.zeros((len(self.query_ids), self.index.n_docs), dtype=np.float32)
        self._buffer.ravel()[self._flat] = values
        return self._buffer

    def ranks_of_judged(self, scores: np.ndarray) -> np.ndarray:
        j = self._j
        rows = scores if j["identity"] else scores[j["q"]]
        own = rows[np.arange(j["d"].size), j["d"]]
        ranks = np.count_nonzero(rows > own[:, None], axis=1).astype(np.float64)
        for t in np.flatnonzero(np.count_nonzero(rows == own[:, None], axis=1) > 1):
            ranks[t] += np.count_nonzero(rows[t, : j["d"][t]] == own[t])
        ranks[own <= 0] = np.inf
        return ranks

    def evaluate(self, k1: float, b: float, k_ndcg: int = 10, k_recall: int = 100) -> RunScores:
        ranks = self.ranks_of_judged(self.dense_scores(k1, b))  # the old ranking path
        return run_scores(self._j, self.query_ids, ranks, k_ndcg, k_recall)


# ------------------------------------------------------------------ timing
def _load(name: str) -> tuple[BM25Index, Any]:
    ds = load_beir(data_root() / name)
    ids, texts = ds.doc_texts()
    return BM25Index.build(ids, texts), ds


def child(name: str, impl: str) -> dict[str, float]:
    """Time one implementation in this (fresh) process."""
    index, ds = _load(name)
    make = OldQuerySetScorer if impl == "old" else QuerySetScorer
    t = time.perf_counter()
    scorer = make(index, ds.queries, ds.qrels)
    first = time.perf_counter() - t
    repeat = []
    for _ in range(3):
        t = time.perf_counter()
        scorer = make(index, ds.queries, ds.qrels)
        repeat.append(time.perf_counter() - t)
    t = time.perf_counter()
    scorer.evaluate(*FIRST)
    first_eval = time.perf_counter() - t
    lat = []
    for k1, b in MOVES:
        t = time.perf_counter()
        scorer.evaluate(k1, b)
        lat.append((time.perf_counter() - t) * 1e3)
    return {"setup_first_s": first, "setup_repeat_s": min(repeat),
            "first_evaluate_ms": first_eval * 1e3, "retune_mean_ms": statistics.mean(lat),
            "retune_max_ms": max(lat)}


def run_child(name: str, variant: str, repeat: int) -> dict[str, float]:
    """Best of ``repeat`` fresh processes, figure by figure."""
    env = dict(os.environ, RAGSPINE_NO_NUMBA=VARIANTS[variant])
    impl = "old" if variant == "old" else "new"
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, __file__, "--child", name, impl], env=env,
                             check=True, capture_output=True, text=True).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    return {k: min(r[k] for r in runs) for k in runs[0]}


def max_metric_diff(name: str) -> dict[str, float]:
    """Largest |old - new| over the grid, aggregates and per-query values, both new paths."""
    index, ds = _load(name)
    old = OldQuerySetScorer(index, ds.queries, ds.qrels)
    new = QuerySetScorer(index, ds.queries, ds.qrels)
    refs = {kb: old.evaluate(*kb) for kb in GRID}
    out = {}
    for variant in ("new_numba", "new_numpy"):
        os.environ["RAGSPINE_NO_NUMBA"] = VARIANTS[variant]
        worst = 0.0
        for kb, ref in refs.items():
            got = new.evaluate(*kb)
            worst = max(worst, *(abs(getattr(ref, m) - getattr(got, m))
                                 for m in ("ndcg", "recall", "mrr")))
            worst = max(worst, max(abs(ref.per_query[q][m] - got.per_query[q][m])
                                   for q in ref.per_query for m in ("ndcg", "recall", "mrr")))
        out[variant] = worst
    os.environ.pop("RAGSPINE_NO_NUMBA", None)
    return out


def panel_latency() -> dict[str, Any]:
    """TuningEngine.evaluate per slider move on SciFact, per channel (as the panel runs it)."""
    from ragspine_nb.retrieval.vectors import CachedEmbedder, E5EmbeddingBackend, EmbeddingCache

    index, ds = _load("scifact")
    ids, texts = ds.doc_texts()
    vector_runs = None
    cache = EmbeddingCache(HERE / ".cache" / "e5.db")
    emb = CachedEmbedder(E5EmbeddingBackend(), cache)
    keys = [EmbeddingCache.key("passage", x[:512]) for x in texts]
    if len(cache.get_many(emb.backend.name, keys)) == len(keys):
        sims = emb.queries(list(ds.queries.values())) @ emb.passages([x[:512] for x in texts]).T
        vector_runs = {q: [ids[j] for j in np.argsort(-sims[i], kind="stable")[:100]]
                       for i, q in enumerate(ds.queries)}
    engine = TuningEngine(index, ds.queries, ds.qrels, vector_runs)
    engine.evaluate(*FIRST)  # the panel's first render
    out: dict[str, Any] = {}
    for channel in engine.channels():
        lat = []
        for k1, b in MOVES:
            engine.evaluate(k1, b, 60, 100, channel)
            lat.append(engine.last_ms)
        out[channel] = {"median_ms": statistics.median(lat), "max_ms": max(lat)}
        print(f"panel {channel:<8} slider move → metrics: median {statistics.median(lat):.1f} "
              f"ms, max {max(lat):.1f} ms over {len(MOVES)} moves (SciFact, 300 queries)")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--datasets", nargs="+", default=["scifact", "cmrc2018-chunks"])
    ap.add_argument("--child", nargs=2, metavar=("DATASET", "IMPL"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    out: dict[str, Any] = {"repeat": args.repeat, "scorer": {}}
    print(f"{'dataset':<16}{'variant':<11}{'setup 1st':>10}{'repeat':>9}{'1st eval':>10}"
          f"{'retune mean':>13}{'max':>8}   (best of {args.repeat} fresh processes)")
    for name in args.datasets:
        res: dict[str, Any] = {v: run_child(name, v, args.repeat) for v in VARIANTS}
        for v, r in res.items():
            print(f"{name:<16}{v:<11}{r['setup_first_s']:>9.3f}s{r['setup_repeat_s']:>8.3f}s"
                  f"{r['first_evaluate_ms']:>8.0f}ms{r['retune_mean_ms']:>11.1f}ms"
                  f"{r['retune_max_ms']:>6.0f}ms")
        res["max_metric_diff"] = max_metric_diff(name)
        print(f"{name:<16}max |old - new| metric over {len(GRID)} (k1, b): "
              + ", ".join(f"{v} {d:.1e}" for v, d in res["max_metric_diff"].items()))
        out["scorer"][name] = res
    out["panel_scifact"] = panel_latency()
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "tuning_panel.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
