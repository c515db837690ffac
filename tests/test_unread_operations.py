"""Operations (and periods) a question asks that the agent does not read give no level.

Through the demo workspace (``build_demo`` → ``Agent.from_workspace`` → ``Agent.ask``):
"half of revenue" is no revenue, "the sum of A and B divided by C" is no sum of three,
"how many times did A exceed B" is no count of items; "A与B之差" is their difference.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine_nb import Agent


@pytest.fixture(scope="module")
def agent(demo_ws: Path) -> Agent:
    return Agent.from_workspace(demo_ws)


@pytest.mark.parametrize(("question", "starts"), [
    ("What is half of ACME Hong Kong revenue in FY2025?",
     "Multiple not computed: the question asks for it in words this agent could not read "
     "exactly, so no figure is given."),
    ("香港2025年Revenue的一半是多少？", "未计算倍数：问题要求的运算未能从问题中确定地读出"),
    ("What is the sum of ACME Hong Kong revenue and operating profit divided by new sales in "
     "FY2025?", "Sum not computed: the sum of changes or of other computed figures (ratio) is "
                "not computed."),
    ("香港2025年Revenue与Operating profit之和除以New sales是多少？",
     "未计算合计：暂不计算变动或其他计算结果的合计（比率）。"),
])
def test_an_operation_not_computed_gives_no_figure(agent: Agent, question: str,
                                                   starts: str) -> None:
    r = agent.ask(question)
    assert not r.figures
    assert r.answer.startswith(starts)
    assert "2,759" not in r.answer  # never the sum of the three


def test_how_many_times_one_figure_exceeds_another_is_no_count(agent: Agent) -> None:
    r = agent.ask("How many times did ACME Hong Kong revenue exceed operating profit in "
                  "FY2025?")
    assert not r.figures and "number of items" not in r.answer


def test_the_difference_of_two_rows_asked_in_chinese(agent: Agent) -> None:
    r = agent.ask("香港2025年Revenue与New sales之差是多少？")
    assert [f.value for f in r.figures] == [503.0]
    assert "计算：(1,405 − 902) = 503" in r.answer


def test_a_difference_divided_by_a_figure_is_no_difference(agent: Agent) -> None:
    r = agent.ask("What is ACME Hong Kong revenue minus new sales divided by revenue in "
                  "FY2025?")
    assert not r.figures and "503" not in r.answer
    assert r.answer.startswith("Difference not computed: the difference of changes or of other "
                               "computed figures (ratio) is not computed.")


def test_the_first_half_of_a_year_is_a_period_not_a_multiple(agent: Agent) -> None:
    r = agent.ask("What was ACME Hong Kong revenue in the first half of FY2025?")
    assert r.answer.startswith("Not found: ACME Hong Kong Revenue, 2025H1 is not in the fact "
                               "store; no estimate is given.")


def test_one_figure_divided_by_another_is_their_ratio(agent: Agent) -> None:
    r = agent.ask("What is ACME Hong Kong operating profit divided by revenue in FY2025?")
    assert [round(f.value, 4) for f in r.figures] == [0.3217]
    assert "Derivation: 452 / 1,405 = 0.32" in r.answer


def test_a_period_named_relative_to_another_is_asked_never_the_latest(agent: Agent) -> None:
    r = agent.ask("What was ACME Hong Kong revenue in the prior year?")
    assert not r.figures
    assert r.answer.startswith("Which period do you mean? “the prior year” is not a fiscal "
                               "year, half-year or quarter I can match")
    # with a change asked, or a year named, it is read as before
    change = agent.ask("How did ACME Hong Kong revenue change from the prior year?")
    assert [f.value for f in change.figures] == [85.0]
    named = agent.ask("What was ACME Hong Kong revenue in FY2024, the year before?")
    assert [f.value for f in named.figures] == [1320.0]
