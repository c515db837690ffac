"""A TuningPanel that stays live in a static page: its metrics precomputed over the slider grid.

A page exported without a kernel cannot re-score when a slider moves. When the metrics are
a function of the sliders, they can be computed beforehand: :func:`precompute_grid`
evaluates the panel's engine at every position of its k1 and b sliders (coarsening the
slider steps until the grid fits ``max_points``) with the other controls as they are, and
:func:`live_in_report` displays the grid as an output of :data:`GRID_MIME`. The report's
exporter (``ragspine_nb.report.export``) embeds it with a small script that, when a
slider's readout changes, shows the precomputed figures of that position. The controls
that are not part of the grid (channel, top_k, RRF k) are disabled in the saved state, and
the "queries that moved most" list is marked as a snapshot.

Only the panel's public attributes are used (``engine``, ``k1``, ``b``, ``top_k``,
``rrf_k``, ``channel``, ``metrics``, ``table``, ``ui``, ``baseline``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

__all__ = ["GRID_MIME", "REPORT_ENV", "SliderGrid", "live_in_report", "precompute_grid"]

#: The MIME type of a precomputed grid in a notebook output.
GRID_MIME = "application/vnd.ragspine.static-grid+json"
#: Set (to "1") in the kernel that ``ragspine-nb report`` runs: the grid is computed then.
REPORT_ENV = "RAGSPINE_REPORT"
_METRICS = ("nDCG@10", "Recall@{k}", "MRR")


@dataclass(frozen=True)
class SliderGrid:
    """Metrics at every point of a grid of slider values.

    ``axes`` are ``(css name, values)`` pairs; ``rows`` hold one tuple of
    :attr:`metrics` per grid point, the last axis varying fastest.
    """

    axes: tuple[tuple[str, tuple[float, ...]], ...]
    metrics: tuple[str, ...]
    start: tuple[float, ...]
    rows: tuple[tuple[float, ...], ...]
    fixed: str
    model_id: str = ""

    def at(self, *values: float) -> tuple[float, ...]:
        """The row nearest to ``values`` (one per axis).

        >>> g = SliderGrid((("k1", (0.0, 1.0)), ("b", (0.0, 0.5, 1.0))), ("m",), (0.0,),
        ...                tuple((float(i),) for i in range(6)), "")
        >>> g.at(1.0, 0.4)
        (4.0,)
        """
        index = 0
        for (_, axis), value in zip(self.axes, values, strict=True):
            nearest = min(range(len(axis)), key=lambda i: abs(axis[i] - value))
            index = index * len(axis) + nearest
        return self.rows[index]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (what the page's script reads)."""
        return {"axes": [{"name": n, "values": list(v)} for n, v in self.axes],
                "metrics": list(self.metrics), "start": list(self.start),
                "rows": [list(r) for r in self.rows], "fixed": self.fixed,
                "model_id": self.model_id}


def _positions(slider: Any, step: float) -> tuple[float, ...]:
    lo, hi = float(slider.min), float(slider.max)
    return tuple(round(lo + i * step, 6) for i in range(round((hi - lo) / step) + 1))


def precompute_grid(panel: Any, max_points: int = 700) -> SliderGrid:
    """Evaluate ``panel``'s engine over its k1 × b grid, the other controls as they are.

    The step of the slider with more positions is doubled until the grid has at most
    ``max_points`` points; the sliders get those steps, so the page's sliders stop only
    where a figure was computed.
    """
    sliders = [panel.k1, panel.b]
    steps = [float(s.step) for s in sliders]
    while len(_positions(sliders[0], steps[0])) * len(_positions(sliders[1], steps[1])) \
            > max_points:
        longer = max((0, 1), key=lambda i: len(_positions(sliders[i], steps[i])))
        steps[longer] *= 2
    for slider, step in zip(sliders, steps, strict=True):
        slider.step = step
    k1s, bs = (_positions(s, st) for s, st in zip(sliders, steps, strict=True))
    channel, top_k, rrf_k = panel.channel.value, panel.top_k.value, panel.rrf_k.value
    rows = []
    for k1 in k1s:
        for b in bs:
            s = panel.engine.evaluate(k1, b, rrf_k, top_k, channel)
            rows.append((round(s.ndcg, 4), round(s.recall, 4), round(s.mrr, 4)))
    base = panel.baseline
    return SliderGrid((("k1", k1s), ("b", bs)),
                      tuple(m.format(k=base.k_recall) for m in _METRICS),
                      (round(base.ndcg, 4), round(base.recall, 4), round(base.mrr, 4)),
                      tuple(rows), f"channel {channel}, top_k {top_k}",
                      getattr(panel.ui, "model_id", ""))


def live_in_report(panel: Any, max_points: int = 700, force: bool = False) -> SliderGrid | None:
    """In the report's kernel (``$RAGSPINE_REPORT``), precompute and display ``panel``'s grid.

    Elsewhere (a live kernel, where every move re-scores) nothing is done and None is
    returned, unless ``force``.
    """
    if not (force or os.environ.get(REPORT_ENV) == "1"):
        return None
    from IPython.display import display

    grid = precompute_grid(panel, max_points)
    for name, widget in (("k1", panel.k1), ("b", panel.b)):
        widget.add_class(f"rs-grid-axis-{name}")
    panel.ui.add_class("rs-grid-root")
    panel.ui.add_class(f"rs-grid-{grid.model_id}")  # the page's script finds it by its model
    panel.metrics.add_class("rs-grid-metrics")
    panel.table.add_class("rs-grid-snapshot")
    for control in (panel.channel, panel.top_k, panel.rrf_k):
        control.disabled = True  # not part of the grid: their saved state is a snapshot
    text = (f"k1 and b stay live in the exported page: their figures were precomputed at "
            f"{len(grid.rows)} settings ({grid.fixed}).")
    display({GRID_MIME: grid.to_dict(), "text/plain": text}, raw=True)  # type: ignore[no-untyped-call]
    return grid
