"""HTML of the retrieval lab (pure, escaped by the renderer): significance, plot, explanation."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import numpy as np

from ragspine_nb.display.render import Card, Table, render_html
from ragspine_nb.retrieval.autotune import AutoTuneResult
from ragspine_nb.retrieval.explain import ScoreExplanation
from ragspine_nb.retrieval.significance import Comparison
from ragspine_nb.widgets._html import compact

__all__ = ["significance_html", "delta_plot_svg", "explanation_html", "autotune_html"]


def _p(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def significance_html(comparisons: Sequence[Comparison], baseline_label: str, n_queries: int,
                      ms: float, alpha: float = 0.05) -> str:
    """Now vs the pinned baseline: mean, Δ, wins/losses/ties, both p-values (Holm)."""
    rows = tuple((c.measure, f"{c.now:.4f}", f"{c.baseline:.4f}", f"{c.delta:+.4f}",
                  f"{c.wins} / {c.losses} / {c.ties}", _p(c.p_t_holm), _p(c.p_randomisation_holm),
                  "yes" if c.significant(alpha) else "no") for c in comparisons)
    cols = ("measure", "now", "pinned", "Δ", "wins / losses / ties", "p t-test (Holm)",
            "p randomisation (Holm)", f"significant (α={alpha:g})")
    return compact(render_html(Card(
        title="Against the pinned baseline", subtitle=baseline_label,
        tables=(Table("paired per query; p-values Holm-corrected over the measures", cols,
                      rows),),
        notes=(f"{n_queries} judged queries · ir_measures names · {ms:.0f} ms",))))


def delta_plot_svg(deltas: np.ndarray, measure: str, width: int = 460, height: int = 90) -> str:
    """Per-query Δ sorted, as a small inline SVG bar plot (green wins, red losses)."""
    d = np.sort(np.asarray(deltas, np.float64))[::-1]
    if d.size == 0:
        return ""
    top = max(float(np.abs(d).max()), 1e-9)
    mid, bw = height / 2, width / d.size
    bars = "".join(
        f"<rect x='{i * bw:.2f}' y='{mid - max(v, 0) / top * (mid - 2):.2f}' width='{bw:.2f}' "
        f"height='{abs(v) / top * (mid - 2):.2f}' fill='{'#2a9d4b' if v > 0 else '#c0392b'}'/>"
        for i, v in enumerate(d.tolist()) if v != 0)
    caption = escape(f"Δ {measure} per query vs pinned (sorted; ±{top:.3f} full scale)")
    return (f"<div><svg width='{width}' height='{height}' role='img' aria-label='{caption}'>"
            f"<line x1='0' x2='{width}' y1='{mid}' y2='{mid}' stroke='#888'/>{bars}</svg>"
            f"<div style='font-size:11px;color:#555'>{caption}</div></div>")


def explanation_html(ex: ScoreExplanation, relevant: bool | None = None) -> str:
    """A hit's BM25 score term by term, with its rank in each channel before fusion."""
    ranks = ", ".join(f"{ch} {'—' if r is None else r}" for ch, r in ex.ranks.items())
    judged = "" if relevant is None else (" · judged relevant" if relevant else
                                          " · not judged relevant")
    return compact(render_html(Card(
        title="Why this score", subtitle=f"{ex.doc_id}{judged}",
        stats=(("BM25 score", f"{ex.total:.3f}"), ("k1, b", f"{ex.k1:g}, {ex.b:g}"),
               ("length", f"{ex.doc_len} tokens (avg {ex.avgdl:.1f})"),
               ("rank per channel before fusion", ranks or "—")),
        tables=(Table("contribution = qtf · IDF · TF·(k1+1) / (TF + length norm)",
                      ("term", "qtf", "df", "IDF", "TF", "length norm", "contribution"),
                      tuple(ex.rows())),))))


def autotune_html(result: AutoTuneResult) -> str:
    """Auto-tune's outcome: held-out gain first, the best settings after."""
    order = np.argsort(-np.asarray(result.means), kind="stable")[:5]
    rows = tuple((result.settings[i].label(), f"{result.means[i]:.4f}") for i in order)
    folds = tuple((str(k + 1), result.settings[f.chosen].label(), f"{f.train_gain:+.4f}",
                   f"{f.heldout_gain:+.4f}", str(f.n_heldout)) for k, f in enumerate(result.folds))
    return compact(render_html(Card(
        title="Auto-tune", subtitle=result.summary(),
        stats=(("held-out gain", f"{result.heldout_gain:+.4f} {result.measure}"),
               ("training-fold gain (optimistic)", f"{result.train_gain:+.4f}")),
        tables=(Table("folds: chosen on the others, scored on this one",
                      ("fold", "chosen", "train Δ", "held-out Δ", "queries"), folds),
                Table("best settings on all queries", ("setting", result.measure), rows)))))
