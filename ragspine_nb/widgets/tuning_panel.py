"""TuningPanel: live BM25 / RRF sliders with nDCG@10, Recall@k and MRR over a query set.

BM25 moves re-score through :class:`~ragspine_nb.retrieval.tuning.QuerySetScorer`
(no re-index). Vector rankings do not depend on the sliders and are computed once.
Every figure is shown beside the panel's starting configuration, with the queries that
gained or lost the most. The RRF k slider and the channel weights appear only when a
hybrid channel exists.

The lab part (:mod:`ragspine_nb.retrieval.lab`): measures under ``ir_measures`` names
against a pinned baseline with paired significance (t-test and randomisation,
Holm-corrected) and a per-query Δ plot; a term-by-term explanation of one hit's score;
auto-tune over a grid with a cross-validated, held-out gain. The widget only wires
controls to those pure functions.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from html import escape
from pathlib import Path
from typing import Any

import numpy as np

from ragspine_nb._optional import import_optional
from ragspine_nb.display.render import Card, Table, render_html
from ragspine_nb.retrieval.autotune import AutoTuneResult, auto_tune
from ragspine_nb.retrieval.explain import explain_bm25
from ragspine_nb.retrieval.judgments import NoJudgmentsError, check_judged
from ragspine_nb.retrieval.lab import (
    LabSetting,
    as_run_scores,
    cached_per_query,
    channel_ranks,
    compare_settings,
    judged_query_ids,
    setting_runs,
)
from ragspine_nb.retrieval.measures import write_trec_run
from ragspine_nb.retrieval.metrics import RunScores
from ragspine_nb.retrieval.tuning import CHANNEL_CHOICES, TuningEngine
from ragspine_nb.widgets._html import compact
from ragspine_nb.widgets.lab_views import (
    autotune_html,
    delta_plot_svg,
    explanation_html,
    significance_html,
)

__all__ = ["TuningPanel", "TuningEngine", "CHANNEL_CHOICES", "LAB_MEASURES", "shorten"]

#: Slider width: wide enough that a small drag is a small change (k1 moves 0.05 a step).
SLIDER_WIDTH = "460px"

#: The measures the lab compares with the pinned baseline (``ir_measures`` names).
LAB_MEASURES: tuple[str, ...] = ("nDCG@10", "R@100", "RR", "P@10")


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
    """Sliders for k1, b, RRF k, channel weights and top_k, with live metrics.

    Parameters
    ----------
    engine : TuningEngine
        Index, queries, judgments and the precomputed dense / rerank runs.
    k1, b, rrf_k, top_k : number
        The starting setting, pinned as the baseline until :meth:`pin` is called.

    Attributes
    ----------
    comparisons : list of Comparison
        The last comparison with the pinned baseline (one per measure of
        :data:`LAB_MEASURES`).
    autotune_result : AutoTuneResult or None
        The last auto-tune's outcome.
    """

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
        weight = {"min": 0.0, "max": 3.0, "step": 0.1, "value": 1.0, "readout_format": ".1f"}
        self.w_bm25 = slider(w.FloatSlider, "w BM25", **weight)
        self.w_dense = slider(w.FloatSlider, "w dense", **weight)
        self.w_rerank = slider(w.FloatSlider, "w rerank", **weight)
        if "hybrid" not in engine.channels():  # RRF k fuses channels: nothing to fuse
            for hidden in (self.rrf_k, self.w_bm25, self.w_dense, self.w_rerank):
                hidden.layout.display = "none"
        if not engine.rerank_runs:
            self.w_rerank.layout.display = "none"
        self.channel = w.ToggleButtons(options=list(engine.channels()), value="bm25",
                                       description="channel")
        if len(engine.channels()) == 1:  # one channel: the metrics card names it
            self.channel.layout.display = "none"
        self.metrics = w.HTML()
        self.table = w.HTML()
        self.lab = w.HTML()  # vs the pinned baseline, with significance and the Δ plot
        self.pin_button = w.Button(description="Pin as baseline", icon="thumb-tack")
        self.pin_button.on_click(lambda _: self.pin())
        self._holding = False
        self._cache: dict[LabSetting, dict[str, np.ndarray]] = {}
        self.comparisons: list[Any] = []
        self.pinned = LabSetting(k1=k1, b=b, rrf_k=rrf_k, top_k=top_k)
        self.baseline = self._scores(self.pinned)
        self.current: RunScores = self.baseline
        self._build_explain(w)
        self._build_autotune(w)
        for control in (self.k1, self.b, self.rrf_k, self.top_k, self.channel, self.w_bm25,
                        self.w_dense, self.w_rerank):
            control.observe(lambda _change: self.update(), names="value")
        wrap = w.Layout(flex_flow="row wrap")
        self.ui = w.VBox([w.HBox([self.k1, self.b], layout=wrap),
                          w.HBox([self.top_k, self.rrf_k], layout=wrap),
                          w.HBox([self.w_bm25, self.w_dense, self.w_rerank], layout=wrap),
                          w.HBox([self.channel, self.pin_button], layout=wrap),
                          self.metrics, self.lab, self.table, self.explain_box, self.tune_box])
        self.update()

    # ------------------------------------------------------------------ lab
    def _scores(self, s: LabSetting) -> RunScores:
        names = (*LAB_MEASURES, f"R@{s.top_k}")
        return as_run_scores(self.engine, cached_per_query(self.engine, s, names, self._cache),
                             s.top_k)

    def setting(self) -> LabSetting:
        """The sliders' current setting."""
        return LabSetting(k1=float(self.k1.value), b=float(self.b.value),
                          rrf_k=int(self.rrf_k.value), w_bm25=float(self.w_bm25.value),
                          w_dense=float(self.w_dense.value), w_rerank=float(self.w_rerank.value),
                          top_k=int(self.top_k.value), channel=str(self.channel.value))

    def pin(self, setting: LabSetting | None = None) -> LabSetting:
        """Pin ``setting`` (default: the current one) as the baseline of the comparison."""
        self.pinned = setting or self.setting()
        self._refresh_lab()
        return self.pinned

    def set_judgments(self, qrels: Mapping[str, Mapping[str, int]],
                      queries: Mapping[str, str] | None = None) -> RunScores | None:
        """Score against new judgments (a :class:`Judgments` brings its queries' text).

        The index and the dense / rerank runs are kept; queries new to the panel join it.

        Raises
        ------
        NoJudgmentsError
            When no judged query has a relevant chunk of the index.
        """
        e = self.engine
        merged = {**e.queries, **dict(getattr(qrels, "queries", {})), **dict(queries or {})}
        check_judged(merged, qrels, lambda d: e.bm25.position_of(d) is not None)
        self.engine = e.with_qrels(qrels, merged)
        self._cache = {}
        self.baseline = self._scores(self.pinned)
        ids = judged_query_ids(self.engine)
        self.explain_query.options = [(f"{q} · {shorten(merged[q], 60)}", q) for q in ids]
        return self.update()

    def export_run(self, path: str | Path, tag: str = "ragspine") -> Path:
        """Write the current setting's run as a TREC run file (``run.trec``)."""
        return write_trec_run(setting_runs(self.engine, self.setting()), path, tag)

    def follow(self, inspector: Any) -> None:
        """Re-score against ``inspector.judgments`` whenever it records a judgment.

        The panel then scores the inspector's judgments alone; to keep synthetic queries
        too, mix them in explicitly (``inspector.judgments.update(synthetic)``). While no
        judged query has a relevant hit, the panel says so and keeps its last figures.
        """
        def changed(*_: Any) -> None:
            try:
                self.set_judgments(inspector.judgments)
            except NoJudgmentsError as err:
                self.lab.value = compact(f"<p><b>Not scored yet:</b> {escape(str(err))}</p>")

        inspector.on_judgment.append(changed)

    def set_setting(self, s: LabSetting) -> None:
        """Move every slider to ``s`` and update once."""
        self._holding = True
        try:
            for name in ("k1", "b", "rrf_k", "w_bm25", "w_dense", "w_rerank", "channel"):
                getattr(self, name).value = getattr(s, name)
            self.top_k.value = min(s.top_k, self.top_k.max)
        finally:
            self._holding = False
        self.update()

    def _refresh_lab(self) -> None:
        t0 = time.perf_counter()
        if len(self._cache) > 64:
            self._cache = {self.pinned: self._cache[self.pinned]} \
                if self.pinned in self._cache else {}
        now = self.setting()
        self.comparisons = compare_settings(self.engine, now, self.pinned, LAB_MEASURES,
                                            cache=self._cache)
        ms = (time.perf_counter() - t0) * 1e3
        deltas = self._cache[now]["nDCG@10"] - self._cache[self.pinned]["nDCG@10"]
        self.lab.value = significance_html(self.comparisons, self.pinned.label(),
                                           deltas.size, ms) + delta_plot_svg(deltas, "nDCG@10")

    def _build_explain(self, w: Any) -> None:
        ids = judged_query_ids(self.engine)
        options = [(f"{q} · {shorten(self.engine.queries[q], 60)}", q) for q in ids]
        self.explain_query = w.Dropdown(options=options, description="query",
                                        layout=w.Layout(width="460px"))
        self.explain_rank = w.BoundedIntText(value=1, min=1, max=max(self.engine.depth, 1),
                                             description="hit #", layout=w.Layout(width="140px"))
        self.explain_button = w.Button(description="Explain", icon="question")
        self.explanation = w.HTML()
        self.explain_button.on_click(lambda _: self.explain())
        self.explain_box = w.VBox([w.HBox([self.explain_query, self.explain_rank,
                                           self.explain_button]), self.explanation])

    def explain(self, query_id: str | None = None, rank: int | None = None) -> str:
        """Explain hit ``rank`` (1-based) of ``query_id`` under the current setting."""
        qid = query_id or self.explain_query.value
        rank = rank or int(self.explain_rank.value)
        s = self.setting()
        run = setting_runs(self.engine, s).get(qid, [])
        if not run or rank > len(run):
            self.explanation.value = compact(f"<p>{len(run)} hits for this query: no hit "
                                             f"#{rank}.</p>")
            return str(self.explanation.value)
        doc = run[rank - 1]
        ex = explain_bm25(self.engine.bm25, self.engine.queries[qid], doc, s.k1, s.b,
                          channel_ranks(self.engine, s, qid, doc))
        html = explanation_html(ex, self.engine.qrels.get(qid, {}).get(doc, 0) > 0)
        self.explanation.value = html
        return html

    def _build_autotune(self, w: Any) -> None:
        self.tune_button = w.Button(description="Auto-tune", icon="magic")
        self.apply_button = w.Button(description="Apply best", disabled=True)
        self.progress = w.IntProgress(value=0, min=0, max=1, description="settings")
        self.tune_result = w.HTML()
        self.autotune_result: AutoTuneResult | None = None
        self.tune_button.on_click(lambda _: self.auto_tune())
        self.apply_button.on_click(lambda _: self.set_setting(self.autotune_result.best)
                                   if self.autotune_result else None)
        self.tune_box = w.VBox([w.HBox([self.tune_button, self.apply_button, self.progress]),
                                self.tune_result])

    def auto_tune(self, folds: int = 5, measure: str = "nDCG@10") -> AutoTuneResult:
        """Grid search with a cross-validated held-out gain, against the pinned baseline."""
        def step(done: int, total: int) -> None:
            self.progress.max, self.progress.value = total, done

        n = len(judged_query_ids(self.engine))
        self.autotune_result = auto_tune(self.engine, self.pinned, measure,
                                         folds=min(folds, max(n, 2)), progress=step)
        self.tune_result.value = autotune_html(self.autotune_result)
        self.apply_button.disabled = False
        return self.autotune_result

    def update(self) -> RunScores | None:
        """Recompute with the current slider values and refresh the view."""
        if self._holding:
            return None
        t0 = time.perf_counter()
        self.current = self._scores(self.setting())
        self.engine.last_ms = (time.perf_counter() - t0) * 1e3
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
        for weight in (self.w_bm25, self.w_dense, self.w_rerank):
            weight.disabled = self.channel.value != "hybrid"
        self._refresh_lab()
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
