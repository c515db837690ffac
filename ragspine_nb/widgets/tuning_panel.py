"""TuningPanel: live BM25 / RRF sliders with nDCG@10, Recall@k and MRR over a query set.

BM25 moves re-score through :class:`~ragspine_nb.retrieval.tuning.QuerySetScorer`
(no re-index). Vector rankings do not depend on the sliders and are computed once.
Every figure is shown beside the panel's starting configuration, with the queries that
gained or lost the most.
"""

from __future__ import annotations

import html

from ragspine_nb._optional import import_optional
from ragspine_nb.retrieval.metrics import RunScores
from ragspine_nb.retrieval.tuning import CHANNEL_CHOICES, TuningEngine

__all__ = ["TuningPanel", "TuningEngine", "CHANNEL_CHOICES"]


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
