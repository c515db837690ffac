"""TuningPanel: live BM25 / RRF sliders with nDCG@10, Recall@k and MRR over a query set.

BM25 moves re-score through :class:`~ragspine_nb.retrieval.tuning.QuerySetScorer`
(no re-index). Vector rankings do not depend on the sliders and are computed once.
Every figure is shown beside the panel's starting configuration, with the queries that
gained or lost the most.
"""

from __future__ import annotations

import html
import time
from collections.abc import Mapping

from ragspine_nb._optional import import_optional
from ragspine_nb.retrieval.bm25 import BM25Index
from ragspine_nb.retrieval.fusion import rrf_fuse
from ragspine_nb.retrieval.metrics import RunScores, evaluate_run
from ragspine_nb.retrieval.tuning import QuerySetScorer

__all__ = ["TuningPanel", "TuningEngine", "CHANNEL_CHOICES"]

CHANNEL_CHOICES: tuple[str, ...] = ("bm25", "vectors", "hybrid")


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
        tops = self.bm25._top(self.scorer.dense_scores(k1, b), self.depth)
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


class TuningPanel:
    """Sliders for k1, b, RRF k and top_k plus channel toggles, with live metrics."""

    def __init__(self, engine: TuningEngine, k1: float = 1.5, b: float = 0.75, rrf_k: int = 60,
                 top_k: int = 100) -> None:
        w = import_optional("ipywidgets", extra="notebook", feature="TuningPanel")
        self.engine = engine
        self.k1 = w.FloatSlider(value=k1, min=0.0, max=3.0, step=0.1, description="k1",
                                continuous_update=False)
        self.b = w.FloatSlider(value=b, min=0.0, max=1.0, step=0.05, description="b",
                               continuous_update=False)
        self.rrf_k = w.IntSlider(value=rrf_k, min=1, max=200, description="RRF k",
                                 continuous_update=False)
        self.top_k = w.IntSlider(value=top_k, min=10, max=engine.depth, step=10,
                                 description="top_k", continuous_update=False)
        self.channel = w.ToggleButtons(options=list(engine.channels()), value="bm25",
                                       description="channel")
        self.metrics = w.HTML()
        self.table = w.HTML()
        self.baseline = engine.evaluate(k1, b, rrf_k, top_k, "bm25")
        self.current: RunScores = self.baseline
        for control in (self.k1, self.b, self.rrf_k, self.top_k, self.channel):
            control.observe(lambda _change: self.update(), names="value")
        self.ui = w.VBox([w.HBox([self.k1, self.b]), w.HBox([self.rrf_k, self.top_k]),
                          self.channel, self.metrics, self.table])
        self.update()

    def update(self) -> RunScores:
        """Recompute with the current slider values and refresh the view."""
        self.current = self.engine.evaluate(self.k1.value, self.b.value, self.rrf_k.value,
                                            self.top_k.value, self.channel.value)
        cur, base = self.current, self.baseline

        def cell(name: str, a: float, b0: float) -> str:
            return (f"<td>{name}</td><td><b>{a:.4f}</b></td><td>{b0:.4f}</td>"
                    f"<td>{a - b0:+.4f}</td>")

        self.metrics.value = (
            "<table class='rs-cmp'><tr><th>metric</th><th>now</th><th>start</th><th>Δ</th></tr>"
            f"<tr>{cell('nDCG@10', cur.ndcg, base.ndcg)}</tr>"
            f"<tr>{cell(f'Recall@{cur.k_recall}', cur.recall, base.recall)}</tr>"
            f"<tr>{cell('MRR', cur.mrr, base.mrr)}</tr></table>"
            f"<small>{len(cur.per_query)} queries · updated in {self.engine.last_ms:.0f} ms"
            "</small>")
        self.table.value = self._movers()
        return self.current

    def _movers(self, n: int = 5) -> str:
        deltas = sorted(((self.current.per_query[q]["ndcg"] - self.baseline.per_query[q]["ndcg"],
                          q) for q in self.current.per_query), key=lambda t: (t[0], t[1]))
        losers = [d for d in deltas if d[0] < 0][:n]
        winners = [d for d in reversed(deltas) if d[0] > 0][:n]

        def rows(items: list[tuple[float, str]]) -> str:
            return "".join(f"<tr><td>{d:+.3f}</td><td>{html.escape(q)}</td>"
                           f"<td>{html.escape(self.engine.queries[q][:90])}</td></tr>"
                           for d, q in items)

        return ("<table class='rs-cmp'><caption>winners (nDCG@10 vs start)</caption>"
                f"{rows(winners) or '<tr><td>none</td></tr>'}</table>"
                "<table class='rs-cmp'><caption>losers</caption>"
                f"{rows(losers) or '<tr><td>none</td></tr>'}</table>")

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.ui)  # type: ignore[no-untyped-call]
