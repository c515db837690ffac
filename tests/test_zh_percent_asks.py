"""A percentage asked in Chinese as "百分之几" / "百分之多少": a percentage change, or a share.

"香港2025年营业收入较2024年增长了百分之几？" (by what percent did it grow) was refused
("未计算变动：问题要求的运算未能从问题中确定地读出") and "香港营业收入2025年占集团营业收入的
百分之几？" (what percent of the group's) listed both levels: the commonest way of asking a
percentage in Chinese was read by no rule. "增长/下降/增加/减少/上升了百分之几（多少）" is now
a change asked as a percentage, "占…的百分之几" a share. Through the demo workspace; the
tests fail on the code before.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent

REF = date(2026, 3, 31)


@pytest.fixture(scope="module")
def agent(demo_ws: Path) -> Agent:
    return Agent.from_workspace(demo_ws)


@pytest.mark.parametrize("question, value, derivation", [
    ("香港2025年营业收入较2024年增长了百分之几？", 6.44, "(1,405 − 1,320) / 1,320 = 6.44%"),
    ("香港2025年营业收入比2024年增长百分之多少？", 6.44, "(1,405 − 1,320) / 1,320 = 6.44%"),
    ("内地2025年营业收入较2024年下降了百分之几？", -3.16, "(1,530 − 1,580) / 1,580 = -3.16%"),
    ("香港营业收入2025年占集团营业收入的百分之几？", 29.52, "1,405 / 4,760 × 100 = 29.52%"),
])
def test_a_percentage_asked_in_chinese_is_computed(agent: Agent, question: str, value: float,
                                                  derivation: str) -> None:
    r = agent.ask(question, REF)
    assert [(round(f.value, 2), f.unit, f.derivation) for f in r.figures] == \
        [(value, "PCT", derivation)], r.answer


def test_an_amount_of_change_is_still_an_amount(agent: Agent) -> None:
    r = agent.ask("香港2025年营业收入较2024年增长了多少？", REF)
    assert [(f.value, f.unit) for f in r.figures] == [(85.0, "USD_M")], r.answer
