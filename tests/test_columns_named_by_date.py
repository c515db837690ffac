"""Columns of one year told apart by their dates are named by those dates.

A purchase price allocation states "Estimated at June 30, 2019", "Adjustments" and "Final
as of December 31, 2019": two balances of fiscal 2019 told apart by their dates. "What
are the respective cash amount at June 30 and December 31, 2019?" named neither column
(their names were "estimated" and "final") and answered not found; each is now also
named by its date ("estimated jun 30"), so the question's dates pick them. Columns whose
dates are all one day ("Carrying Amount" and "Fair Value" at December 31) keep their
names as they were. Through ingest and ask of CSV tables, as a user runs it; the first
two tests fail on the previous code.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb.agent import Agent
from tests.filings import tables_agent

REF = date(2020, 3, 1)
ALLOCATION = """\
(in thousands),"Estimated at June 30, 2019",Adjustments,"Final as of December 31, 2019"
Cash,"$3,795",$ -,"$3,795"
Working capital adjustment,(38),20,(18)
Total fair value of consideration transferred,"3,757",20,"3,777"
"""
DEBT = """\
(In millions),"Carrying Amount December 31, 2019","Fair Value December 31, 2019"
Total debt,"3,774.4","4,073.9"
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("dated_columns"), {"allocation.csv": ALLOCATION})


def test_each_column_is_named_by_its_date(agent: Agent) -> None:
    result = agent.ask("What are the respective total fair value of consideration transferred "
                       "at June 30 and December 31, 2019?", reference_date=REF)
    assert [f.value for f in result.figures] == [3757.0, 3777.0], result.answer


def test_a_change_between_the_two_dates(agent: Agent) -> None:
    result = agent.ask("What is the percentage change in the total fair value of consideration "
                       "transferred between June 30 and December 31, 2019?", reference_date=REF)
    assert [round(f.value, 2) for f in result.figures] == [0.53], result.answer
    assert "(3,777 − 3,757) / 3,757" in result.answer


def test_columns_of_one_date_keep_their_names(tmp_path_factory: pytest.TempPathFactory
                                              ) -> None:
    agent = tables_agent(tmp_path_factory.mktemp("one_date"), {"debt.csv": DEBT})
    result = agent.ask("What is the fair value of total debt as of December 31, 2019?",
                       reference_date=REF)
    assert [f.value for f in result.figures] == [4073.9], result.answer
    assert "(fair value)" in result.answer, result.answer
