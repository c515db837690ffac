"""The stakeholder view: scorecards, inline-styled cards, the report's output filter, charts."""

from __future__ import annotations

import json
import re
from typing import Any

import nbformat
import pytest

from ragspine_nb.display import Card, Headline, Scorecard, Table, render_flow, render_html
from ragspine_nb.display.render import render_text, render_transcript
from ragspine_nb.display.scorecard import SCORECARD_MIME, render_summary_page
from tests.conftest import ROOT

EVIL = '<script>alert("x")</script>&<img src=x onerror=1>'
NOTEBOOKS = sorted((ROOT / "notebooks").glob("0*.ipynb"))


def _no_network(html: str) -> None:
    assert not re.search(r"(src|href)\s*=\s*['\"]?(https?:)?//", html)
    assert "@import" not in html and "url(" not in html and "<script" not in html


def _unstyled(html: str) -> str:
    """What JupyterLab shows of an untrusted output: every <style> element removed."""
    return re.sub(r"<style>.*?</style>", "", html, flags=re.S)


# ------------------------------------------------------------------------- inline styles
def test_cards_keep_their_layout_when_the_stylesheet_is_stripped() -> None:
    flow = _unstyled(render_flow("Agent", [[("question", "")], [("gate", "x"), ("b", "")]]))
    assert re.search(r'class="rs-flow" style="display:flex;flex-direction:row', flow)
    assert re.search(r'class="rs-col" style="display:flex;flex-direction:column', flow)
    card = _unstyled(render_html(Card("QAReport (tool mode)", "63 cases",
                                      tables=(Table("t", ("a",), (("1",),)),))))
    assert re.search(r'class="rs-card" style="border:1px solid #999;', card)
    assert re.search(r'class="rs-sub" style="margin-left:8px"', card)  # title ≠ subtitle run-on
    assert '<caption style="text-align:left' in card and "<td>1</td>" in card
    chat = render_transcript([], title="Conversation")
    assert "style='font-weight:600" in chat


def test_card_checks_are_badges_and_text() -> None:
    card = Card("T", checks=(("correct", "0.453 (target ≥ 0.5)", False),
                             (EVIL, "ok", True)))
    html = render_html(card)
    assert ">MISS</span> correct: 0.453 (target ≥ 0.5)" in html and ">PASS</span>" in html
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "[MISS] correct: 0.453 (target ≥ 0.5)" in render_text(card)


# ---------------------------------------------------------------------------- scorecard
def test_headline_targets_and_trends() -> None:
    wrong = Headline("TAT-QA", "wrong number", 0.025, ("≤", 0.01), baseline=0.198)
    assert wrong.met is False and wrong.trend() == ("▼ −0.173 vs 0.198", True)
    fab = Headline("QA", "fabrication count", 3, ("≤", 0), baseline=0, digits=0)
    assert (fab.met, fab.value_text, fab.target_text) == (False, "3", "≤ 0")
    assert fab.trend() == ("▲ +3 vs 0", False)
    ndcg = Headline("BM25", "scifact nDCG@10", 0.6646, ("≥", 0.665), digits=4)
    assert ndcg.met is False and ndcg.value_text == "0.6646" and ndcg.target_text == "≥ 0.6650"
    assert Headline("x", "y", 1.0, ("≥", 1.0)).met is True  # on the target is a pass
    assert Headline("x", "y", 1.0).met is None and Headline("x", "y", 1.0).trend() == ("", None)


def test_scorecard_bundle_carries_its_figures_and_escapes() -> None:
    card = Scorecard("Headline <figures>", [
        Headline("QA gates", "numeric accuracy", 1.0, ("≥", 1.0), 1.0),
        Headline(EVIL, EVIL, 0.4, ("≥", 0.5), note=EVIL)])
    bundle = card._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", SCORECARD_MIME}
    assert bundle["text/plain"] == "Scorecard('Headline <figures>', headlines=2, met=1, missed=1)"
    data = json.loads(json.dumps(bundle[SCORECARD_MIME]))
    assert Scorecard.from_dict(data).headlines == card.headlines
    html = bundle["text/html"]
    assert "<script>" not in html and "&lt;script&gt;" in html and "1 of 2 targets met" in html
    assert ">PASS</span>" in html and ">MISS</span>" in html and "= baseline" in html
    _no_network(html)
    assert _unstyled(html) == html  # every style is inline: nothing for a sanitizer to strip
    assert list(card.to_frame()["status"]) == ["pass", "miss"]


def test_summary_page_is_one_static_page() -> None:
    page = render_summary_page("Report", [Scorecard("S", [Headline("a", "b", 1.0, ("≥", 1))])],
                               [("01_x.html", EVIL)], nav="<nav>n</nav>", lead="lead")
    assert page.startswith("<!DOCTYPE html>") and page.index("<nav>n</nav>") < page.index("S<")
    assert 'href="01_x.html"' in page and "&lt;script&gt;" in page
    _no_network(page.replace("<script>", ""))  # (the escaped EVIL text holds none)
    assert "<script" not in page.replace("&lt;script", "")


