"""Issue 15: shares the tables state are looked up, never divided again.

A table of significant customers lists each one's share of revenue and no revenue at
all; "the percentage of revenue from Apple and Huawei in 2017" is their stated shares,
each cited, and "the total / average percentage" their sum / average, with a note that
the percentages are the report's. When the whole is stored the share is computed as
before, and a row that is no percentage is never read as one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine_nb import Agent
from tests.tablehelpers import TATQA_REFERENCE as REF
from tests.tablehelpers import csv_agent, tatqa_agent

CUSTOMERS = [
    ["", "", "Fiscal Year", ""],
    ["", "2019", "2018", "2017"],
    ["Apple Inc. (“Apple”)", "32%", "36%", "34%"],
    ["Huawei Technologies Co., Ltd. (“Huawei”)", "13%", "8%", "11%"],
]
INTRO = ("Revenue from significant customers, those representing 10% or more of revenue for "
         "the respective periods, are summarized as follows:")
NOTE = "(The percentages as the report states them, not computed.)"


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tatqa_agent(tmp_path_factory.mktemp("shares"), CUSTOMERS, INTRO)


def test_the_stated_shares_are_looked_up_each_cited(agent: Agent) -> None:
    r = agent.ask("What are the respective percentage of revenue from Apple and Huawei in "
                  "2017?", REF)
    assert [(f.value, f.unit, f.operation, f.sources[0].locator) for f in r.figures] == [
        (34.0, "PCT", "lookup", "cell=D3"), (11.0, "PCT", "lookup", "cell=D4")]
    assert r.answer.startswith(NOTE)


def test_their_sum_and_average_are_computed_from_the_stated_cells(agent: Agent) -> None:
    total = agent.ask("What is the total percentage of revenue from Apple and Huawei in 2017?",
                      REF)
    assert [(f.value, f.unit, f.operation) for f in total.figures] == [(45.0, "PCT", "sum")]
    assert "Derivation: 34 + 11 = 45" in total.answer and total.answer.startswith(NOTE)
    mean = agent.ask("What is the average percentage of revenue from Apple and Huawei in 2018?",
                     REF)
    assert [(f.value, f.operation) for f in mean.figures] == [(22.0, "average")]


AMOUNTS = [
    ["", "2019", "2018"],
    ["Apple", "320", "360"],
    ["Other customers", "680", "640"],
    ["Revenue", "1,000", "1,000"],
]


def test_a_stored_whole_is_divided_and_an_amount_is_no_share(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, AMOUNTS, "Revenue by customer (in millions):")
    r = agent.ask("What percentage of revenue came from Apple in 2019?", REF)
    assert [(round(f.value, 2), f.operation) for f in r.figures] == [(32.0, "share")]
    assert NOTE not in r.answer


def test_as_a_percentage_of_asks_the_share_not_a_percent_column(tmp_path: Path) -> None:
    # a folder of filings: one table has a column headed "Percent" (a share of its own
    # total); "cost of goods sold as a percentage of revenue" was read as that column and
    # asked back between the two rows instead of dividing them (Nike, FinanceBench folder)
    agent = csv_agent(tmp_path, {
        "acme_fy2018_income.csv": "(Dollars in millions),FY2018,FY2017\n"
                                  'Revenues,"36,397","34,350"\n'
                                  'Cost of sales,"20,441","19,038"\n',
        "acme_fy2018_regions.csv": "(Dollars in millions),FY2018,Percent\n"
                                   'Americas,"14,855",41%\n'
                                   'Europe,"9,242",25%\n'})
    answer = agent.ask("What was Acme's cost of goods sold as a percentage of revenue in "
                       "FY2018?", REF).answer
    agent.close()
    assert "20,441 / 36,397 × 100 = 56.16%" in answer, answer
    assert "Which of these" not in answer


@pytest.mark.parametrize("asked", ["as a % of revenues", "as a percentage of revenues"])
def test_as_a_percent_sign_of_asks_the_share_not_a_row_named_percent_of(
        tmp_path: Path, asked: str) -> None:
    # Nike's 10-K: a row "% of revenues" under selling and administrative expense; "cost of
    # sales as a % of revenues" named that row with its "%" and asked back between it and
    # cost of sales, while "as a percentage of" divided (FinanceBench folder)
    agent = csv_agent(tmp_path, {"acme_fy2018_results.csv":
                                 "(Dollars in millions),FY2018,FY2017\n"
                                 'Revenues,"36,397","34,350"\n'
                                 'Cost of sales,"20,441","19,038"\n'
                                 'Total selling and administrative expense,"11,511","10,563"\n'
                                 "% of revenues,31.6%,30.8%\n"})
    answer = agent.ask(f"What was Acme's cost of sales {asked} in FY2018?", REF).answer
    agent.close()
    assert "20,441 / 36,397 × 100 = 56.16%" in answer, answer
    assert "Which of these" not in answer
