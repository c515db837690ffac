"""TuningPanel: live BM25 / RRF sliders with nDCG@10, Recall@k and MRR over a query set.

BM25 moves re-score through :class:`~ragspine_nb.retrieval.tuning.QuerySetScorer`
(no re-index). Vector rankings do not depend on the sliders and are computed once.
Every figure is shown beside the panel's starting configuration, with the queries that
gained or lost the most. The RRF k slider appears only when a hybrid channel exists.
"""

from __future__ import annotations

from typing import Any

from ragspine_nb._optional import import_optional
from ragspine_nb.display.render import Card, Table, render_html
from ragspine_nb.retrieval.metrics import RunScores
from ragspine_nb.retrieval.tuning import CHANNEL_CHOICES, TuningEngine
from ragspine_nb.widgets._html import compact

__all__ = ["TuningPanel", "TuningEngine", "CHANNEL_CHOICES", "shorten"]

#: Slider width: wide enough that a small drag is a small change (k1 moves 0.05 a step).
SLIDER_WIDTH = "460px"


def shorten(text: str, limit: int = 120) -> str:
    """``text`` cut at a word boundary near ``limit`` characters, with an ellipsis.

    Text without spaces (Chinese) is cut at ``limit``.

    >>> shorten("how does the agency channel grow", 20)
    'how does the agency …'
    """
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    return (cut[: space + 1] if space >= limit * 2 // 3 else cut) + "…"


class TuningPanel:
    """Sliders for k1, b, RRF k and top_k plus channel toggles, with live metrics."""

    def __init__(self, engine: TuningEngine, k1: float = 1.5, b: float = 0.75, rrf_k: int = 60,
                 top_k: int = 100) -> None:
        w = import_optional("ipywidgets", extra="notebook", feature="TuningPanel")
        self.engine = engine

        def slider(cls: Any, description: str, **kw: Any) -> Any:
            return cls(description=description, continuous_update=False, readout=True,
                       style={"description_width": "60px"},
                       layout=w.Layout(width=SLIDER_WIDTH), **kw)

        self.k1 = slider(w.FloatSlider, "k1", value=k1, min=0.0, max=3.0, step=0.05,
                         readout_format=".2f")
        self.b = slider(w.FloatSlider, "b", value=b, min=0.0, max=1.0, step=0.05,
                        readout_format=".2f")
        self.rrf_k = slider(w.IntSlider, "RRF k", value=rrf_k, min=1, max=200)
        self.top_k = slider(w.IntSlider, "top_k", value=top_k, min=10, max=engine.depth,
                            step=10)
        if "hybrid" not in engine.channels():  # RRF k fuses channels: nothing to fuse
            self.rrf_k.layout.display = "none"
        self.channel = w.ToggleButtons(options=list(engine.channels()), value="bm25",
                                       description="channel")
        if len(engine.channels()) == 1:  # one channel: the metrics card names it
            self.channel.layout.display = "none"
        self.metrics = w.HTML()
        self.table = w.HTML()
        self.baseline = engine.evaluate(k1, b, rrf_k, top_k, "bm25")
        self.current: RunScores = self.baseline
        for control in (self.k1, self.b, self.rrf_k, self.top_k, self.channel):
            control.observe(lambda _change: self.update(), names="value")
        wrap = w.Layout(flex_flow="row wrap")
        self.ui = w.VBox([w.HBox([self.k1, self.b], layout=wrap),
                          w.HBox([self.top_k, self.rrf_k], layout=wrap),
                          self.channel, self.metrics, self.table])
        self.update()

    def update(self) -> RunScores:
        """Recompute with the current slider values and refresh the view."""
        self.current = self.engine.evaluate(self.k1.value, self.b.value, self.rrf_k.value,
                                            self.top_k.value, self.channel.value)
        self.rrf_k.disabled = self.channel.value != "hybrid"  # it only fuses the hybrid run
        cur, base = self.current, self.baseline
        rows = tuple((name, f"{a:.4f}", f"{b0:.4f}", f"{a - b0:+.4f}") for name, a, b0 in (
            ("nDCG@10", cur.ndcg, base.ndcg), (f"Recall@{cur.k_recall}", cur.recall, base.recall),
            ("MRR", cur.mrr, base.mrr)))
        self.metrics.value = compact(render_html(Card(
            title="Retrieval metrics", subtitle=f"channel {self.channel.value}",
            tables=(Table("now vs the panel's start", ("metric", "now", "start", "Δ"), rows),),
            notes=(f"{len(cur.per_query)} queries · updated in {self.engine.last_ms:.0f} ms",))))
        self.table.value = self._movers()
        return self.current

    def _movers(self, n: int = 5) -> str:
        deltas = sorted(((self.current.per_query[q]["ndcg"] - self.baseline.per_query[q]["ndcg"],
                          q) for q in self.current.per_query), key=lambda t: (t[0], t[1]))
        losers = [d for d in deltas if d[0] < 0][:n]
        winners = [d for d in reversed(deltas) if d[0] > 0][:n]
        columns = ("Δ nDCG@10", "query id", "query")

        def table(caption: str, items: list[tuple[float, str]]) -> Table:
            return Table(caption, columns, tuple(
                (f"{d:+.3f}", q, shorten(self.engine.queries[q])) for d, q in items))

        return compact(render_html(Card(title="Queries that moved most",
                                        subtitle="nDCG@10 vs start",
                                        tables=(table(f"winners (top {n})", winners),
                                                table(f"losers (top {n})", losers)))))

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.ui)  # type: ignore[no-untyped-call]
