"""Follow-up questions carry the previous answer's resolved slots (codes), never its text."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent
from ragspine_nb.agent.scope.follow_up import Carried, carry_over

REF = date(2026, 3, 31)


@pytest.fixture
def agent(demo_ws: Path) -> Agent:
    a = Agent.from_workspace(demo_ws)
    yield a
    a.close()


def test_a_period_alone_follows_the_previous_metric_and_entity(agent: Agent) -> None:
    chat = agent.chat()
    first = chat.ask("What was Hong Kong revenue in FY2025?", REF)
    assert first.slots == {"metric": "REVENUE", "entity": "ACME_HK",
                           "period": ["FY", "2025"], "channel": None}
    r = chat.ask("And in FY2024?", REF)
    assert [(f.value, f.unit) for f in r.figures] == [(1320.0, "USD_M")]
    assert r.answer.startswith("(Following on from the previous question: Revenue, ACME Hong "
                               "Kong.) ACME Hong Kong Revenue, FY2024: 1,320")
    assert r.trace["carried_over"] == ["metric", "entity"]
    assert chat.messages[-1].meta["slots"]["period"] == ["FY", "2024"]


def test_why_did_it_change_is_about_the_figure_just_given(agent: Agent) -> None:
    chat = agent.chat()
    chat.ask("What was Hong Kong revenue in FY2025?", REF)
    r = chat.ask("Why did it change?", REF)
    assert r.route == "composite" and r.trace["carried_over"] == ["metric", "entity", "period"]
    assert "Revenue, ACME Hong Kong, FY2025" in r.answer
    assert any(c["kind"] == "passage" for c in r.citations)  # the narrative found passages
    assert r.figures == ()  # a "why" question asserts no figure


def test_the_same_question_outside_a_conversation_carries_nothing(agent: Agent) -> None:
    r = agent.ask("And in FY2024?", REF)
    assert r.trace["carried_over"] == [] and not r.answer.startswith("(Following")


def test_a_question_with_its_own_metric_is_a_new_question(agent: Agent) -> None:
    chat = agent.chat()
    chat.ask("What was Hong Kong revenue in FY2025?", REF)
    r = chat.ask("What were Group new sales in FY2024?", REF)
    assert r.trace["carried_over"] == [] and r.trace["entity"] == "ACME_GROUP"


@pytest.mark.parametrize("question, said, value", [
    ("And its operating profit?", "(Following on from the previous question: ACME Mainland "
     "China, FY2024.) ACME Mainland China Operating profit, FY2024: 335", 335.0),
    ("那它的新单销售呢？", "（承接上一问：ACME Mainland China, FY2024。）ACME Mainland China New "
     "sales，FY2024：2,950", 2950.0),
])
def test_a_row_of_its_own_that_refers_back_takes_the_company_and_period(
        agent: Agent, question: str, said: str, value: float) -> None:
    """"And its operating profit?" after Mainland China's FY2024 revenue answered ACME
    Group's FY2025 operating profit ("assuming the entity is ACME Group")."""
    chat = agent.chat()
    chat.ask("What was Mainland China revenue in FY2024?", REF)
    r = chat.ask(question, REF)
    assert r.answer.startswith(said), r.answer
    assert r.trace["entity"] == "ACME_CN" and r.trace["carried_over"] == ["entity", "period"]
    assert [f.value for f in r.figures] == [value]


def test_a_competitor_follow_up_is_refused_and_carries_nothing(agent: Agent) -> None:
    chat = agent.chat()
    chat.ask("What was Hong Kong revenue in FY2025?", REF)
    r = chat.ask("And for Rivalis?", REF)
    assert r.clarification.mode == "out_of_scope_entity" and r.figures == ()
    assert r.slots == {} and chat.last_slots() is None
    again = chat.ask("And in FY2024?", REF)  # nothing resolved to follow after a refusal
    assert again.trace["carried_over"] == []


def test_codes_the_profile_does_not_know_are_never_carried(agent: Agent) -> None:
    intent = agent.parser.parse("And in FY2024?", REF)
    forged = Carried(metric="REVENUE; DROP TABLE", entity="RIVALIS", channel="X")
    out, carried = carry_over(intent, forged, agent.profile)
    assert out is intent and not carried
    out, carried = carry_over(intent, Carried("REVENUE", "RIVALIS"), agent.profile)
    assert carried == Carried("REVENUE") and out.entity is None and out.metric == "REVENUE"


def test_a_chinese_follow_up_states_the_carry_in_chinese(agent: Agent) -> None:
    chat = agent.chat()
    chat.ask("香港2025财年的营收是多少？", REF)
    r = chat.ask("那2024财年呢？", REF)
    assert r.answer.startswith("（承接上一问：") and r.trace["entity"] == "ACME_HK"
    assert [f.value for f in r.figures] == [1320.0]
