"""Words of a table and of a question that said something else than they were read as.

Each test goes through the user's path (a CSV → ``ingest`` → the store or
``Agent.ask``) and fails on the code before: "Foreign Exchange Contracts" was a stated
*change* column (its "exchange" holds "chang"); a dash in a row of percentages was filed
in the table's millions; "non-GAAP" named the folder's "GAAP" row.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from ragspine_nb import FactStore, ingest
from ragspine_nb.agent import Agent


def _store(tmp_path: Path, name: str, text: str) -> FactStore:
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / name).write_text(text, encoding="utf-8")
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    return FactStore(tmp_path / "ws" / "facts.db", create=False)


def test_an_exchange_column_is_no_stated_change(tmp_path: Path) -> None:
    store = _store(tmp_path, "hedges.csv",
                   "(in millions),Interest Rate Contracts,Foreign Exchange Contracts,Total\n"
                   ",2019,2019,2019\n"
                   "Gain recognized in OCI,5.0,10.7,15.7\n")
    channels = {f.channel: f.value for f in store.iter_facts()}
    assert channels["C_FOREIGN_EXCHANGE_CONTRACTS"] == 10.7
    assert not any(c.startswith("CHANGE") for c in channels)


def test_a_dash_in_a_row_of_percentages_is_zero_percent(tmp_path: Path) -> None:
    store = _store(tmp_path, "sales_change.csv",
                   "(in millions),United States,Other Unallocated,Worldwide\n"
                   ",2018,2018,2018\n"
                   "Net sales,\"3,183\",(3),\"7,945\"\n"
                   "Price,1.3 %,—,1.4 %\n")
    price = {f.channel: (f.value, f.unit) for f in store.iter_facts() if f.metric_code == "PRICE"}
    assert price["C_OTHER_UNALLOCATED"] == (0.0, "PCT")
    assert price["C_WORLDWIDE"] == (1.4, "PCT")


def test_non_gaap_names_no_gaap_row(tmp_path: Path) -> None:
    _store(tmp_path, "reconciliation.csv",
           "(in millions),2023,2022\n"
           "GAAP,900,850\n"
           "Adjusted EBITDA,\"2,018\",\"2,117\"\n")
    agent = Agent.from_workspace(tmp_path / "ws")
    for question in ("What was the adjusted non GAAP EBITDA in 2023?",
                     "What was the adjusted non-GAAP EBITDA in 2023?"):
        answer = agent.ask(question, reference_date=date(2024, 1, 1))
        assert "2,018 million" in answer.answer, question
        assert "900" not in answer.answer


def test_what_the_caption_excepts_from_its_millions_is_not_scaled(tmp_path: Path) -> None:
    # "(Millions, except Employees)": the employees are people, the spending millions
    store = _store(tmp_path, "geography.csv",
                   "\"(Millions, except Employees)\",Employees,Capital Spending\n"
                   ",2018,2018\n"
                   "Asia Pacific,\"18,971\",238\n")
    units = {f.channel: (f.value, f.unit) for f in store.iter_facts()}
    assert units["C_EMPLOYEES"] == (18971.0, "NUMBER")
    assert units["C_CAPITAL_SPENDING"] == (238.0, "M")


def test_amount_alone_names_no_line_item(tmp_path: Path) -> None:
    # a maturity table read sideways (years down its rows, one column "Amount") gives a
    # row code AMOUNT: "the total amount of inventories" asked back between it and the
    # inventories
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "balance.csv").write_text(
        "(in millions),2019,2018\nInventories,\"5,409\",\"5,209\"\n", encoding="utf-8")
    (folder / "leases.csv").write_text("(in millions),Amount\n2020,17\n2021,31\n2022,29\n",
                                       encoding="utf-8")
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    answer = Agent.from_workspace(tmp_path / "ws").ask(
        "What is the year end FY2019 total amount of inventories?",
        reference_date=date(2024, 1, 1))
    assert "5,409 million" in answer.answer
