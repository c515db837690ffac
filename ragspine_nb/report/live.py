"""Widgets in the static report: live where their figures were precomputed, else a snapshot.

A TuningPanel run under ``ragspine-nb report`` leaves its precomputed slider grid as an
output (:data:`~ragspine_nb.widgets.static_grid.GRID_MIME`). :func:`mark_widgets` turns
that output into an embedded JSON block that :data:`LIVE_SCRIPT` reads in the browser:
when a slider's readout changes, the metrics table shows the figures of the nearest
precomputed position (no kernel). Every other widget gets a visible "snapshot" line above
it: its controls render, but nothing recomputes without a kernel.
"""

from __future__ import annotations

import html
import json
from typing import Any

from ragspine_nb.widgets.static_grid import GRID_MIME

__all__ = ["LIVE_SCRIPT", "SNAPSHOT_NOTE", "mark_widgets"]

_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: The line shown above a widget that cannot be live in a static page.
SNAPSHOT_NOTE = ("Snapshot: this widget shows its state when the report was built. Its "
                 "controls do not recompute here (there is no kernel); open the notebook in "
                 "Jupyter to use it live.")
_NOTE_STYLE = ("margin:4px 0;padding:3px 8px;border-left:3px solid {c};background:#f6f8fa;"
               "font-size:12px;color:#1f2328")

#: Reads every ``script.rs-static-grid`` and keeps its widget's metrics table in step with
#: the sliders' readouts (the renderer draws the widgets after the page loads: it waits).
LIVE_SCRIPT = r"""
(function () {
  function fixed(v) { return v.toFixed(4); }
  function delta(v) { return (v >= 0 ? "+" : "-") + Math.abs(v).toFixed(4); }
  function wire(grid, root) {
    var readouts = grid.axes.map(function (a) {
      return root.querySelector(".rs-grid-axis-" + a.name + " .widget-readout");
    });
    if (readouts.some(function (r) { return !r; })) { return false; }
    var snap = root.querySelector(".rs-grid-snapshot");
    if (snap && !snap.querySelector(".rs-snapshot")) {
      var note = document.createElement("div");
      note.className = "rs-snapshot";
      note.setAttribute("style", "font-size:12px;color:#9a6700;margin:2px 0");
      note.textContent = "Snapshot: the list below is from the saved settings; it does " +
        "not follow the sliders.";
      var box = snap.querySelector(".widget-html-content") || snap;
      box.insertBefore(note, box.firstChild);
    }
    function refresh() {
      var index = 0;
      grid.axes.forEach(function (a, i) {
        var v = parseFloat(readouts[i].textContent), best = 0;
        a.values.forEach(function (x, j) {
          if (Math.abs(x - v) < Math.abs(a.values[best] - v)) { best = j; }
        });
        index = index * a.values.length + best;
      });
      var row = grid.rows[index];
      var trs = root.querySelectorAll(".rs-grid-metrics tbody tr");
      for (var i = 0; i < trs.length && i < row.length; i++) {
        trs[i].cells[1].textContent = fixed(row[i]);
        trs[i].cells[3].textContent = delta(row[i] - grid.start[i]);
      }
      root.querySelectorAll(".rs-grid-metrics details").forEach(function (d) { d.remove(); });
      root.setAttribute("data-rs-grid-index", String(index));
    }
    readouts.forEach(function (r) {
      new MutationObserver(refresh).observe(r, {childList: true, characterData: true,
                                                subtree: true});
    });
    refresh();
    return true;
  }
  function start() {
    var blocks = Array.prototype.slice.call(document.querySelectorAll("script.rs-static-grid"));
    var pending = blocks.map(function (b) { return JSON.parse(b.textContent); });
    var tries = 0;
    var timer = setInterval(function () {
      pending = pending.filter(function (grid) {
        var root = document.querySelector(".rs-grid-" + grid.model_id);
        return !(root && wire(grid, root));
      });
      if (!pending.length || ++tries > 600) { clearInterval(timer); }
    }, 100);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else { start(); }
}());
"""


def _grid_html(grid: dict[str, Any]) -> str:
    data = json.dumps(grid, separators=(",", ":")).replace("</", "<\\/")
    n = len(grid["rows"])
    note = (f"Live in this page: moving k1 or b shows figures precomputed when the report was "
            f"built ({n} settings; {grid['fixed']}). The other controls are a snapshot.")
    return (f'<div class="rs-live-note" style="{_NOTE_STYLE.format(c="#1a7f37")}">'
            f"{html.escape(note)}</div>"
            f'<script type="application/json" class="rs-static-grid">{data}</script>')


def mark_widgets(nb: Any) -> bool:
    """Embed each precomputed grid and put a snapshot line above every other widget.

    ``nb`` (an executed notebook node) is changed in place; returns whether it holds a
    grid (the page then needs :data:`LIVE_SCRIPT`).
    """
    import nbformat

    live = {out["data"][GRID_MIME].get("model_id") for cell in nb.cells
            for out in cell.get("outputs", []) if GRID_MIME in out.get("data", {})}
    snapshot = (f'<div class="rs-snapshot" style="{_NOTE_STYLE.format(c="#9a6700")}">'
                f"{html.escape(SNAPSHOT_NOTE)}</div>")
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        outputs = []
        for out in cell.outputs:
            data = out.get("data", {})
            if GRID_MIME in data:
                outputs.append(nbformat.v4.new_output(  # type: ignore[no-untyped-call]
                    "display_data", data={"text/html": _grid_html(data[GRID_MIME])}))
                continue
            model = data.get(_WIDGET_VIEW, {}).get("model_id")
            if model is not None and model not in live:
                outputs.append(nbformat.v4.new_output(  # type: ignore[no-untyped-call]
                    "display_data", data={"text/html": snapshot}))
            outputs.append(out)
        cell.outputs = outputs
    return bool(live)
