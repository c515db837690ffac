"""One figure less another is computed from its two operands, never one of them or their levels.

"What was revenue less cost of revenue in 2022?" read one row, "Cost of revenue" (its
words hold "revenue"), and answered its level: one operand as the answer; the previous
release refused it. "Less", "minus" and "减去" written as an operator, and "how much
higher was A than B", now name two operands, subtracted in the order written; a row
whose name is also a column's name ("Operating income" of a segment table) is a row
when that column holds no figure of the other row named. "Revenue in 2021 minus revenue
in 2022" (the earlier year less the later, not a change) is still refused with its
inputs listed. Each test fails on the code before.
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
Operating income,"4,000","4,500"
Interest expense,100,120
"""
#: a segment table whose columns are named as rows of the income statement are
SEGMENTS = """(in millions),Net sales,Operating income
Americas,"9,000","2,600"
Europe,"8,606","1,900"
Total,"17,606","4,500"
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("less"),
                        {"results.csv": TABLE, "segments_FY2022.csv": SEGMENTS})


@pytest.mark.parametrize("asked", [
    "What was revenue less cost of revenue in 2022?",
    "What was revenue minus cost of revenue in 2022?",
    "How much higher was revenue than cost of revenue in 2022?",
    "2022年营业收入减去营业成本是多少？",
    "2022年营业收入比营业成本高多少？",
])
def test_one_figure_less_another_is_their_difference(agent: Agent, asked: str) -> None:
    result = agent.ask(asked, reference_date=REF)
    assert [(f.value, f.operation) for f in result.figures] == [(15441.0, "difference")]
    assert "(17,606 − 2,165) = 15,441" in result.answer, result.answer


def test_the_operands_are_subtracted_in_the_order_written(agent: Agent) -> None:
    result = agent.ask("What was cost of revenue minus revenue in 2022?", reference_date=REF)
    assert [f.value for f in result.figures] == [-15441.0], result.answer


def test_a_later_year_less_an_earlier_one_is_the_change(agent: Agent) -> None:
    result = agent.ask("What was revenue in 2022 minus revenue in 2021?", reference_date=REF)
    assert [f.value for f in result.figures] == [1821.0], result.answer


def test_an_earlier_year_less_a_later_one_is_refused_with_its_inputs(agent: Agent) -> None:
    """Not the change 2021 → 2022 (1,821): the question asks 15,785 − 17,606."""
    result = agent.ask("What was revenue in 2021 minus revenue in 2022?", reference_date=REF)
    assert result.figures == (), result.answer
    assert result.answer.startswith("Difference not computed")
    assert "15,785" in result.answer and "17,606" in result.answer


def test_a_row_named_like_a_column_is_a_row_of_the_subtraction(agent: Agent) -> None:
    """The segment table's "Operating income" column holds no interest expense: the
    question names two rows (before: "Interest expense (operating income)", not found)."""
    result = agent.ask("What was operating income minus interest expense in 2022?",
                       reference_date=REF)
    assert [f.value for f in result.figures] == [4380.0], result.answer
    listed = agent.ask("What was operating income and interest expense in 2022?",
                       reference_date=REF)
    assert [f.value for f in listed.figures] == [4500.0, 120.0], listed.answer


def test_the_column_still_qualifies_the_rows_it_holds(agent: Agent) -> None:
    result = agent.ask("What was the operating income of Americas and Europe in 2022?",
                       reference_date=REF)
    assert [f.value for f in result.figures] == [2600.0, 1900.0], result.answer


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


BALANCE = """(in millions),2021,2022
Total assets,"20,000","21,000"
Total liabilities,"12,000","12,500"
"""
#: a segment table whose columns share the balance sheet rows' words
SEGMENT_BALANCES = """(in millions),Total assets,Liabilities
Americas,"12,000","7,000"
Europe,"9,000","5,500"
"""


@pytest.fixture(scope="module")
def balances(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("balances"),
                        {"balance.csv": BALANCE, "segments_FY2022.csv": SEGMENT_BALANCES})


def test_a_row_spread_over_two_columns_names_is_a_row(balances: Agent) -> None:
    """"Total liabilities" lies in no one column's name ("Total assets", "Liabilities"):
    before, it was read as the columns and the question asked back."""
    result = balances.ask("What were total assets minus total liabilities in 2022?",
                          reference_date=REF)
    assert [f.value for f in result.figures] == [8500.0], result.answer
    segment = balances.ask("What were the total assets of Americas in 2022?",
                           reference_date=REF)
    assert [f.value for f in segment.figures] == [12000.0], segment.answer


def test_an_outflow_stated_negative_is_never_added_where_a_subtraction_is_asked(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Amcor's "net income minus dividends paid" answered 1,781 = 1,058 − (−723): the
    dividends, an outflow stated negative, were added. Its amount or its signed value is
    not said: refused with both inputs listed."""
    agent = tables_agent(tmp_path_factory.mktemp("outflow"), {"results.csv": (
        "(in millions),2021,2022\n"
        "Net income,\"1,200\",\"1,058\"\n"
        "Dividends paid,(700),(723)\n")})
    result = agent.ask("What was net income minus dividends paid in 2022?", reference_date=REF)
    assert result.figures == (), result.answer
    assert "Difference not computed: some values are negative" in result.answer
    assert "1,058" in result.answer and "-723" in result.answer
