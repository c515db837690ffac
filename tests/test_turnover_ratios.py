"""Turnover and coverage ratios, and a cost stated in brackets as a formula's base.

"What was the asset turnover in 2023?" answered revenue (14,694: "turnover" is a name of
revenue, and the ratio had no formula); inventory turnover and interest coverage asked
back. They are the profile's formulas now (``data/financial.toml``), shown with every
answer. A base a filing states in brackets ("Cost of sales (11,969)", "Interest expense
(290)") is divided by its size: days payable outstanding was -82.03 days. Each ratio
test fails on the code before the change; the loss test guards the rule's edge.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb.agent import Agent
from tests.filings import tables_agent

REF = date(2023, 9, 1)
INCOME = """(in millions),2023,2022
Net sales,"14,694","14,544"
Cost of sales,"(11,969)","(11,724)"
Gross profit,"2,725","2,820"
Operating income,"1,508","1,624"
Interest expense,(290),(194)
Net income,"1,058","1,464"
"""
BALANCE = """(in millions),2023,2022
Inventories,"2,213","2,439"
Total assets,"16,693","17,426"
Accounts payable,"2,690","3,073"
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("ratios"),
                        {"income.csv": INCOME, "balance.csv": BALANCE})


@pytest.mark.parametrize(("asked", "value", "derivation"), [
    ("What was the asset turnover in 2023?", 0.88, "14,694 / 16,693 = 0.88"),
    ("What was the inventory turnover in 2023?", 5.41,
     "1 / (2,213 / 11,969 (the size of -11,969)) = 5.41"),
    ("What was the interest coverage ratio in 2023?", 5.2,
     "1,508 / 290 (the size of -290) = 5.2"),
    ("What was days payable outstanding in 2023?", 82.03,
     "2,690 / 11,969 (the size of -11,969) × 365 = 82.03"),
])
def test_the_ratio_is_computed_from_its_stated_operands(agent: Agent, asked: str,
                                                        value: float, derivation: str) -> None:
    result = agent.ask(asked, reference_date=REF)
    assert [round(f.value, 2) for f in result.figures] == [value], result.answer
    assert derivation in result.answer


def test_a_loss_keeps_its_sign_over_a_positive_base(tmp_path_factory: pytest.TempPathFactory
                                                    ) -> None:
    """Only a base in brackets is taken by its size: a net loss's margin stays negative."""
    agent = tables_agent(tmp_path_factory.mktemp("loss"), {"income.csv": (
        '(in millions),2023,2022\nNet sales,"1,000",900\nNet income,(50),20\n')})
    result = agent.ask("What was the net margin in 2023?", reference_date=REF)
    assert [f.value for f in result.figures] == [-5.0], result.answer

