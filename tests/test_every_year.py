""""Each fiscal year", "over the years", "历年": every year the rows report, said.

A user's folder holds several years of one company's filings. "What was Zentra's net
sales in each fiscal year?" asks for them all: it was read as the latest complete year
(with a "Fiscal Year" row of another table beside it); now every fiscal year all the
rows asked about report is listed, each cited, and the answer says which years it read.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb import ingest
from ragspine_nb.agent import Agent
from tests.filings import filing

REF = date(2024, 3, 1)


@pytest.fixture(scope="module")
def two_years(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    base = tmp_path_factory.mktemp("years")
    folder = base / "reports"
    folder.mkdir()
    filing(folder / "zentra_2023.pdf", "ZENTRA CORPORATION", 2023,
           [("Net sales", "1,200", "1,000"), ("Gross profit", "300", "240")], ["Sales grew."],
           registrant="1-4101")
    filing(folder / "zentra_2021.pdf", "ZENTRA CORPORATION", 2021,
           [("Net sales", "900", "800"), ("Gross profit", "180", "200")], ["Sales grew."],
           registrant="1-4101")
    ingest(folder, workspace=base / "ws", progress=False)
    return Agent.from_workspace(base / "ws")


def test_each_fiscal_year_lists_every_year_reported(two_years: Agent) -> None:
    r = two_years.ask("What was Zentra's net sales in each fiscal year?", REF)
    assert r.answer.startswith("(Assuming the years are every fiscal year reported: FY2020, "
                               "FY2021, FY2022 and FY2023.) Comparison:"), r.answer
    assert [(f.label, f.value) for f in r.figures] == [
        (f"Zentra Corporation Revenue, FY{y}", v)
        for y, v in ((2020, 800.0), (2021, 900.0), (2022, 1000.0), (2023, 1200.0))]


def test_a_margin_over_the_years_is_computed_for_each_year(two_years: Agent) -> None:
    r = two_years.ask("What was Zentra's gross margin over the years?", REF)
    assert [round(f.value, 2) for f in r.figures] == [25.0, 20.0, 24.0, 25.0]
    assert all(f.sources for f in r.figures)


def test_an_average_over_the_years_says_the_years_it_read(two_years: Agent) -> None:
    r = two_years.ask("What was Zentra's average net sales over the years?", REF)
    assert r.answer.startswith("(Assuming the years are every fiscal year reported:"), r.answer
    assert [f.value for f in r.figures] == [975.0]


def test_a_change_over_the_years_is_still_the_latest_two(two_years: Agent) -> None:
    # a change needs two years: the latest two are assumed and said, as before
    r = two_years.ask("How did Zentra's net sales change over the years?", REF)
    assert r.answer.startswith("(Assuming the comparison is FY2023 against FY2022.)"), r.answer


def test_the_years_are_said_in_chinese(two_years: Agent) -> None:
    r = two_years.ask("Zentra历年的营业收入是多少？", REF)
    assert r.answer.startswith("（假设：期间为有数据的各财年：FY2020、FY2021、FY2022、FY2023）"), \
        r.answer
