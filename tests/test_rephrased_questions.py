"""The same question asked as users ask it gets the same answer.

Found with ``bench/rewrites.py --only request show owner dollar_column percent_column
--list`` on the ``tune`` half: "What is …" asked as "Show …" / "Tell me …", with "the
company's" before the thing asked, or on a table printing "%" in a column of its own,
turned answers into ask-backs, a passage search into "no relevant passages", and a reason
question into a figure. Each table here is ingested as a user's CSV (text as a note).
"""

from __future__ import annotations

from datetime import date

import pytest

from tests.filings import tables_agent

ASSETS = """,Financial assets,,Financial liabilities,
,2019,2018,2019,2018
Opening balance,"83,934","100,107","4,466","2,154"
Additions,"39,116","51,185",75,"3,301"
Closing balance,"123,093","83,934","1,873","4,466"
"""
RECEIVABLES = """,2019,2018
Current,,
Trade receivables,"3,770","3,054"
Other receivables,"4,223","4,082"
Non-current,,
Other receivables,118,601
Total current and non-current,"8,111","7,737"
"""
# "%" printed in a column of its own after each figure
RATES = """,Domestic,,,,International,,,
,2019,,2018,,2019,,2018,
Discount rate,4.00,%,3.75,%,1.90,%,2.80,%
Expected return on plan assets,,,,,3.40,%,3.70,%
"""
INVENTORIES = """,2019,2018
Inventories:,,
Raw materials,"1,200","1,100"
Prepared chicken,"5,300","4,100"
Total inventories,"6,500","5,200"
"""
CURRENT_ASSETS = """,2019,2018
Current assets,,
Debtors,"2,100","1,900"
Cash and cash equivalents,"1,500","1,200"
Total current assets,"3,600","3,100"
"""
# a stated "% Change" column that marks one row "nm" (not meaningful)
OTHER_INCOME = """,Year ended March 31,,Period-to-period change,
,2019,2018,Amount,% Change
Interest income,"2,515","1,310","1,205",92 %
Interest expense,"(5,940)",(598),"(5,342)",nm
"""
ADJUSTMENTS = """,2018/19,2017/18
Revenue,"1,250","1,100"
Adjustments to prior periods,-3.2,-8.1
"""
NOTES = """# Investments

As of December 31, 2019, we had no restricted investments in a loss position. Based on
the underlying credit quality of the investments, we generally hold such securities until
we recover our cost basis.

# Inventory

The increase in prepared chicken inventory is attributable to the mix of the different
finished products in inventory at the year end.
"""
ON = date(2020, 3, 1)


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    a = tables_agent(tmp_path_factory.mktemp("rephrased"), {
        "assets.csv": ASSETS, "receivables.csv": RECEIVABLES, "rates.csv": RATES,
        "adjustments.csv": ADJUSTMENTS, "inventories.csv": INVENTORIES,
        "other_income.csv": OTHER_INCOME, "notes.md": NOTES})
    yield a
    a.close()


@pytest.mark.parametrize("question, values", [
    # the column's words before the row's name are no unread qualifier of the row
    ("What is the company's 2019 financial assets closing balance expressed as a "
     "percentage of 2018 financial assets closing balance?", [146.65]),
    # a row under a section is named with it ("current trade receivables")
    ("What is the company's current trade receivables in 2019?", [3770.0]),
    ("What is the current trade receivables in 2019?", [3770.0]),
    # "year on year" asks no year: a figure, not "which year"
    ("Show the year on year percentage change in domestic discount rate between 2018 "
     "and 2019", [6.67]),
    ("What is the year on year percentage change in domestic discount rate between 2018 "
     "and 2019?", [6.67]),
    # a "%" column of its own names no "percent" column: domestic and international apart
    ("What is the difference between the domestic and international discount rates in "
     "2019?", [2.1]),
    # a request ending in a full stop: "2017/18." is the fiscal year 2018
    ("Tell me the adjustments to prior periods in 2017/18.", [-8.1]),
    ("What were the adjustments to prior periods in 2017/18?", [-8.1]),
    # "percentage change" names the operation, not the "% Change" column: the report's
    # own figure where it states one, else computed (never "which column: % change?")
    ("What was the percentage change in interest income from 2018 to 2019?", [92.0]),
    ("What was the percentage change in interest expense from 2018 to 2019?", [893.31]),
])
def test_the_figure_asked(agent, question: str, values: list[float]) -> None:  # type: ignore[no-untyped-def]
    r = agent.ask(question, ON)
    assert [round(f.value, 2) for f in r.figures] == values, r.answer


@pytest.mark.parametrize("question, said", [
    # "the company's" and "Show" are no words a passage must hold
    ("What is the company's plan for the losing investments?", "hold such securities"),
    ("Show the plan for the losing investments", "hold such securities"),
    # a reason asked as a request ending in "due to." is text, never a table's figure
    ("Tell me the increase in prepared chicken inventory due to.", "attributable to the mix"),
])
def test_the_passage_asked(agent, question: str, said: str) -> None:  # type: ignore[no-untyped-def]
    r = agent.ask(question, ON)
    assert not r.figures, r.answer
    assert said in r.answer, r.answer


def test_a_rows_name_under_its_section(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A profile metric's row named with its section keeps the name it is printed with."""
    one = tables_agent(tmp_path, {"current.csv": CURRENT_ASSETS})
    try:
        r = one.ask("What were the components making up current assets?", ON)
    finally:
        one.close()
    assert "Debtors [1]; Cash and cash equivalents [2]" in r.answer, r.answer
