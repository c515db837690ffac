"""A row named as written, and the row named "Total" and its name in another table.

A folder holds a balance sheet ("Total current liabilities" 8,019.9) and a note on joint
ventures whose table states "Current liabilities" (1,298.8). "What were current
liabilities in 2022?" answered the note's 1,298.8 — a wrong number: the question names
the balance sheet's total as well as the note's row. Both are readings now, and the
question is asked back; in one table a line and its section's total ("Other operating
expenses" and "Total other operating expenses") stay the line named. Through ingest and
ask of CSV tables, as a user runs it; the first test fails on the previous code.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb.agent import Agent
from tests.filings import tables_agent

REF = date(2023, 6, 1)
BALANCE_SHEET = """(in millions),2022,2021
Total current assets,"5,089.8","5,754.5"
Total current liabilities,"8,019.9","7,467.6"
"""
JOINT_VENTURES = """Joint ventures (in millions),2022,2021
Current assets,823.9,877.4
Current liabilities,"1,298.8","1,424.4"
"""
EXPENSES = """(in millions),2022,2021
Other operating expenses,27,31
Selling expenses,40,38
Total other operating expenses,67,69
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("totals"), {
        "balance_sheet.csv": BALANCE_SHEET, "joint_ventures.csv": JOINT_VENTURES,
        "expenses.csv": EXPENSES})


def test_a_row_and_the_total_of_its_name_elsewhere_are_asked_back(agent: Agent) -> None:
    result = agent.ask("What were current liabilities in 2022?", reference_date=REF)
    assert result.figures == (), result.answer
    assert result.answer.startswith("Which of these do you mean: Current liabilities "), \
        result.answer
    assert "Total current liabilities (CURRENT_LIABILITIES)" in result.answer


def test_total_written_names_the_total(agent: Agent) -> None:
    result = agent.ask("What were total current liabilities in 2022?", reference_date=REF)
    assert [f.value for f in result.figures] == [8019.9], result.answer


def test_a_line_and_its_sections_total_in_one_table_stay_the_line(agent: Agent) -> None:
    result = agent.ask("What were other operating expenses in 2022?", reference_date=REF)
    assert [f.value for f in result.figures] == [27.0], result.answer


def test_a_ratio_of_rows_named_so_is_not_the_notes_ratio(agent: Agent) -> None:
    """Each side of "the ratio of current assets to current liabilities" named the note's
    rows as written: the previous code answered the joint ventures' 0.63 (823.9 /
    1,298.8) as the company's. Each side now reads both rows; which is meant is asked."""
    result = agent.ask("What was the ratio of current assets to current liabilities in 2022?",
                       reference_date=REF)
    assert result.figures == (), result.answer
    assert result.answer.startswith("Ratio not computed: what is divided by what could not "
                                    "be identified"), result.answer
