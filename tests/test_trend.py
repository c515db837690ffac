"""Which way a figure moved: "Has the quick ratio improved or declined?", "Did revenue rise?".

A question about a figure's direction is answered as a label (rose / fell, or yes / no
when it asks one way), never with a headline number: the compared values are inputs
with their sources, and a metric computed by its formula shows the formula per year.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb import Agent
from ragspine_nb.agent.reading.question_kind import TARGET_DIRECTION, direction_words, question_kind
from tests.tablehelpers import csv_agent

REF = date(2024, 3, 1)
TABLE = """\
"(In millions)",,,
,2023,2022,2021
Net sales,"14,694","14,544","12,861"
Cost of sales,"(11,969)","(11,724)","(10,129)"
Gross profit,"2,725","2,820","2,732"
Total current assets,"5,308","5,853","5,000"
Total current liabilities,"4,476","5,103","4,900"
Net income,"4,756","4,822","4,000"
Net cash provided by operating activities,"7,838","7,230","6,000"
Purchases of property and equipment,(442),(348),(300)
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return csv_agent(tmp_path_factory.mktemp("trend"), {"statements.csv": TABLE},
                     metadata={"statements.csv": {"company": "Amcor"}})


@pytest.mark.parametrize(("question", "direction"), [
    ("Has AMCOR's quick ratio improved or declined between FY2023 and FY2022?", ""),
    ("Does Adobe have an improving operating margin profile as of FY2022?", ""),
    ("Did revenue increase from 2018 to 2019?", "up"),
    ("Was there any drop in cash between FY2023 and FY2022?", "down"),
    ("收入是否增长？", "up"),
])
def test_a_question_about_which_way_a_figure_moved_is_a_direction(question: str,
                                                                   direction: str) -> None:
    kind = question_kind(question)
    assert (kind.kind, kind.target) == ("label", TARGET_DIRECTION)
    assert direction_words(question.lower()) == direction


@pytest.mark.parametrize("question", [
    "Was the decrease in revenue due to lower prices?",
    "What was the increase in revenue?",
    "Is the increase in revenue material?",
])
def test_a_cause_or_an_amount_of_a_change_is_no_direction(question: str) -> None:
    assert question_kind(question).target != TARGET_DIRECTION


def test_a_derived_metrics_direction_shows_each_years_formula(agent: Agent) -> None:
    r = agent.ask("Does Amcor have an improving gross margin profile as of FY2023? If gross "
                  "margin is not a useful metric for a company like this, then state that "
                  "and explain why.", REF)
    assert r.figures == ()  # a direction is no headline number
    first = r.answer.splitlines()[0]
    assert "Fell: Amcor Gross margin (%) fell from 19.39" in first
    assert "in FY2022 to 18.54" in first and "(-0.85 percentage points)" in first
    assert "FY2023: Gross margin (%) = Gross profit / Revenue × 100: 2,725 / 14,694 × 100" \
        in r.answer
    assert {s["locator"] for s in r.sources} == {"cell=B3", "cell=B5", "cell=C3", "cell=C5"}


def test_asked_one_way_it_is_answered_yes_or_no(agent: Agent) -> None:
    up = agent.ask("Did Amcor's net sales increase from FY2022 to FY2023?", REF)
    assert up.answer.startswith("Yes: Amcor Revenue rose from 14,544")
    assert "(+150, +1.0%)" in up.answer.splitlines()[0]
    down = agent.ask("Did Amcor's gross profit increase from FY2022 to FY2023?", REF)
    assert down.answer.startswith("No: Amcor Gross profit fell from 2,820")
    assert up.figures == down.figures == ()


def test_the_ratio_moves_both_ways_named_and_a_missing_operand_is_named(agent: Agent) -> None:
    r = agent.ask("Has Amcor's current ratio improved or declined between FY2023 and "
                  "FY2022?", REF)
    assert r.answer.startswith("Rose: Amcor Current ratio rose from 1.147")
    quick = agent.ask("Has Amcor's quick ratio improved or declined between FY2023 and "
                      "FY2022?", REF)
    assert quick.figures == ()
    assert "Quick ratio, FY2023: Inventories (INVENTORIES, FY2023) is not in the fact store" \
        in quick.answer
    # the operands found are cited as inputs, never combined into a figure
    assert "Input found: Amcor Total current assets, FY2023: 5,308" in quick.answer
    assert {"cell=B6", "cell=C6", "cell=B7", "cell=C7"} <= {s["locator"] for s in quick.sources}
    level = agent.ask("What is Amcor's quick ratio in FY2023?", REF)
    assert level.figures == ()
    assert level.answer.startswith("Quick ratio (FY2023) is stated by no table and not "
                                   "computed: Inventories (INVENTORIES, FY2023) is not in the "
                                   "fact store; no estimate is given (formula: Quick ratio = "
                                   "(Total current assets - Inventories) / Total current "
                                   "liabilities)")
    assert [s["locator"] for s in level.sources] == ["cell=B6", "cell=B7"]


def test_free_cash_flow_conversion_is_a_formula_of_a_formula(agent: Agent) -> None:
    r = agent.ask("Does Amcor have an improving free cashflow conversion as of FY2023?", REF)
    assert r.answer.startswith("Rose: Amcor Free cash flow conversion (%) rose from 142.72")
    assert "(+12.79 percentage points)" in r.answer.splitlines()[0]
    assert "FY2023: Free cash flow conversion (%) = (Net cash from operating activities - " \
        "Capital expenditure) / Net income × 100: (7,838 - 442 (the size of -442)) / 4,756 " \
        "× 100 = 155.51%" in r.answer
