"""One figure less another is an operation, never one of its operands or their levels.

"What was revenue less cost of revenue in 2022?" read one row, "Cost of revenue" (its
words hold "revenue"), and answered its level: one operand as the answer. "Revenue in
2022 minus revenue in 2021" listed both levels as a comparison. The operation asked in
words the reader does not read is refused with its inputs listed (the safety net of
:func:`~ragspine_nb.agent.reading.operation_cues.operation_asked`). Each test fails on
the code before (a level asserted).
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb.agent import Agent
from tests.filings import tables_agent

REF = date(2023, 6, 1)
TABLE = """(in millions),2021,2022
Revenue,"15,785","17,606"
Cost of revenue,"1,865","2,165"
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("less"), {"results.csv": TABLE})


@pytest.mark.parametrize("asked", [
    "What was revenue less cost of revenue in 2022?",
    "What was revenue minus cost of revenue in 2022?",
    "What was revenue in 2022 minus revenue in 2021?",
])
def test_a_subtraction_not_read_asserts_no_level(agent: Agent, asked: str) -> None:
    result = agent.ask(asked, reference_date=REF)
    assert result.figures == (), result.answer
    assert "not computed" in result.answer.splitlines()[0].casefold()


def test_less_than_and_or_less_are_no_subtraction(agent: Agent) -> None:
    result = agent.ask("In which year was revenue less than 16,000 million?",
                       reference_date=REF)
    assert "FY2021" in result.answer.splitlines()[0]


def test_one_figure_divided_by_another_is_never_a_level(agent: Agent) -> None:
    """"Gross profit divided by revenue" read as revenue, a part of gross profit: its level
    was the answer (Best Buy's 46,298 million)."""
    result = agent.ask("What was cost of revenue divided by revenue in 2022?",
                       reference_date=REF)
    assert all(f.operation != "lookup" for f in result.figures), result.answer
