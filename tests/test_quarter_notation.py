"""A quarter or half written the analysts' way: "4Q25", "4Q 2025", "1H25", "4Q revenue in FY2025".

"What was revenue in 1H25?" answered FY2025's 4,760 US$ m ("assuming the latest
complete fiscal year"; the deck states 1H25's 2,290), "What was 4Q revenue in FY2025?" and
"What was Nike's 4Q revenue in fiscal 2023?" the whole year's (51,217 million): a part of a
year read as nothing, the year answered — wrong numbers. Quarter and half notations with
the number first are now periods (glossary, the question's period phrases, a part named
before its year). Through the demo workspace and Nike's 10-K; the tests fail on the code
before.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent
from ragspine_nb.period_codes import normalize_period
from ragspine_nb.profile import DomainProfile
from tests.filings import dev_filing_workspace

REF = date(2026, 3, 31)


@pytest.mark.parametrize("text, period", [
    ("4Q 2025", ("QUARTER", "2025Q4")), ("4Q25", ("QUARTER", "2025Q4")),
    ("4Q FY2025", ("QUARTER", "2025Q4")), ("1H25", ("HY", "2025H1")),
    ("2H 2024", ("HY", "2024H2")), ("Q4 2025", ("QUARTER", "2025Q4")),
])
def test_the_notation_is_a_period(text: str, period: tuple[str, str]) -> None:
    assert normalize_period(DomainProfile.builtin(), text) == period


@pytest.fixture(scope="module")
def agent(demo_ws: Path) -> Agent:
    return Agent.from_workspace(demo_ws)


def test_a_half_is_answered_with_its_own_figure(agent: Agent) -> None:
    r = agent.ask("What was group revenue in 1H25?", REF)
    assert [(f.value, f.operands[0].period) for f in r.figures] == [(2290.0, "2025H1")], \
        r.answer


@pytest.mark.parametrize("question", ["What was 4Q revenue in FY2025?",
                                      "What was group revenue in 4Q25?"])
def test_a_quarter_not_stored_is_never_the_year(agent: Agent, question: str) -> None:
    r = agent.ask(question, REF)
    assert r.figures == () and "2025Q4 is not in the fact store" in r.answer, r.answer


def test_a_real_filers_quarter_is_never_its_year(tmp_path_factory: pytest.TempPathFactory
                                                 ) -> None:
    ws = dev_filing_workspace(tmp_path_factory.mktemp("quarter"), "NIKE_2023_10K.pdf")
    r = Agent.from_workspace(Path(ws)).ask("What was Nike's 4Q revenue in fiscal 2023?")
    assert r.figures == () and "2023Q4 is not in the fact store" in r.answer, r.answer
