"""A figure asked per unit ("revenue per share") is never the row's total.

"What was Adobe's revenue per share in fiscal 2017?" was answered with the revenue row's
7,301,505 thousand: "per share" is made of words the workspace knows ("per share" of
earnings per share, "share" of a share of revenue), so nothing in the question looked
unstated. A "per <unit>" no row read names qualifies the figure beyond the row: the
question goes to the narrative channel (no figure taken from a table). Fails on the code
before the rule (the revenue level as the answer).
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb.agent import Agent
from ragspine_nb.agent.reading.unstated import unstated_rate
from tests.filings import tables_agent

REF = date(2018, 6, 1)
TABLE = """(in thousands),2016,2017
Revenue,"5,854,430","7,301,505"
Diluted earnings per share,1.20,1.50
Revenue per employee,380,420
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("per"), {"results.csv": TABLE})


def test_a_rate_no_row_states_is_not_the_rows_total(agent: Agent) -> None:
    result = agent.ask("What was revenue per share in 2017?", reference_date=REF)
    assert result.figures == ()
    assert "7,301,505" not in result.answer


@pytest.mark.parametrize(("asked", "value"), [
    ("What was diluted earnings per share in 2017?", 1.5),
    ("What was revenue per employee in 2017?", 420.0),
    ("What was revenue in 2017, in per cent of 2016?", None),
])
def test_a_rate_a_row_states_is_that_row(agent: Agent, asked: str, value: float | None
                                         ) -> None:
    result = agent.ask(asked, reference_date=REF)
    if value is not None:
        assert [f.value for f in result.figures] == [value]


def test_the_unit_is_read_from_the_question() -> None:
    assert unstated_rate("what was revenue per share in 2017?", ["Revenue"]) == "per share"
    assert unstated_rate("what was eps per diluted share?", ["Earnings per share"]) == ""
    assert unstated_rate("revenue up 5 per cent", ["Revenue"]) == ""
