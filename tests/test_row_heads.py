"""A row named by the head of its label, when nothing else is read.

A note lists "Indemnification receivable from SSL for pre-closing taxes (see Note 13)".
"What is the percentage change in indemnification receivable between 2018 and 2019?"
named no row in full and offered the built-in "Accounts receivable"; the one row whose
label's head (the words before " from ", " for ", "(" or ",") the question writes is the
row asked, and the answer names it in full. Two rows with that head read nothing (the
near names are offered, as before). Through ingest and ask of CSV tables, as a user runs
it; the first two tests fail on the previous code.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb.agent import Agent
from tests.filings import tables_agent

REF = date(2020, 3, 1)
OTHER_ASSETS = """\
(in thousands),2019,2018
Indemnification receivable from SSL for pre-closing taxes (see Note 13),$598,"$2,410"
Due from affiliates,186,161
Prepaid expenses,164,151
"""
DIVIDENDS = """\
(US$),2019,2018
Final dividend for the year ended of AU 14 cents (2017: AU 12 cents),"13,327","12,534"
Interim dividend for the half year ended of AU 16 cents (2017: AU 13 cents),"14,801","13,099"
"""
ACCRUALS = """\
(in thousands),2019,2018
Accrued interest from affiliates,40,35
Accrued interest from customers,12,10
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("row_heads"), {
        "other_assets.csv": OTHER_ASSETS, "dividends.csv": DIVIDENDS,
        "accruals.csv": ACCRUALS})


def test_a_row_named_by_its_labels_head(agent: Agent) -> None:
    result = agent.ask("What is the percentage change in indemnification receivable between "
                       "2018 and 2019?", reference_date=REF)
    assert [round(f.value, 2) for f in result.figures] == [-75.19], result.answer
    assert "Indemnification receivable from SSL for pre-closing taxes" in result.answer
    assert "(598 − 2,410) / 2,410" in result.answer


def test_a_head_before_a_purpose(agent: Agent) -> None:
    result = agent.ask("What is the percentage change in the final dividend from 2018 to 2019?",
                       reference_date=REF)
    assert [round(f.value, 2) for f in result.figures] == [6.33], result.answer


def test_two_rows_with_one_head_read_nothing(agent: Agent) -> None:
    result = agent.ask("What was accrued interest in 2019?", reference_date=REF)
    assert result.figures == (), result.answer
