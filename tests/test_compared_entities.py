"""Which company (or region) had the highest X: every one the store states X for, compared.

Over a folder of several companies' 10-Ks, "Which company had the highest revenue in
2022?" was read as the home company's rows ("Comparison not computed: the company
Subscription … and the company Product …"); "Which region had the highest revenue in
FY2025?" over the demo deck quoted a passage about something else. A which-question whose
noun is a company or a part of a group, naming none, now compares every entity with a
stored figure of the row (the group left out of "which region": it is their whole), and
names those with none stored. Through the demo workspace and two real 10-Ks; the tests
fail on the code before.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent
from tests.filings import dev_filing_workspace

REF = date(2026, 3, 31)


@pytest.fixture(scope="module")
def agent(demo_ws: Path) -> Agent:
    return Agent.from_workspace(demo_ws)


@pytest.mark.parametrize("question, said", [
    ("Which region had the highest revenue in FY2025?",
     "ACME Mainland China: the highest of the 2 compared (Revenue, FY2025)."),
    ("Which region had the lowest revenue in FY2025?",
     "ACME Hong Kong: the lowest of the 2 compared (Revenue, FY2025)."),
    ("2025年哪个地区营业收入最高？",
     "ACME Mainland China：在所比较的2项中最高（Revenue, FY2025）。"),
])
def test_the_regions_of_the_group_are_compared(agent: Agent, question: str,
                                               said: str) -> None:
    r = agent.ask(question, REF)
    assert r.answer.startswith(said), r.answer
    assert "1,405" in r.answer and "1,530" in r.answer and "4,760" not in r.answer


@pytest.fixture(scope="module")
def filings(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    ws = dev_filing_workspace(tmp_path_factory.mktemp("compared"), "NIKE_2023_10K.pdf",
                              "BESTBUY_2023_10K.pdf", "NETFLIX_2017_10K.pdf")
    return Agent.from_workspace(Path(ws))


def test_the_companies_of_a_folder_are_compared(filings: Agent) -> None:
    r = filings.ask("Which company had the highest revenue in 2022?")
    assert r.answer.startswith(
        "(Compared: those with a stored figure for FY2022; none stored for Netflix, Inc.) "
        "Best Buy Co., Inc.: the highest of the 2 compared (Revenue, FY2022)."), r.answer
    assert "51,761" in r.answer and "46,710" in r.answer


def test_a_folder_naming_no_year_is_compared_in_the_latest_year_shared(filings: Agent
                                                                       ) -> None:
    r = filings.ask("Which company had the highest revenue?")
    assert r.answer.startswith(
        "(Assuming FY2023, the latest fiscal year two or more of them state.) (Compared: "
        "those with a stored figure for FY2023; none stored for Netflix, Inc.) NIKE, Inc.: "
        "the highest of the 2 compared (Revenue, FY2023)."), r.answer


def test_a_named_company_is_not_compared_with_the_others(filings: Agent) -> None:
    r = filings.ask("What was Nike's revenue in fiscal 2022?")
    assert [f.value for f in r.figures] == [46710.0], r.answer


@pytest.mark.parametrize("question, said", [
    ("Which region had the highest revenue?",
     "(Assuming FY2025, the latest fiscal year two or more of them state.) ACME Mainland "
     "China: the highest of the 2 compared (Revenue, FY2025)."),
    ("哪个地区营业收入最高？", "（假设：FY2025，即两家及以上列示的最近财年）ACME Mainland China："),
])
def test_no_year_named_takes_the_latest_they_share_and_says_so(agent: Agent, question: str,
                                                               said: str) -> None:
    """Naming no year, the comparison took the reference date's latest complete year (over
    a folder of 10-Ks, one no filing states: nothing computed); now the latest fiscal year
    two or more of them state, said as assumed."""
    r = agent.ask(question, REF)
    assert r.answer.startswith(said), r.answer
