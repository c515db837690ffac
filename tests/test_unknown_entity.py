"""Issue 35 part 4: a company the workspace does not know is asked about, never assumed home.

"What was Zentrix revenue in FY2025?" used to be answered with ACME Group's revenue
"assuming ACME Group". It names a company (by position: the owner of a metric), just not
one the demo workspace knows, so the agent asks which company is meant. A name opening
with digits ("3M", "7-Eleven"), one after the question's first word ("Was Zentrix revenue
higher …") or before a year ("3M's 2022 revenue") was missed: "What is the average of 3M's
revenue over 2020 to 2022?" answered ACME Group's average, without even an assumption.

A part of a known company is asked about too: "What was ACME Singapore revenue in
FY2025?" read "ACME" (the group) and answered the group's 4,760 (a wrong number: the
workspace states no Singapore figure); "Nike Singapore revenue" answered Nike's 51,217.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent
from ragspine_nb.agent.scope.unknown_entity import unknown_organisation, unknown_part
from tests.filings import dev_filing_workspace

REF = date(2026, 3, 31)
ASKS = ["What was 3M's revenue in FY2025?", "What was 7-Eleven revenue in FY2025?",
        "What was 3M's 2022 revenue?", "Was Zentrix revenue higher in FY2025 than FY2024?",
        "What is the average of 3M's revenue over 2020 to 2022?",
        "What was Nike's highest revenue in fiscal 2023?",
        "What was Zentrix revenue in FY2025?", "What was Zentrix's revenue?",
        "What was the revenue of Zentrix Corp in FY2025?", "Why did Zentrix revenue fall?",
        "What was Google new sales in FY2024?", "What was Zentrix Holdings ROE in FY2025?",
        # the name away from the metric: a subject, an agent, after a verb
        "In which fiscal year did Nike have the lowest revenue?",
        "What is the maximum revenue Nike reported?",
        "How much revenue did Apple make in FY2025?",
        "What was Nike's revenue in North America in fiscal 2023?"]
# (question, clarification mode, text the answer starts with or contains)
ANSWERS = [
    ("What was ACME Group revenue in FY2025?", "none", "ACME Group Revenue, FY2025: 4,760"),
    ("What was revenue in FY2025?", "answer_with_assumptions", "4,760 US$ m"),
    ("What was Hong Kong revenue in FY2024?", "none", "ACME Hong Kong Revenue, FY2024: 1,320"),
    ("What was the Total revenue in FY2025?", "answer_with_assumptions", "4,760 US$ m"),
    ("What was March revenue?", "answer_with_assumptions", "ACME Group Revenue"),
    # a name the workspace's passages write is the report's own business, as before
    ("What was Investor revenue in FY2025?", "answer_with_assumptions", "4,760 US$ m"),
    # an acronym names no company
    ("What was revenue under IFRS in FY2025?", "answer_with_assumptions", "4,760 US$ m"),
]


@pytest.fixture(scope="module")
def agent(demo_ws: Path) -> Agent:
    return Agent.from_workspace(demo_ws)


@pytest.mark.parametrize("question", ASKS)
def test_an_unknown_company_is_asked_about(agent: Agent, question: str) -> None:
    r = agent.ask(question, REF)
    assert r.clarification.mode == "ask_first", r.answer
    assert r.answer.startswith("Which company do you mean? I do not know “")
    assert "I know: ACME Hong Kong, ACME Mainland China, ACME Group." in r.answer
    assert "US$" not in r.answer and not r.tool_results  # no figure, no lookup
    assert set(r.clarification.narrowing_options) == {"ACME Group", "ACME Hong Kong",
                                                      "ACME Mainland China"}


@pytest.mark.parametrize("question, mode, said", ANSWERS)
def test_ordinary_questions_are_answered_as_before(agent: Agent, question: str, mode: str,
                                                  said: str) -> None:
    r = agent.ask(question, REF)
    assert r.clarification.mode == mode and said in r.answer, r.answer


@pytest.mark.parametrize("question, unstated, name", [
    ("What was Zentrix revenue in FY2025?", ["zentrix"], "Zentrix"),
    ("What was Zentrix's revenue?", ["zentrix"], "Zentrix"),
    ("What was the revenue of Zentrix Corp?", ["zentrix", "corp"], "Zentrix Corp"),
    ("What was Bell Wireless revenue in 2019?", ["bell", "wireless"], "Bell Wireless"),
    # a name opening with digits, the question's first word never part of it, a year between
    ("What was 3M's revenue in FY2025?", ["3ms"], "3M"),
    ("What was 7-Eleven revenue?", ["7eleven"], "7-Eleven"),
    ("Was Zentrix revenue higher in 2025?", ["zentrix"], "Zentrix"),
    ("What was Zentrix FY2025 revenue?", ["zentrix"], "Zentrix"),
    ("What was 4Q revenue in FY2025?", ["4q"], ""),
    ("What was Nike's lowest quarterly revenue?", ["nikes"], "Nike"),
    ("What was Group's total revenue?", [], ""),
    # anywhere else in the question, as a name: not an acronym, not after a determiner
    ("In which fiscal year did Nike have the lowest revenue?", ["nike"], "Nike"),
    ("What is the maximum revenue Nike reported?", ["nike"], "Nike"),
    ("What was Nike's revenue in North America?", ["nike", "north", "america"], "Nike"),
    ("What was the revenue in both FYs?", ["fys"], ""),
    ("What was revenue under IFRS?", ["ifrs"], ""),
    ("What was revenue in the Annual Review?", ["annual", "review"], ""),
    # line items, periods, title case, sentence starts and known words are no company
    ("What was the change in the Cost of sales in 2019?", ["cost"], ""),
    ("What was the Total revenue in 2019?", ["total"], ""),
    ("What was March revenue?", ["march"], ""),
    ("What Was Zentrix Revenue In FY2025?", ["zentrix"], ""),
    ("Zentrix revenue in FY2025?", ["zentrix"], ""),
    ("What was Hong Kong revenue?", [], ""),
    ("What was FY2025 revenue?", [], ""),
    ("竞争对手的营收是多少？", ["竞争对手"], ""),
])
def test_the_name_is_found_by_its_position(question: str, unstated: list[str],
                                           name: str) -> None:
    assert unknown_organisation(question, ["revenue", "cost of sales"], unstated) == name


PART_ASKS = ["What was ACME Singapore revenue in FY2025?",
             "What was the revenue of ACME Singapore in FY2025?",
             "What was ACME Singapore's revenue in FY2025?"]
PART_ANSWERS = [("What was ACME Hong Kong revenue in FY2025?", "1,405"),
                ("What was ACME revenue in FY2025?", "4,760"),
                ("What was ACME's revenue in FY2025?", "4,760"),
                ("What was ACME Group revenue in FY2025?", "4,760")]


@pytest.mark.parametrize("question", PART_ASKS)
def test_a_part_of_a_known_company_no_table_states_is_asked_about(agent: Agent,
                                                                  question: str) -> None:
    r = agent.ask(question, REF)
    assert r.clarification.mode == "ask_first", r.answer
    assert r.answer.startswith("Which company do you mean? I do not know “ACME Singapore")
    assert r.figures == () and "4,760" not in r.answer


@pytest.mark.parametrize("question, said", PART_ANSWERS)
def test_a_known_company_and_its_known_parts_are_answered(agent: Agent, question: str,
                                                          said: str) -> None:
    r = agent.ask(question, REF)
    assert [f"{f.value:,.0f}" for f in r.figures] == [said], r.answer


@pytest.mark.parametrize("question, unstated, part", [
    ("What was ACME Singapore revenue in FY2025?", ["singapore"], "ACME Singapore"),
    ("What was the revenue of ACME Singapore?", ["singapore"], "ACME Singapore"),
    ("What was Nike's Zentrix revenue in 2023?", ["zentrix"], "Nike's Zentrix"),
    # an acronym, a known word, title case, the company alone: no part
    ("What was Nike's GAAP revenue in 2023?", ["gaap"], ""),
    ("What was ACME Hong Kong revenue?", [], ""),
    ("What Was ACME Singapore Revenue In FY2025?", ["singapore"], ""),
    ("What was ACME's revenue in FY2025?", [], ""),
    ("ACME新加坡的营收是多少？", ["新加坡"], ""),
])
def test_the_part_is_found_beside_the_company(question: str, unstated: list[str],
                                              part: str) -> None:
    owners = ["acme", "acme group", "nike"]
    assert unknown_part(question, ["revenue"], unstated, owners) == part


@pytest.fixture(scope="module")
def nike(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    ws = dev_filing_workspace(tmp_path_factory.mktemp("part"), "NIKE_2023_10K.pdf")
    return Agent.from_workspace(Path(ws))


def test_a_part_of_a_real_filer_is_asked_about_its_segments_answered(nike: Agent) -> None:
    """Nike's 10-K states no Singapore revenue; its Converse segment it does."""
    r = nike.ask("What was Nike Singapore revenue in fiscal 2023?")
    assert r.figures == () and r.answer.startswith(
        "Which company do you mean? I do not know “Nike Singapore”"), r.answer
    r = nike.ask("What was Nike's Converse revenue in fiscal 2023?")
    assert [f.value for f in r.figures] == [2427.0], r.answer
    r = nike.ask("What was Nike's revenue in fiscal 2023?")
    assert [f.value for f in r.figures] == [51217.0], r.answer
