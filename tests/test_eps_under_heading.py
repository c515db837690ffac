"""Earnings per share stated as "Basic" and "Diluted" under "Earnings per common share".

Nike's statements of income write its earnings per share as two rows under a heading:
"Earnings per common share: Basic 3.27, Diluted 3.23". The rows were filed as their own
line items ("Diluted", "Earnings per common share diluted"), so "What was Nike's diluted
EPS in fiscal 2023?" found no diluted earnings per share. The built-in profile now names
the line items in those words too ("earnings per common share - diluted", "diluted
earnings per common share", …). Each test fails on the code before (not found).
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine_nb.agent import Agent
from tests.filings import tables_agent

REF = date(2023, 6, 1)
INCOME = """"(in millions, except per share data)",2021,2022
Revenue,"44,538","46,710"
Net income,"5,727","6,046"
Earnings per common share:,,
Basic,3.64,3.83
Diluted,3.56,3.75
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    return tables_agent(tmp_path_factory.mktemp("eps"), {"income.csv": INCOME})


@pytest.mark.parametrize(("asked", "expected"), [
    ("What was diluted EPS in 2022?", 3.75),
    ("What were basic earnings per share in 2021?", 3.64),
    ("What were diluted earnings per share in 2021?", 3.56),
])
def test_earnings_per_share_under_its_heading_is_the_line_item(
        agent: Agent, asked: str, expected: float) -> None:
    result = agent.ask(asked, reference_date=REF)
    assert [(f.value, f.unit) for f in result.figures] == [(expected, "")], result.answer
    assert "cell=" in result.answer  # cited at its cell


def test_earnings_per_share_attributable_to_the_owners_with_a_dash_is_the_line_item(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """3M writes "Earnings per share attributable to 3M common shareholders — diluted": the
    owners' name was dropped with everything after it (the "— diluted" too), so no form of
    the label named the line item and "3M's diluted EPS in 2018" was not found."""
    agent = tables_agent(tmp_path_factory.mktemp("eps_owners"), {"income.csv": (
        '"(Millions, except per share amounts)",2017,2018\n'
        'Net sales,"31,657","32,765"\n'
        'Earnings per share attributable to Acme common shareholders — basic,8.13,9.09\n'
        'Earnings per share attributable to Acme common shareholders — diluted,7.93,8.89\n')})
    diluted = agent.ask("What was diluted EPS in 2018?", reference_date=REF)
    assert [f.value for f in diluted.figures] == [8.89], diluted.answer
    basic = agent.ask("What was basic EPS in 2017?", reference_date=REF)
    assert [f.value for f in basic.figures] == [8.13], basic.answer
