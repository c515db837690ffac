"""The report's summary page read as a stakeholder would: the checklist of issue 40.

Each measure is explained in one sentence that says whether it passed; each figure names
its data (the demo's fictional company or a public benchmark) and its split; one figure
per measure and data, never two that disagree; an absent dataset is a visible "not run"
line saying how to get it.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from ragspine_nb.display.scorecard import render_summary_page
from ragspine_nb.eval.headlines import MEASURES, headline_scorecard
from ragspine_nb.eval.qa import GATES, CaseResult, QAReport
from ragspine_nb.eval.tatqa.report import TatqaReport
from tests.conftest import ROOT

DEV = json.loads((ROOT / "bench" / "results" / "tatqa_dev.json").read_text(encoding="utf-8"))
DATA_WORDS = ("the demo's fictional company", "the public benchmark", "your own files")


class _Verdicts(HTMLParser):
    """The text of each ``<li>`` of the page's ``ul.rs-verdict``."""

    def __init__(self) -> None:
        super().__init__()
        self.items: list[str] = []
        self._in_list = self._in_item = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "ul" and ("class", "rs-verdict") in attrs:
            self._in_list = True
        elif tag == "li" and self._in_list:
            self._in_item = True
            self.items.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "ul":
            self._in_list = False
        elif tag == "li":
            self._in_item = False

    def handle_data(self, data: str) -> None:
        if self._in_item:
            self.items[-1] += data


def _qa(mode: str, n: int = 4) -> QAReport:
    return QAReport(mode, [CaseResult(f"c{i}", "structured", {}, {g: True for g in GATES},
                                      False, "42") for i in range(n)])


def _page(**kwargs: object) -> list[str]:
    card = headline_scorecard({"tool": _qa("tool"), "agent": _qa("agent")},
                              {m: {g: 1.0 for g in GATES} | {"fabrication_count": 0}
                               for m in ("tool", "agent")}, **kwargs)  # type: ignore[arg-type]
    parser = _Verdicts()
    parser.feed(render_summary_page("Report", [card], [("04.html", "Eval")]))
    return [" ".join(item.split()) for item in parser.items]


def _check(items: list[str]) -> None:
    figures = [i for i in items if not i.startswith("NOT RUN")]
    assert figures
    for item in figures:
        label = re.match(r"(PASS|MISS) (.+?), the ", item)
        assert label, item  # a verdict badge, then the measure and what it means
        measure = label.group(2).lower()
        measure = measure.split(" ", 1)[1] if measure.endswith("ndcg@10") else measure
        assert any(m.lower() == measure for m in MEASURES), item
        assert MEASURES[next(m for m in MEASURES if m.lower() == measure)] in item
        assert any(w in item for w in DATA_WORDS), item  # the data it was measured on
        assert item.endswith(("— passed.", "— missed.")), item
    # one figure per measure and data: never two values for the same thing
    keys = [re.sub(r": [\d,.]+ on ", ": # on ", i) for i in figures]
    assert len(keys) == len(set(keys)), keys


def test_every_measure_is_explained_labelled_and_judged() -> None:
    tatqa_now = TatqaReport(dict(DEV["after"], questions=300, contexts=50))
    items = _page(tatqa=tatqa_now, tatqa_trend=(DEV["after"], DEV["before_legacy_loader"]),
                  retrieval=[{"dataset": "scifact", "queries": 300, "nDCG@10": 0.6646}])
    _check(items)
    demo = [i for i in items if "fictional company ACME" in i]
    assert len(demo) == 2 * (len(GATES) + 1)  # both modes, each gate and the fabrication count
    assert all("4 test questions" in i for i in demo)
    # TAT-QA: the whole dev split, once; the quick run is not a second "correct" figure
    correct = [i for i in items if i.startswith(("PASS Correct", "MISS Correct"))]
    assert len(correct) == 1 and "dev split, all 1,668 questions" in correct[0]
    # SciFact's 0.6646 against the published 0.665 (three decimals) is within rounding
    assert any(i.startswith("PASS Scifact nDCG@10") for i in items)
    assert not any(i.startswith("NOT RUN") for i in items)


def test_absent_datasets_are_visible_lines_with_how_to_get_them() -> None:
    items = _page(retrieval=[{"dataset": "scifact", "note": "not available"},
                             {"dataset": "cmrc2018-chunks", "note": "not available"}])
    _check(items)
    missing = [i for i in items if i.startswith("NOT RUN")]
    assert len(missing) == 3, items
    assert all("$RAGSPINE_DATA" in i for i in missing)
    assert any("TAT-QA" in i and "github.com/NExTplusplus/TAT-QA" in i for i in missing)
    assert any("scifact" in i and "BEIR" in i for i in missing)


def test_a_quick_tatqa_run_alone_names_its_size() -> None:
    items = _page(tatqa=TatqaReport(dict(DEV["after"], questions=300, contexts=50)))
    _check(items)
    (correct,) = [i for i in items if " Correct, " in i]
    assert "dev split, 300 questions (this run)" in correct
