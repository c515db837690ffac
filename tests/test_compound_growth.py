"""A compound annual growth rate is computed over the years between its two ends.

"What was revenue's CAGR from 2015 to 2017?" asks one figure: the yearly rate that
compounds the first year's figure into the last's. The code before listed the three
years' levels as a comparison (levels presented for an operation). Each test fails on
it; through ingest and ask of a CSV with yearly columns.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb.agent import Agent
from ragspine_nb.agent.compute.operations import NotComputed, compute
from ragspine_nb.agent.reading.operation import Operation
from ragspine_nb.core import Fact
from tests.filings import tables_agent

REF = date(2018, 6, 1)
TABLE = """(in thousands),2014,2015,2016,2017
Revenue,"5,504,656","6,779,511","8,830,669","11,692,713"
Net income,"266,799","122,641","186,678","558,929"
Operating loss,-100,-50,-20,10
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("cagr"), {"results.csv": TABLE})


@pytest.mark.parametrize("asked", [
    "What was revenue's CAGR from 2015 to 2017?",
    "What was the compound annual growth rate of revenue between 2015 and 2017?",
])
def test_the_rate_compounds_the_first_year_into_the_last(agent: Agent, asked: str) -> None:
    result = agent.ask(asked, reference_date=REF)
    assert [f.value for f in result.figures] == [31.33], result.answer
    assert "the company Revenue, compound annual growth rate from FY2015 to FY2017: 31.33%" \
        in result.answer.splitlines()[0]
    assert "(11,692,713 / 6,779,511)^(1/2) − 1 = 31.33%" in result.answer


def test_the_rate_in_chinese(agent: Agent) -> None:
    result = agent.ask("2014年至2017年营业收入的年复合增长率是多少？", reference_date=REF)
    assert [f.value for f in result.figures] == [28.55], result.answer
    assert "Revenue，FY2014至FY2017年复合增长率：28.55%" in result.answer.splitlines()[0]


def test_a_rate_over_a_loss_is_not_computed(agent: Agent) -> None:
    result = agent.ask("What was the operating loss CAGR from 2014 to 2017?",
                       reference_date=REF)
    assert result.figures == ()
    assert "not computed" in result.answer


def test_a_span_the_question_names_must_be_the_years_between() -> None:
    late = Fact("REVENUE", "C", "NA", "TOTAL", "FY", "2017", 121.0, "USD_M", "t.csv", "B2")
    early = Fact("REVENUE", "C", "NA", "TOTAL", "FY", "2015", 100.0, "USD_M", "t.csv", "A2")
    assert compute(Operation("percent_change", compound=True), (late, early)).value == 10.0
    refused = compute(Operation("percent_change", compound=True, years=3), (late, early))
    assert isinstance(refused, NotComputed) and refused.reason == "compound_years"


def test_a_span_named_with_no_years_runs_to_the_latest_year(agent: Agent) -> None:
    """"The 2-year CAGR": from two years before the latest year reported, said."""
    result = agent.ask("What is the 2-year revenue CAGR?", reference_date=REF)
    assert [f.value for f in result.figures] == [31.33]
    assert result.answer.startswith("(Assuming the entity is the company and the comparison "
                                    "is FY2017 against FY2015.)")


def test_no_span_and_no_years_is_asked_back(agent: Agent) -> None:
    result = agent.ask("What is the revenue CAGR?", reference_date=REF)
    assert result.figures == ()
    assert result.answer == "Which two periods should I compare (e.g. FY2024 and FY2025)?"
