"""A question naming a place no table states is not answered with the company's total.

"What was 3M's U.S. net sales in 2018?" answered 3M's total revenue, 32,765 million (the
United States' was 12,840): "U.S." was read as the pronoun "us" or as two letters, and a
single word no row states ("international", "European") was let through as a table's
subject. A place (:data:`~ragspine_nb.agent.reading.unstated.PLACE_WORDS`, "U.S." or "US"
in capitals) that no row or column read names is a part of the company the tables do not
state: the total is never given as its figure. Where a row or column names the place, it
is read ("U.S. government obligations", a "Domestic" column); "us" the pronoun, "US
dollars" name no place.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.filings import tables_agent

_TOTAL_ONLY = {
    "table.csv": ',2019,2018\nRevenue,"1,200","1,100"\n',
    "notes.md": "Amounts in thousands.\n",
}


@pytest.mark.parametrize("question", [
    "What was the U.S. revenue in 2019?",
    "What was the US revenue in 2019?",
    "What was U.S revenue in 2019?",
    "What was revenue in the U.S. in 2019?",
    "What was the international revenue in 2019?",
    "What was the European revenue in 2019?",
])
def test_a_place_no_table_states_gets_no_total(tmp_path: Path, question: str) -> None:
    agent = tables_agent(tmp_path, _TOTAL_ONLY)
    result = agent.ask(question)
    assert 1200.0 not in [f.value for f in result.figures]
    assert "1,200" not in result.answer


@pytest.mark.parametrize("question", [
    "Tell us the revenue in 2019",
    "What was the revenue in 2019 in US dollars?",
    "What was revenue in 2019?",
])
def test_no_place_is_named_by_a_pronoun_a_currency_or_a_standard(tmp_path: Path,
                                                                  question: str) -> None:
    agent = tables_agent(tmp_path, _TOTAL_ONLY)
    assert [f.value for f in agent.ask(question).figures] == [1200.0]


def test_a_row_named_with_the_abbreviation_is_read(tmp_path: Path) -> None:
    agent = tables_agent(tmp_path, {"table.csv": (
        ",2019,2018\nU.S. government obligations,416,300\nCorporate bonds,900,800\n"
        "Total,\"1,316\",\"1,100\"\n")})
    result = agent.ask("What were U.S. government obligations in 2019?")
    assert [f.value for f in result.figures] == [416.0]


def test_a_column_named_by_the_place_is_read(tmp_path: Path) -> None:
    agent = tables_agent(tmp_path, {"table.csv": (
        ",Domestic,International,Total\nRevenue,700,500,\"1,200\"\n"), "notes.md": (
        "Revenue for fiscal 2019 (in thousands) was as follows.\n")})
    result = agent.ask("What was the domestic revenue?")
    assert [f.value for f in result.figures] == [700.0]


def test_a_column_headed_with_the_abbreviation_is_that_place_not_the_company(
        tmp_path: Path) -> None:
    # "U.S." had no name left (two single letters): its figures were filed as the
    # company's own, and "the total income before taxes" answered the U.S. 700
    agent = tables_agent(tmp_path, {"table.csv": (
        ",U.S.,Foreign,Total\nIncome before taxes,700,500,\"1,200\"\n"), "notes.md": (
        "Income before taxes for fiscal 2019 (in thousands) was as follows.\n")})
    assert [f.value for f in agent.ask("What was the total income before taxes?").figures] \
        == [1200.0]
    assert [f.value for f in agent.ask("What was the foreign income before taxes?").figures] \
        == [500.0]
