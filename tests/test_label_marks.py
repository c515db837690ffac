"""A footnote digit glued to an upper-case row label is a mark, as on a lower-case one.

Rewriting the TAT-QA tune tables with upper-case row labels (as many filings print them)
changed three answers: "Current year1" is read as "current year" (the digit a footnote
mark), "CURRENT YEAR1" was read as a row named "current year1", so "the current year tax
expense" answered the section's total (23) instead of asking, and "the current year"
found no row. Quarter labels ("Q4") keep their digit.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb import Agent
from ragspine_nb.extract.rows import norm_label
from tests.filings import tables_agent

TABLE = """,2019,2018
CURRENT TAX EXPENSE,,
CURRENT YEAR1,21,18
ADJUSTMENTS FOR PRIOR YEARS,2,1
TOTAL CURRENT TAX EXPENSE,23,19
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("marks"), {
        "tax.csv": TABLE, "notes.md": "1 Current year tax is stated in millions of euros.\n"})


@pytest.mark.parametrize("label, read", [
    ("CURRENT YEAR1", "current year"), ("Current year1", "current year"),
    ("EBITDA2", "ebitda"), ("Q4", "q4"), ("H1", "h1"), ("COVID19", "covid19"),
])
def test_a_glued_footnote_digit_is_dropped_from_the_name(label: str, read: str) -> None:
    assert norm_label(label) == read


def test_the_upper_case_row_is_found_by_its_name(agent: Agent) -> None:
    r = agent.ask("What is the current year in 2019?", date(2020, 3, 1))
    assert [f.value for f in r.figures] == [21.0], r.answer


def test_the_row_and_the_total_both_named_are_asked_about(agent: Agent) -> None:
    r = agent.ask("What was the current year tax expense in 2019?", date(2020, 3, 1))
    assert r.figures == () and r.answer.startswith("Which of these do you mean:"), r.answer
    assert "TOTAL CURRENT TAX EXPENSE" in r.answer and "CURRENT YEAR1" in r.answer
