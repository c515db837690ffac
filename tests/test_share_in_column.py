"""A share's part, a row stated only in columns, is read in the whole's column.

An investments note states each holding's amortized cost, unrealized gains, unrealized
losses and fair value, and their "Total". "What percentage of the total unrealized gain
is generated from U.S. government obligations in 2018?" read the part as the row's own
figure, which the table never states, and computed nothing; the part is the row's
figure in the whole's column (416 / 14,650). "What percentage of total revenue came
from services revenue?" was refused (a part named after "from" is read with the whole's
words, and "total revenue … services revenue" named two rows): a row whose name holds the
whole's words is its part. A row of another table is still no part of the whole. Through
ingest and ask of CSV tables, as a user runs it; the first four tests fail on the
previous code.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb.agent import Agent
from tests.filings import tables_agent

REF = date(2019, 6, 1)
INVESTMENTS = ("(in thousands),Amortized Cost 2018,Unrealized Gains 2018,"
               "Unrealized Losses 2018,Fair Value 2018\n") + """\
Foreign government obligations,"$73,798","$14,234",$235,"$87,797"
U.S. government obligations,"97,223",416,"6,436","91,203"
Total,"$171,021","$14,650","$6,671","$179,000"
"""
DEBT = """(In millions),Carrying Amount 2019,Fair Value 2019
Senior Notes due 2024,421.9,458.9
Other foreign borrowings,12.1,12.4
Other domestic borrowings,89.0,89.0
Total debt,"3,774.4","4,073.9"
"""
REVENUE = """(in millions),2018,2017
Services revenue,400,350
Total revenue,"1,000",900
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("share_column"), {
        "investments.csv": INVESTMENTS, "revenue.csv": REVENUE, "debt.csv": DEBT})


def test_the_part_is_read_in_the_wholes_column(agent: Agent) -> None:
    result = agent.ask("What percentage of the total unrealized gain is generated from U.S. "
                       "government obligations in 2018?", reference_date=REF)
    assert [round(f.value, 2) for f in result.figures] == [2.84], result.answer
    assert "416 / 14,650 × 100 = 2.84%" in result.answer
    cells = {(o.value, o.channel) for o in result.figures[0].operands}
    assert cells == {(416.0, "C_UNREALIZED_GAINS"), (14650.0, "C_UNREALIZED_GAINS")}


def test_made_up_of_reads_the_same_way(agent: Agent) -> None:
    result = agent.ask("What percentage of the total amortized cost is made up of foreign "
                       "government obligations in 2018?", reference_date=REF)
    assert [round(f.value, 2) for f in result.figures] == [43.15], result.answer


def test_two_parts_summed_in_the_wholes_column(agent: Agent) -> None:
    result = agent.ask("What is other foreign borrowings and other domestic borrowings as a "
                       "percentage of total debt in fair value in 2019?", reference_date=REF)
    assert [round(f.value, 2) for f in result.figures] == [2.49], result.answer
    assert "(12.4 + 89) / 4,073.9 × 100 = 2.49%" in result.answer


def test_a_row_named_with_the_wholes_words_is_its_part(agent: Agent) -> None:
    result = agent.ask("What percentage of total revenue came from services revenue in 2018?",
                       reference_date=REF)
    assert [round(f.value, 2) for f in result.figures] == [40.0], result.answer
    assert "400 / 1,000 × 100 = 40%" in result.answer


def test_a_row_of_another_table_is_no_part_of_the_whole(agent: Agent) -> None:
    result = agent.ask("What percentage of total revenue came from U.S. government "
                       "obligations in 2018?", reference_date=REF)
    assert result.figures == (), result.answer
    assert result.answer.startswith("Percentage not computed"), result.answer
