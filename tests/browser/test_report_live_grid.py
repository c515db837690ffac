"""An exported TuningPanel stays live offline: moving a slider shows the precomputed figures.

A small notebook (a synthetic corpus, tests/grid_corpus.py) is executed by ``build_report``
(whose kernel precomputes the panel's k1 × b grid) and opened in chromium with the network
off. Typing a new k1 into the slider's readout changes nDCG@10 to the figure the engine
computes for that setting; a widget that cannot be live carries a "snapshot" line.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.browser.conftest import ROOT, SHOTS
from tests.grid_corpus import corpus

pytestmark = pytest.mark.slow

SOURCE = f'''import sys
sys.path.insert(0, {str(ROOT)!r})
import ipywidgets as w
from IPython.display import display
from tests.grid_corpus import corpus
from ragspine_nb.retrieval import BM25Index
from ragspine_nb.retrieval.tuning import TuningEngine
from ragspine_nb.widgets import TuningPanel
from ragspine_nb.widgets.static_grid import live_in_report

ids, texts, queries, qrels = corpus()
panel = TuningPanel(TuningEngine(BM25Index.build(ids, texts), queries, qrels))
display(panel)
live_in_report(panel)
display(w.Button(description="Ask"))'''


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import subprocess

    from ragspine_nb.errors import RagspineError
    from ragspine_nb.report.export import build_report, ensure_vendor

    vendor = ROOT / "build" / "vendor"
    try:
        ensure_vendor(vendor)
    except (RagspineError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"the widget renderer could not be fetched from npm here: {exc}")
    folder = tmp_path_factory.mktemp("live")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Live grid"),
                nbformat.v4.new_code_cell(SOURCE)]
    nbformat.write(nb, folder / "live.ipynb")
    pages = build_report([folder / "live.ipynb"], folder / "out", vendor, progress=False)
    return pages[1]


def _metric(page: Any, name: str) -> str:
    row = page.locator(".rs-grid-metrics tbody tr", has_text=name).first
    return str(row.locator("td").nth(1).inner_text())


def test_moving_an_exported_slider_changes_the_metric_offline(browser: Any, page: Path) -> None:
    from ragspine_nb.retrieval import BM25Index
    from ragspine_nb.retrieval.tuning import TuningEngine

    html = page.read_text(encoding="utf-8")
    grid = json.loads(re.search(r'"rs-static-grid"[^>]*>(.*?)</script>', html, re.S)
                      .group(1).replace("<\\/", "</"))
    ids, texts, queries, qrels = corpus()
    engine = TuningEngine(BM25Index.build(ids, texts), queries, qrels)
    start = engine.evaluate(1.5, 0.75)
    moved = engine.evaluate(0.3, 0.75)
    assert round(moved.ndcg, 4) != round(start.ndcg, 4)  # the move matters on this corpus
    context = browser.new_context(offline=True, viewport={"width": 1280, "height": 1000})
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    tab = context.new_page()
    tab.goto(page.as_uri())
    tab.locator(".rs-grid-root[data-rs-grid-index]").wait_for(timeout=60_000)
    assert _metric(tab, "nDCG@10") == f"{start.ndcg:.4f}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SHOTS / "report_live_grid_before.png"), full_page=True)
    readout = tab.locator(".rs-grid-axis-k1 .widget-readout")
    readout.click()
    tab.keyboard.press("Control+A")
    tab.keyboard.type("0.3")
    tab.keyboard.press("Enter")
    tab.wait_for_function(
        "v => document.querySelector('.rs-grid-metrics tbody tr td:nth-child(2)')"
        ".textContent === v", arg=f"{moved.ndcg:.4f}", timeout=10_000)
    assert _metric(tab, "MRR") == f"{moved.mrr:.4f}"
    delta = moved.ndcg - start.ndcg
    row = tab.locator(".rs-grid-metrics tbody tr", has_text="nDCG@10").first
    assert row.locator("td").nth(3).inner_text() == f"{'+' if delta >= 0 else '-'}{abs(delta):.4f}"
    tab.screenshot(path=str(SHOTS / "report_live_grid_moved.png"), full_page=True)
    # what is not live says so: the movers list, and the widget with no grid
    assert tab.locator(".rs-grid-snapshot .rs-snapshot").count() == 1
    assert tab.locator(".rs-live-note").count() == 1 and "Live in this page" in html
    assert tab.locator("div.rs-snapshot", has_text="Snapshot: this widget").count() == 1
    assert len(grid["rows"]) == 651 and [a["name"] for a in grid["axes"]] == ["k1", "b"]
    assert [u for u in requests if not u.startswith("data:")] == [page.as_uri()]
    context.close()
