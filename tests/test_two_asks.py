"""Questions with two asks — a figure, and why it moved — through the user's path.

The figure asked is the headline figure (from the store, cited), the why is attributed
from the narrative channel (cited), and a direction the question takes for granted that
the store contradicts is said with its derivation; in English and Chinese.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent
from ragspine_nb.agent.reading.premise import (
    DOWN,
    UP,
    Premise,
    check_premise,
    premise_of,
    prior_period,
)
from ragspine_nb.agent.reading.two_asks import TwoAsks, read_two_asks

REF = date(2026, 3, 31)
HK_2025 = ("ACME Hong Kong Revenue, FY2025: 1,405 US$ m (source: ACME_FY2025_Results.pptx · "
           "slide=3,table=1,row=REVENUE,col=FY2025 · as of 2026-03-20)")
HK_2025_ZH = ("ACME Hong Kong Revenue，FY2025：1,405百万美元（来源：ACME_FY2025_Results.pptx · "
              "slide=3,table=1,row=REVENUE,col=FY2025 · 截至 2026-03-20）")
HK_2024_CELL = {"doc": "ACME_FY2025_Results.pptx",
                "locator": "slide=3,table=1,row=REVENUE,col=FY2024"}


@pytest.fixture(scope="module")
def agent(demo_ws: Path) -> Iterator[Agent]:
    a = Agent.from_workspace(demo_ws)
    yield a
    a.close()


# ------------------------------------------------------------- the user's path
def test_figure_and_why_en_answers_the_figure_and_says_the_premise_is_false(agent: Agent
                                                                              ) -> None:
    r = agent.ask("What was ACME Hong Kong revenue in FY2025, and why did it fall?", REF)
    lines = r.answer.split("\n")
    assert lines[0] == HK_2025
    assert lines[1] == (
        "It did not fall: it rose 6.44% from FY2024, (1,405 − 1,320) / 1,320 = 6.44%; "
        "FY2024: 1,320 US$ m (source: ACME_FY2025_Results.pptx · "
        "slide=3,table=1,row=REVENUE,col=FY2024 · as of 2026-03-20).")
    assert lines[2:4] == ["", "Attribution:"]
    assert [(f.value, f.unit, f.operation) for f in r.figures] == \
        [(1405.0, "USD_M", "lookup"), (6.44, "PCT", "percent_change")]
    assert [o.value for o in r.figures[1].operands] == [1405.0, 1320.0]
    assert r.route == "composite" and HK_2024_CELL in r.sources
    # the why: attributed from the narrative, cited
    assert "led by Hong Kong, where agency new sales rose to US$835m" in r.answer
    assert {"doc": "ACME_FY2025_Results.pptx", "locator": "slide=9,para=1-4"} in r.sources
    assert r.trace["two_asks"] == "What was ACME Hong Kong revenue in FY2025"


def test_figure_and_why_zh_answers_the_figure_and_says_the_premise_is_false(agent: Agent
                                                                              ) -> None:
    r = agent.ask("香港2025年营业收入是多少，为什么下降了？", REF)
    lines = r.answer.split("\n")
    assert lines[0] == HK_2025_ZH
    assert lines[1] == (
        "并未下降：较FY2024上升6.44%，(1,405 − 1,320) / 1,320 = 6.44%；FY2024：1,320百万美元"
        "（来源：ACME_FY2025_Results.pptx · slide=3,table=1,row=REVENUE,col=FY2024 · "
        "截至 2026-03-20）。")
    assert lines[2:4] == ["", "归因分析："]
    assert "未计算变动" not in r.answer
    assert [(f.value, f.operation) for f in r.figures] == \
        [(1405.0, "lookup"), (6.44, "percent_change")]
    assert r.citations and HK_2024_CELL in r.sources


@pytest.mark.parametrize(("question", "said", "not_said"), [
    # the why of Hong Kong's figure: never the sentence about Mainland China's revenue, nor
    # the paragraph that goes on about it without naming it again
    ("香港2025年营业收入是多少，为什么下降了？",
     "香港代理人渠道表现强劲，内地访客恢复带动新单销售增长。",
     ("ACME中国内地营业收入", "银保渠道新单保费同比下降约两成")),
    ("What was ACME Hong Kong revenue in FY2025, and why did it fall?",
     "led by Hong Kong, where agency new sales rose to US$835m", ("Mainland China revenue fell",)),
    # and the other way round: Mainland China's why keeps its own sentences
    ("Why did Mainland China revenue fall in FY2025?",
     "Mainland China revenue fell to US$1,530m: bancassurance new sales dropped 17%", ()),
])
def test_the_why_of_one_segment_is_never_a_sibling_segments_sentence(
        agent: Agent, question: str, said: str, not_said: tuple[str, ...]) -> None:
    why = agent.ask(question, REF).answer.split("归因分析：")[-1].split("Attribution:")[-1]
    assert said in why
    assert not [s for s in not_said if s in why]


def test_a_premise_false_the_other_way_is_said_too(agent: Agent) -> None:
    """Mainland China revenue fell (1,580 → 1,530): "why did it rise" does not hold."""
    r = agent.ask("How much was ACME Mainland China revenue in FY2025? Why did it increase?",
                  REF)
    assert r.answer.split("\n")[1] == (
        "It did not rise: it fell 3.16% from FY2024, (1,530 − 1,580) / 1,580 = -3.16%; "
        "FY2024: 1,580 US$ m (source: ACME_FY2025_Results.pptx · "
        "slide=4,table=1,row=REVENUE,col=FY2024 · as of 2026-03-20).")
    zh = agent.ask("中国内地2025年营业收入是多少，为何增长？", REF)
    assert zh.answer.split("\n")[1].startswith("并未上升：较FY2024下降3.16%，")


def test_a_rate_moves_in_percentage_points(agent: Agent) -> None:
    """Group ROE rose 12.8% → 13.4%: its change is said in points, never as a percent of it."""
    r = agent.ask("What was the Group ROE in FY2025, and why did it decline?", REF)
    assert r.answer.split("\n")[1].startswith(
        "It did not fall: it rose 0.6 percentage points from FY2024, (13.4 − 12.8) = 0.6 "
        "percentage points; FY2024: 12.8% (source: ")
    assert [(f.value, f.unit) for f in r.figures] == [(13.4, "PCT"), (0.6, "PCT")]
    zh = agent.ask("集团2025年ROE是多少，为什么下降？", REF)
    assert zh.answer.split("\n")[1].startswith("并未下降：较FY2024上升0.6个百分点，")


@pytest.mark.parametrize("question, first", [
    ("What was ACME Hong Kong revenue in FY2025, and why did it grow?", HK_2025),
    ("What was ACME Hong Kong revenue in FY2025 and why?", HK_2025),
    ("香港2025年营业收入是多少，为什么增长了？", HK_2025_ZH),
])
def test_a_true_premise_or_none_says_nothing_about_it(agent: Agent, question: str,
                                                       first: str) -> None:
    r = agent.ask(question, REF)
    lines = r.answer.split("\n")
    assert lines[0] == first and lines[1] == ""
    assert lines[2] in ("Attribution:", "归因分析：")
    assert [(f.value, f.operation) for f in r.figures] == [(1405.0, "lookup")]
    assert HK_2024_CELL not in r.sources and r.citations


def test_a_premise_is_checked_only_when_the_year_before_is_stored(agent: Agent) -> None:
    r = agent.ask("What was Hong Kong revenue in FY2021, and why did it fall?", REF)
    assert r.answer.startswith("ACME Hong Kong Revenue, FY2021: 1,080 US$ m (source: "
                               "ACME_5yr_Summary.xlsx · sheet=Segments!B3")
    assert r.answer.split("\n")[1:3] == ["", "Attribution:"]
    assert [f.value for f in r.figures] == [1080.0]


def test_a_plain_why_still_goes_narrative(agent: Agent) -> None:
    r = agent.ask("Why did Hong Kong revenue fall in FY2025?", REF)
    assert r.answer.startswith("Figures in question (context, not the answer):\n" + HK_2025)
    assert r.figures == () and "did not fall" not in r.answer
    zh = agent.ask("为什么香港2025年营业收入下降了？", REF)
    assert zh.answer.startswith("相关数字（背景，非答案）：") and zh.figures == ()


@pytest.mark.parametrize("question, first", [
    ("What was ACME Hong Kong revenue in FY2025?", HK_2025),
    ("香港2025年营业收入是多少？", HK_2025_ZH),
])
def test_a_figure_without_a_why_is_unchanged(agent: Agent, question: str, first: str) -> None:
    r = agent.ask(question, REF)
    assert r.answer == first and r.route == "structured"
    assert [f.value for f in r.figures] == [1405.0] and "two_asks" not in r.trace


# ------------------------------------------------------------------ the rules
@pytest.mark.parametrize("question, figure, why", [
    ("What was revenue in 2019, and why did it fall?", "What was revenue in 2019",
     "why did it fall?"),
    ("What was revenue in 2019? Why did it fall?", "What was revenue in 2019",
     "Why did it fall?"),
    ("How much was revenue in 2019 and how come it dropped?", "How much was revenue in 2019",
     "how come it dropped?"),
    ("What were net sales in 2019; what caused the decline?", "What were net sales in 2019",
     "what caused the decline?"),
    ("2025年营业收入是多少？为什么减少？", "2025年营业收入是多少", "为什么减少？"),
    ("2025年营业收入是多少以及为何下滑", "2025年营业收入是多少", "为何下滑"),
])
def test_two_asks_are_read_from_the_question_structure(question: str, figure: str,
                                                        why: str) -> None:
    asks = read_two_asks(question)
    assert asks is not None and (asks.figure, asks.why) == (figure, why)
    assert asks.premise is not None and asks.premise.direction == DOWN


@pytest.mark.parametrize("question", [
    "Why did revenue fall in FY2025?",
    "为什么2025年营运利润下降？",
    "What was revenue in FY2025?",
    "How much of the increase was due to higher volumes?",
    "What was the reason for the decline in revenue, and why did it fall?",
    "Explain why revenue fell",
    "Revenue fell in 2019, why?",
])
def test_one_ask_is_not_two(question: str) -> None:
    assert read_two_asks(question) is None


@pytest.mark.parametrize("clause, direction", [
    ("why did it grow?", UP), ("why was it higher?", UP), ("why did it go up", UP),
    ("为什么上涨", UP), ("why has it declined?", DOWN), ("why did it shrink?", DOWN),
    ("为什么回落", DOWN), ("为何减少了", DOWN),
])
def test_direction_words(clause: str, direction: str) -> None:
    premise = premise_of(clause)
    assert premise is not None and premise.direction == direction


@pytest.mark.parametrize("clause", ["why did it change?", "why didn't it grow?",
                                    "为什么没有增长", "why did sales rise and costs fall?",
                                    "why?"])
def test_no_direction_or_a_negated_one_takes_nothing_for_granted(clause: str) -> None:
    assert premise_of(clause) is None


def test_premise_rule() -> None:
    down = Premise(DOWN, "fall")
    assert check_premise(down, 90.0, 100.0) is not None
    assert check_premise(down, 90.0, 100.0).holds  # type: ignore[union-attr]
    assert not check_premise(down, 110.0, 100.0).holds  # type: ignore[union-attr]
    assert check_premise(down, -90.0, 100.0) is None  # a negative value: nothing said
    assert prior_period("FY", "2025") == "FY2024"
    assert prior_period("HY", "2025H1") is None and prior_period("QUARTER", "2025Q1") is None
    with pytest.raises(ValueError, match="Valid: \\['up', 'down'\\]"):
        Premise("sideways", "moved")
    assert TwoAsks("a", "b").premise is None


# ------------------------------------------- a change asked with a verb of movement
@pytest.mark.parametrize("question, first, note", [
    # a verb of movement asks how much moved, never the level (1,405 was the answer)
    ("How much did ACME Hong Kong revenue grow in FY2025?",
     "(Assuming the comparison is FY2025 against FY2024.) ACME Hong Kong Revenue, change "
     "from FY2024 to FY2025: 85 US$ m", ""),
    # a direction the question takes for granted that the computed change contradicts
    ("By how much did ACME Hong Kong revenue fall in FY2025?",
     "(Assuming the comparison is FY2025 against FY2024.) ACME Hong Kong Revenue, change "
     "from FY2024 to FY2025: 85 US$ m", "Note: it did not fall; it rose (the change above)."),
    ("ACME香港2025年营业收入下降了多少？",
     "（假设：比较FY2025与FY2024）ACME Hong Kong Revenue，FY2025较FY2024变动：85百万美元",
     "注意：并未下降，而是上升（见上方计算）。"),
])
def test_a_verb_of_movement_asks_the_change_and_a_false_direction_is_said(
        agent: Agent, question: str, first: str, note: str) -> None:
    r = agent.ask(question, REF)
    assert r.answer.startswith(first), r.answer
    assert [(f.value, f.operation) for f in r.figures] == [(85.0, "difference")]
    assert (r.answer.splitlines()[-1] == note) if note else ("did not" not in r.answer)
