"""A fiscal year named by its distance from the one written: "two years before fiscal 2023".

"What was Nike's revenue two years before fiscal 2023?" answered fiscal 2023's 51,217
million (the year written, not the one named: a wrong number); "… in fiscal 2023 and the
year before?" answered fiscal 2023 alone. The phrase is now read against the fiscal year
it names (:mod:`ragspine_nb.agent.reading.offset_period`), or the period is asked back when
it names no fiscal year ("2 years before Q2 2023", "the year before the pandemic"). Through
the demo workspace and Nike's 10-K, as a user asks; the tests fail on the code before.
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


@pytest.mark.parametrize("question, figures", [
    ("What was ACME Hong Kong revenue the year before FY2025?", [("FY2024", 1320.0)]),
    ("What was ACME Hong Kong revenue one year before FY2025?", [("FY2024", 1320.0)]),
    ("What was ACME Hong Kong revenue in FY2025 and the year before?",
     [("FY2025", 1405.0), ("FY2024", 1320.0)]),
    ("What was ACME Hong Kong revenue the year after FY2024?", [("FY2025", 1405.0)]),
])
def test_the_year_named_by_distance_is_read(agent: Agent, question: str,
                                            figures: list[tuple[str, float]]) -> None:
    r = agent.ask(question, REF)
    assert [(f"FY{f.operands[0].period}", f.value) for f in r.figures] == figures, r.answer


@pytest.mark.parametrize("question", [
    "What was ACME Hong Kong revenue two years before Q2 2025?",
    "What was ACME Hong Kong revenue in the year before the merger?",
])
def test_a_distance_from_no_fiscal_year_is_asked_back(agent: Agent, question: str) -> None:
    r = agent.ask(question, REF)
    assert r.figures == () and r.answer.startswith("Which period do you mean?"), r.answer


@pytest.fixture(scope="module")
def nike(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    ws = dev_filing_workspace(tmp_path_factory.mktemp("offset"), "NIKE_2023_10K.pdf")
    return Agent.from_workspace(Path(ws))


def test_two_years_before_fiscal_2023_is_fiscal_2021(nike: Agent) -> None:
    r = nike.ask("What was Nike's revenue two years before fiscal 2023?")
    assert [f.value for f in r.figures] == [44538.0], r.answer
    r = nike.ask("What was the change in Nike's revenue between fiscal 2023 and the prior "
                 "year?")
    assert [f.value for f in r.figures] == [4507.0], r.answer
