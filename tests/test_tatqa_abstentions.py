"""Issue 15: more correct answers without more wrong ones — abstentions turned into figures.

Every table is a user's ``table.csv`` (rows written with Python's ``csv`` module) beside
a ``notes.md`` (paragraphs separated by blank lines), ingested with no profile, and
asked as a user would. Each test states the exact figures expected:

* a header cell writing a currency mark before zeros ("US$000", "£000") states the
  table's scale (thousands of that currency); it is no figure, so the table's header
  block, label column and body are read as written;
* a fiscal year written as the two calendar years it spans ("2018/2019", "2017/18") is
  one fiscal year, the later, as a table's header of that form is stored;
* a bare year listed right after a quarter or a half ("Q4 2019 and 2018") is the same
  quarter or half of that year.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine_nb.agent.reading.intent import RuleIntentParser
from ragspine_nb.extract.layout import is_figure
from ragspine_nb.extract.scale import read_stated
from ragspine_nb.extract.values import detect_unit, parse_number
from ragspine_nb.profile import DomainProfile
from tests.tablehelpers import TATQA_REFERENCE as REF
from tests.tablehelpers import figures_of, tatqa_agent

# ------------------------------------------------- a currency mark before zeros: a scale
EXPENSES = [
    ["Consolidated", "", ""],
    ["", "2019", "2018"],
    ["", "US$000", "US$000"],
    ["Profit before income tax includes the following specific expenses:", "", ""],
    ["Costs associated with acquisitions", "244", "572"],
    ["Finance costs", "", ""],
    ["Interest and finance charges paid/payable", "1", "2"],
    ["Finance costs expensed", "200", "62"],
    ["Research and development costs incurred", "18,478", "17,793"],
]


@pytest.mark.parametrize(("cell", "unit"), [("US$000", "USD_K"), ("$000", "K"),
                                            ("RMB000", "CNY_K"), ("£000", "K")])
def test_a_currency_mark_before_zeros_is_a_scale_not_a_figure(cell: str, unit: str) -> None:
    assert parse_number(cell).value is None and not is_figure(cell)
    assert detect_unit(cell) == unit and read_stated(cell).scale == "K"
    assert parse_number("$0").value == 0.0  # a zero amount is still a figure
    assert detect_unit("$000,000") is None and read_stated("$000,000").scale == ""


def test_a_table_headed_us_dollars_thousands_is_read_under_its_header(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, EXPENSES, "Note 5. Expenses")
    assert figures_of(agent, "What is the percentage change in the research and development "
                           "costs incurred from 2018 to 2019?") == [(3.85, "PCT",
                                                                     "percent_change")]
    assert figures_of(agent, "What was the finance costs expensed in 2019?") == [
        (200.0, "USD_K", "lookup")]


# ------------------------------------------------- periods written as table headers write them
EBIT = [
    ["€ million", "2017/2018", "2018/2019"],
    ["Earnings before interest and taxes EBIT", "713", "828"],
    ["Net financial result", "−137", "−119"],
    ["Earnings before taxes EBT", "576", "709"],
]
REVENUES = [
    ["OPERATING REVENUES", "Q4 2019", "Q4 2018", "$ CHANGE", "% CHANGE"],
    ["Bell Wireless", "2,493", "2,407", "86", "3.6%"],
    ["Bell Media", "879", "850", "29", "3.4%"],
    ["Total BCE operating revenues", "6,316", "6,215", "101", "1.6%"],
]


@pytest.mark.parametrize(("question", "periods"), [
    ("What was EBIT in 2018/2019 from 2017/18?", (("FY", "2019"), ("FY", "2018"))),
    ("What was revenue in Q4 2019 and 2018?", (("QUARTER", "2019Q4"), ("QUARTER", "2018Q4"))),
    ("What was revenue in H1 2019 vs 2018?", (("HY", "2019H1"), ("HY", "2018H1"))),
    ("What was revenue in 2019 and 2018?", (("FY", "2019"), ("FY", "2018"))),
    ("What was revenue between 2015/2019?", (("FY", "2015"), ("FY", "2019"))),
])
def test_periods_written_as_headers_write_them(question: str,
                                               periods: tuple[tuple[str, str], ...]) -> None:
    parsed = RuleIntentParser(DomainProfile.builtin()).parse(question, REF)
    assert parsed.periods == periods


def test_a_split_fiscal_year_is_the_later_year(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, EBIT, "Financial result")
    asked = "Earnings before interest and taxes EBIT in 2018/2019 from 2017/2018?"
    assert figures_of(agent, f"What was the change in {asked}") == [(115.0, "EUR_M",
                                                                    "difference")]
    assert figures_of(agent, f"What was the percentage change in {asked}") == [
        (16.13, "PCT", "percent_change")]


def test_a_year_listed_after_a_quarter_is_that_quarter(tmp_path: Path) -> None:
    agent = tatqa_agent(tmp_path, REVENUES, "Operating revenues by segment.")
    assert figures_of(agent, "What is the sum of the operating revenues for Bell Media in "
                           "Q4 2019 and 2018?") == [(1729.0, "", "sum")]  # scale not stated
