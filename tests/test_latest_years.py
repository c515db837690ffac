""""The last three fiscal years" asks for the latest three years reported, through ingest and ask.

Each test fails on the code before the reading: the question named no period, so the
latest year alone was answered with an assumption — one figure where three were asked.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb.agent import Agent
from ragspine_nb.period_phrases import latest_years
from tests.filings import dev_filing_workspace, tables_agent

REF = date(2023, 1, 1)
TABLE = """(in millions),2019,2020,2021,2022
Revenue,"1,000","1,100","1,200","1,250"
Net income,90,95,120,130
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("latest"), {"zentra_results.csv": TABLE})


@pytest.mark.parametrize("asked", [
    "What was revenue in the last three fiscal years?",
    "What was the revenue over the past 3 years?",
    "近三年的营业收入是多少？",
])
def test_the_latest_years_named_by_their_count_are_each_answered(agent: Agent, asked: str
                                                                 ) -> None:
    result = agent.ask(asked, reference_date=REF)
    assert sorted((f.operands[0].period, f.value) for f in result.figures) == [
        ("2020", 1100.0), ("2021", 1200.0), ("2022", 1250.0)], result.answer


def test_more_years_than_reported_are_the_years_reported(agent: Agent) -> None:
    result = agent.ask("What was net income in the last five years?", reference_date=REF)
    assert [f.value for f in result.figures] == [90.0, 95.0, 120.0, 130.0]


def test_the_count_is_read_from_words_and_digits() -> None:
    assert [latest_years(t) for t in ("the last three fiscal years", "past 2 years",
                                      "近五年", "过去两年", "the last year", "3 years ago")] == [
        3, 2, 5, 2, None, None]


def test_the_assumption_says_the_latest_years_not_every_year(agent: Agent) -> None:
    result = agent.ask("What was revenue in the last three fiscal years?", reference_date=REF)
    assert result.answer.startswith(
        "(Assuming the entity is the company and the years are the latest fiscal years "
        "reported: FY2020, FY2021 and FY2022.)")
    zh = agent.ask("近三年的营业收入是多少？", reference_date=REF)
    assert zh.answer.startswith(
        "（假设：主体为the company，期间为有数据的最近财年：FY2020、FY2021、FY2022）")


def test_the_past_years_of_a_real_filing_are_its_latest_years(tmp_path: Path) -> None:
    """"The past two years" in Nike's 10-K: "past" was a word no row states, and the
    prose's "past two years" sent the question to the narrative channel (no figure)."""
    agent = Agent.from_workspace(dev_filing_workspace(tmp_path, "NIKE_2023_10K.pdf"))
    result = agent.ask("What was Nike's net income in the past two years?", reference_date=REF)
    assert [(f.operands[0].period, f.value) for f in result.figures] == [
        ("2022", 6046.0), ("2023", 5070.0)]
