"""A row named by the acronym its label defines ("Loan-to-value (LTV) ratio" → "LTV ratio").

The rule's examples are its doctests (:mod:`ragspine_nb.agent.reading.acronyms`); here a
table ingested as a user's CSV is asked with the short name: a level, a change and a
which-year question answer from the row, and a parenthesised unit names nothing.
"""

from __future__ import annotations

from datetime import date

import pytest

from tests.filings import tables_agent

TABLE = """USDm,2019,2018,2017
Vessel values including newbuildings (broker values),"1,801.5","1,675.1","1,661.1"
Total (value),"1,801.5","1,675.1","1,661.1"
Borrowings,863.4,754.7,753.9
Total (loan),828.8,885.3,926.6
Loan-to-value (LTV) ratio,46.0%,52.9%,55.8%
Earnings before interest and taxes (EBIT),120.4,98.2,77.0
Revenue (USD),900.0,850.0,800.0
"""
ON = date(2020, 3, 1)


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    a = tables_agent(tmp_path_factory.mktemp("acronyms"), {"fleet.csv": TABLE})
    yield a
    a.close()


def test_a_level_asked_by_the_acronym(agent) -> None:  # type: ignore[no-untyped-def]
    r = agent.ask("What was the LTV ratio in 2018?", ON)
    assert [(f.value, f.unit) for f in r.figures] == [(52.9, "PCT")]
    assert "cell=C6" in r.answer


def test_an_acronym_alone_names_the_row(agent) -> None:  # type: ignore[no-untyped-def]
    r = agent.ask("What was EBIT in 2019?", ON)
    assert [f.value for f in r.figures] == [120.4]
    assert "cell=B7" in r.answer


def test_a_change_asked_by_the_acronym(agent) -> None:  # type: ignore[no-untyped-def]
    r = agent.ask("What was the change in EBIT from 2018 to 2019?", ON)
    assert [round(f.value, 1) for f in r.figures] == [22.2]
    assert "120.4" in r.answer and "98.2" in r.answer


def test_which_year_asked_by_the_acronym(agent) -> None:  # type: ignore[no-untyped-def]
    r = agent.ask("In which year was the LTV ratio the largest?", ON)
    assert not r.figures
    assert r.answer.startswith("FY2017:")
    assert "55.8%" in r.answer and "cell=D6" in r.answer


def test_a_unit_in_parentheses_is_no_name() -> None:
    from ragspine_nb.agent.reading.acronyms import acronym_name

    assert acronym_name("Revenue (USD)") == ""
    assert acronym_name("Loan-to-value (LTV) ratio") == "LTV ratio"


def test_purchases_of_ppe_in_a_real_filing(tmp_path_factory: pytest.TempPathFactory) -> None:
    """3M's 2018 10-K states "Purchases of property, plant and equipment (PP&E)" in its
    cash flow statement; "3M's purchases of PP&E in 2018" answered the balance sheet's
    Property, plant and equipment (24,873 million), a wrong number."""
    from ragspine_nb import Agent
    from tests.filings import dev_filing_workspace

    ws = dev_filing_workspace(tmp_path_factory.mktemp("ppe"), "3M_2018_10K.pdf")
    r = Agent.from_workspace(ws).ask("What were 3M's purchases of PP&E in 2018?")
    assert [f.value for f in r.figures] == [-1577.0], r.answer
    assert "page=60" in r.answer and "24,873" not in r.answer
