"""A change the report states answers only the change it states: from the year before.

A "% change" column is filed under its later year and compares it with the year before.
"What was the percentage change in revenue from 2015 to 2017?" named two years apart;
the stated 2016→2017 change (32%) was answered as the 2015→2017 one (true: 72.47%),
labelled with the later year only. Each test fails on the code before the rule.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import ingest
from ragspine_nb.agent import Agent
from tests.filings import tables_agent

REF = date(2018, 6, 1)
LATER = """(in thousands),2017,2016,% change
Revenue,"11,692,713","8,830,669",32%
"""
EARLIER = """(in thousands),2016,2015,% change
Revenue,"8,830,669","6,779,511",30%
"""

#: Another table's "Change" column; the income statement states levels only.
ONE_YEAR = {
    "highlights.csv": '(in millions),2022,2021,Change\nMemberships,"93,800","74,762","19,038"\n',
    "income.csv": '(in millions),2021,2022\nRevenue,"10,000","11,000"\n'
                  'Operating income,"1,200","1,500"\n'}


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("stated"),
                        {"results_2017.csv": LATER, "results_2016.csv": EARLIER})


def test_a_change_over_two_years_is_computed_not_the_last_years_stated(agent: Agent
                                                                       ) -> None:
    result = agent.ask("What was the percentage change in revenue from 2015 to 2017?",
                       reference_date=REF)
    assert [f.value for f in result.figures] == [72.47]
    assert "(11,692,713 − 6,779,511) / 6,779,511 = 72.47%" in result.answer


def test_the_change_from_the_year_before_is_still_the_stated_one(agent: Agent) -> None:
    result = agent.ask("What was the percentage change in revenue from 2016 to 2017?",
                       reference_date=REF)
    assert [f.value for f in result.figures] == [32.0]
    assert "not computed" in result.answer.splitlines()[0]


def test_a_stated_change_is_named_as_one_not_by_a_tables_head(tmp_path: Path) -> None:
    """Heads dated by their tables ("% change 2016-2015") named every stated change of
    the column: a 2017 figure was labelled with another table's years."""
    (tmp_path / "reports").mkdir()
    for name, head in (("results_2017.csv", "2017,2016,% change 2017-2016"),
                       ("results_2016.csv", "2016,2015,% change 2016-2015")):
        rows = LATER if "2017" in name else EARLIER
        (tmp_path / "reports" / name).write_text(
            rows.replace("2017,2016,% change", head).replace("2016,2015,% change", head),
            encoding="utf-8")
    ingest(tmp_path / "reports", workspace=tmp_path / "ws", progress=False)
    result = Agent.from_workspace(tmp_path / "ws").ask(
        "What was the percentage change in revenue in 2017?", reference_date=REF)
    assert [f.value for f in result.figures] == [32.0]
    assert "the company Revenue (% change as stated), FY2017: 32%" in result.answer


def test_a_one_year_change_no_column_states_is_computed_from_the_levels(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """"How much did operating income change in 2022?" read the "Change" column another
    table has (the year before assumed): no change is stated for the row, so it was
    refused as "Operating income (change as stated) … not in the fact store"."""
    agent = tables_agent(tmp_path_factory.mktemp("one_year"), ONE_YEAR)
    for asked in ("How much did operating income change in 2022?",
                  "What was the year-over-year change in operating income in 2022?"):
        result = agent.ask(asked, reference_date=date(2023, 6, 1))
        assert [(f.value, f.operation) for f in result.figures] == [(300.0, "difference")], \
            result.answer
    stated = agent.ask("What was the change in memberships in 2022?",
                       reference_date=date(2023, 6, 1))
    assert [f.value for f in stated.figures] == [19038.0]  # the change the report states


def test_why_a_change_no_column_states_shows_the_change_of_the_levels(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """"What drove the change in operating income in 2022?" showed as its context "Not
    found: Operating income (change as stated), FY2022": the "Change" column another table
    has was looked up. Its context is now the change of the two levels, the comparison
    assumed and said; the figure stays context (a why question asserts none)."""
    agent = tables_agent(tmp_path_factory.mktemp("why_change"), ONE_YEAR)
    for asked in ("What drove the change in operating income in 2022?",
                  "Why did operating income change in 2022?"):
        result = agent.ask(asked, reference_date=date(2023, 6, 1))
        assert result.figures == (), result.answer
        assert "Not found" not in result.answer
        assert "the comparison is FY2022 against FY2021.)" in result.answer
        assert "Operating income, change from FY2021 to FY2022: 300 million" in result.answer
        assert "(1,500 − 1,200) = 300" in result.answer
