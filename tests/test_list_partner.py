"""A list whose other item names nothing of the workspace is asked back, never half answered.

"What were ACME Hong Kong revenue and EBITDA in FY2025?" over the demo deck (no EBITDA)
answered the revenue alone, as if it were the whole answer; so did "香港2025年营业收入和营业
利润分别是多少？" (the deck's operating profit is "经营利润"). Now the question is asked back
with the row read offered. Both items known are answered as before. Through the demo
workspace; the tests fail on the code before.
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


@pytest.mark.parametrize("question, asked", [
    ("What were ACME Hong Kong revenue and EBITDA in FY2025?",
     "Which metric do you mean? Closest: Revenue (REVENUE)"),
    ("香港2025年营业收入和营业利润分别是多少？",
     "请问您指的是哪个指标？最接近的：Revenue (REVENUE)"),
])
def test_an_item_no_name_holds_asks_back(agent: Agent, question: str, asked: str) -> None:
    r = agent.ask(question, REF)
    assert r.figures == () and r.answer.startswith(asked), r.answer


@pytest.mark.parametrize("question", [
    "What were ACME Hong Kong revenue and operating profit in FY2025?",
    "香港2025年营业收入和新单销售分别是多少？",
])
def test_two_items_known_are_both_answered(agent: Agent, question: str) -> None:
    assert len(agent.ask(question, REF).figures) == 2
