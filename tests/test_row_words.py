"""Issue 15: a row label with a line item's words, in any order, is that line item.

"Net cash operating activities" is the built-in net cash from operating activities, so
"the cash flow from operations in 2019" finds it. A "%" is a word ("Gross margin" in
dollars is no "Gross margin (%)"), a metric code is no name, and a row under a section
heading keeps its own reading.
"""

from __future__ import annotations

from pathlib import Path

from tests.tablehelpers import TATQA_REFERENCE as REF
from tests.tablehelpers import read_table, tatqa_agent

LIQUIDITY = [
    ["($ in billions)", "", "", ""],
    ["", "2019", "2018", "2017"],
    ["Net cash operating activities", "$14.8", "$15.2", "$16.7"],
    ["Gross margin", "$40.6", "$41.2", "$37.1"],
]


def test_a_label_with_a_line_items_words_is_that_item(tmp_path: Path) -> None:
    ex = read_table(tmp_path, LIQUIDITY)
    rows = {f.source_locator: (f.metric_code, f.unit) for f in ex.facts}
    assert rows["cell=B3"] == ("OPERATING_CASH_FLOW", "BN")
    # "gross margin" in dollars is not the built-in "Gross margin (%)"
    assert rows["cell=B4"][0] != "GROSS_MARGIN"


def test_the_line_item_is_answered_by_its_usual_name(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, LIQUIDITY)
    r = agent.ask("What is the cash flow from operations in 2019?", REF)
    assert [(f.value, f.unit) for f in r.figures] == [(14.8, "BN")]
    assert r.figures[0].sources[0].locator == "cell=B3"


def test_a_row_under_a_section_keeps_its_own_reading(tmp_path: Path) -> None:
    rows = [["(in millions)", "2019", "2018"], ["Deferred tax liabilities:", "", ""],
            ["Property, plant, and equipment", "(120)", "(98)"]]
    ex = read_table(tmp_path, rows)
    assert {f.metric_code for f in ex.facts} != {"PPE"}