# -------------------------------------------------------------------------- TAT-QA card
def test_tatqa_card_writes_counts_as_integers_and_marks_missed_targets() -> None:
    from ragspine_nb.eval.tatqa.evaluate import summarize
    from ragspine_nb.eval.tatqa.run import ContextRun, Outcome
    from ragspine_nb.eval.tatqa.score import Verdict

    def asked(category: str) -> Outcome:
        return Outcome("c", "u", "Q?", "span", "table", ("1",), "", "", "single_cell",
                       Verdict(category, "false_figure" if category == "wrong_number" else ""),
                       (), "", 0.001)

    outcomes = tuple(asked(c) for c in ["correct"] * 1191 + ["wrong_number"] * 190)
    report = summarize([ContextRun("c", outcomes, 0.01, 0.003, 3)])
    report["text_span"] = {"asked": 349, "recall@1": 0.7, "recall@3": 0.831, "recall@10": 0.9}
    html = report._repr_html_()
    assert "<td>1,191</td>" in html and "<td>190</td>" in html
    assert not re.search(r"<td>\d[\d,]*\.000</td>", html.split("Earlier subsets")[0].replace(
        "<td>0.000</td>", "").replace("<td>1.000</td>", ""))
    assert ">MISS</span> wrong number: 0.138 (target ≤ 0.01)" in html
    assert ">PASS</span> correct: 0.862 (target ≥ 0.5)" in html
    assert ">MISS</span> text-span recall@3: 0.831 (target ≥ 0.88)" in html
    assert list(report.to_frame()["status"][:2]) == ["met", "MISSED"]
    assert [(h.label, h.met) for h in report.headlines()] == [
        ("wrong number", False), ("correct", True), ("text-span recall@3", False)]
    report["split"] = "../shared/datasets/tatqa/tatqa_dataset_dev.json"
    assert report.split_name == "dev"


# ------------------------------------------------------------------- the report's filter
def _nb_with(outputs: list[Any], widgets: dict[str, Any] | None = None) -> Any:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("x")
    cell.outputs = outputs
    nb.cells = [cell]
    if widgets:
        nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json":
                                  {"state": widgets}}
    return nb


def test_the_stakeholder_view_leaves_out_raw_values_stderr_and_progress_bars() -> None:
    from ragspine_nb.report.export import stakeholder_view

    out = nbformat.v4
    view = "application/vnd.jupyter.widget-view+json"
    nb = _nb_with([
        out.new_output("execute_result", {"text/plain": "{'tool': ([], [])}"}),
        out.new_output("execute_result", {"text/plain": "T", "text/html": "<table></table>"}),
        out.new_output("stream", name="stderr", text="warning"),
        out.new_output("stream", name="stdout", text="answer"),
        out.new_output("display_data", {view: {"model_id": "bar"}, "text/plain": "HBox"}),
        out.new_output("display_data", {view: {"model_id": "ask"}, "text/plain": "VBox"}),
    ], widgets={"bar": {"model_name": "HBoxModel", "state": {"children": ["IPY_MODEL_p"]}},
                "p": {"model_name": "FloatProgressModel", "state": {}},
                "ask": {"model_name": "VBoxModel", "state": {"children": []}}})
    kept = stakeholder_view(nb).cells[0].outputs
    assert [(o.output_type, o.get("name"), o.get("data", {}).get(view)) for o in kept] == [
        ("execute_result", None, None), ("stream", "stdout", None),
        ("display_data", None, {"model_id": "ask"})]


def test_headline_figures_put_each_gate_against_the_baseline() -> None:
    from ragspine_nb.eval.qa import GATES, CaseResult, QAReport
    from ragspine_nb.report.export import headline_figures

    case = CaseResult("c1", "structured", {}, {g: True for g in GATES}, True, "42")
    rows = headline_figures({"tool": QAReport("tool", [case])},
                            {"tool": {g: 1.0 for g in GATES} | {"fabrication_count": 0}},
                            retrieval=[{"dataset": "scifact", "nDCG@10": 0.6646},
                                       {"dataset": "other", "nDCG@10": 0.1}])
    assert [r.label for r in rows] == [g.replace("_", " ") for g in GATES] + [
        "fabrication count", "scifact nDCG@10"]
    # 0.6646 meets the published 0.665 within its rounding (three decimals)
    assert [r.met for r in rows] == [True] * len(GATES) + [False, True]
    assert rows[len(GATES)].trend() == ("▲ +1 vs 0", False)


# ------------------------------------------------------------------------------ charts
def test_chart_legends_sit_outside_the_bars() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ragspine_nb.display.plots import bar_chart

    fig, ax = plt.subplots(figsize=(7, 3))
    bar_chart(ax, {"all": {"correct": 0.9, "wrong": 0.0}, "span": {"correct": 1.0,
                                                                  "wrong": 0.5}},
              title="t", targets={"correct": 0.5})
    fig.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    assert legend.x0 >= ax.get_window_extent().x1  # right of the plot, over no bar
    assert ax.get_ylabel() == "rate (0–1)"
    labels = [t.get_text() for t in ax.texts]
    assert "0.000" not in labels and "0.900" in labels  # zero bars are not labelled
    assert "correct target (0.5)" in [t.get_text() for t in ax.get_legend().get_texts()]
    plt.close(fig)


# ------------------------------------------------------------------ the stored notebooks
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_notebooks_open_unmodified_in_jupyterlab(path: Any) -> None:
    """JupyterLab rewrites a kernelspec that differs from the kernel's own on opening (#19)."""
    from jupyter_client.kernelspec import KernelSpecManager

    nb = json.loads(path.read_text(encoding="utf-8"))
    spec = KernelSpecManager().get_kernel_spec("python3")
    assert nb["metadata"]["kernelspec"] == {"name": "python3", "language": spec.language,
                                            "display_name": spec.display_name}
    assert nb["nbformat"] == 4 and nb["nbformat_minor"] >= 5
    assert [c["id"] for c in nb["cells"]] == [f"{path.name[:2]}-{i:02d}"
                                              for i in range(len(nb["cells"]))]
