"""Periods in questions and headers: phrasings read as one period, a quarter never as a year."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent, DomainProfile, NarrativeIndex, Workspace
from ragspine_nb.agent.reading.intent import ROUTE_NARRATIVE, ROUTE_STRUCTURED, RuleIntentParser
from ragspine_nb.period_codes import normalize_period, normalize_periods
from ragspine_nb.period_phrases import ended_period, phrase_periods
from ragspine_nb.typos import TypoIndex, edit_distance

REF = date(2026, 3, 1)


@pytest.mark.parametrize("question, periods", [
    ("What was revenue in the first half of 2025?", [("HY", "2025H1")]),
    ("What was revenue in the second half of fiscal 2024?", [("HY", "2024H2")]),
    ("What was revenue in H1 2025?", [("HY", "2025H1")]),
    ("What was revenue in H2 FY25?", [("HY", "2025H2")]),
    ("What was revenue for the six months ended June 30, 2025?", [("HY", "2025H1")]),
    ("What was revenue for the six months ended 31 December 2024?", [("HY", "2024H2")]),
    ("What was revenue in fiscal 2024?", [("FY", "2024")]),
    ("What was revenue in fiscal year 2024?", [("FY", "2024")]),
    ("What was revenue in the 2019 fiscal year?", [("FY", "2019")]),
    ("What was revenue in Q3 FY24?", [("QUARTER", "2024Q3")]),
    ("What was revenue in Q3 fiscal 2024?", [("QUARTER", "2024Q3")]),
    ("What was revenue in the third quarter of 2019?", [("QUARTER", "2019Q3")]),
    ("What was revenue in the year ended December 31, 2019?", [("FY", "2019")]),
    ("What was revenue for the fiscal year ended June 30, 2019?", [("FY", "2019")]),
    ("What was revenue for the three months ended September 30, 2019?",
     [("QUARTER", "2019Q3")]),
    ("What was revenue for the three months ended September 28, 2019?",  # 52/53-week year
     [("QUARTER", "2019Q3")]),
    ("What was the change in revenue for the three months ended March 31, 2019 and 2018?",
     [("QUARTER", "2019Q1"), ("QUARTER", "2018Q1")]),
    ("What was revenue for the years ended December 31, 2019 and 2018?",
     [("FY", "2019"), ("FY", "2018")]),
    ("What was revenue in 2019 and 2018?", [("FY", "2019"), ("FY", "2018")]),
    ("2025年上半年营业收入是多少？", [("HY", "2025H1")]),
    ("2025年第三季度营业收入是多少？", [("QUARTER", "2025Q3")]),
    ("截至2019年12月31日止年度的营业收入是多少？", [("FY", "2019")]),
    ("截至2025年6月30日止六个月的营业收入是多少？", [("HY", "2025H1")]),
    # relative phrasings keep working against the reference date
    ("What was revenue in the first half?", [("HY", "2026H1")]),
    ("What was revenue in the first half of last year?", [("HY", "2025H1")]),
    ("去年营业收入是多少？", [("FY", "2025")]),
])
def test_question_periods(question: str, periods: list[tuple[str, str]]) -> None:
    parser = RuleIntentParser(DomainProfile.builtin())
    assert list(parser.parse(question, REF).periods) == periods


@pytest.mark.parametrize("question, periods", [
    ("What was revenue for the nine months ended September 30, 2019?", ()),
    ("What was revenue in the three months ended July 15, 2019?", ()),
    ("What was revenue for the quarter ended July 27, 2019?", ()),
    ("What was the percentage change in revenue between the quarters ended January 26, 2019 "
     "and October 27, 2018?", ()),
    ("What was the change in revenue between the quarters ended January 26, 2019 and "
     "December 29, 2018?", (("QUARTER", "2018Q4"),)),
])
def test_a_span_that_is_no_period_of_ours_is_never_its_year(
        question: str, periods: tuple[tuple[str, str], ...]) -> None:
    parsed = RuleIntentParser(DomainProfile.builtin()).parse(question, REF)
    assert parsed.periods == periods and parsed.unread_period


def test_an_unread_period_asks_back_never_an_assumed_year(demo_agent: Agent) -> None:
    for question in ("What was Group revenue for the quarter ended July 27, 2019?",
                     "What was Group revenue for the nine months ended September 30, 2023?"):
        result = demo_agent.ask(question, reference_date=REF)
        assert result.answer.startswith("Which period do you mean?"), result.answer
        assert result.figures == () and "3,610" not in result.answer
    zh = demo_agent.ask("截至2023年9月30日止九个月集团营收是多少？", reference_date=REF)
    assert "请指明期间" in zh.answer


def test_a_quarter_is_never_a_fiscal_year() -> None:
    parser = RuleIntentParser(DomainProfile.builtin())
    for question in ("Revenue in Q3 FY24?", "Revenue in Q3 2024?", "Revenue in FY24 Q3?",
                     "Revenue in the third quarter of fiscal 2024?", "Revenue in 2024Q3?"):
        assert parser.parse(question, REF).periods == (("QUARTER", "2024Q3"),), question


def test_header_phrases_read_the_same() -> None:
    p = DomainProfile.builtin()
    assert normalize_period(p, "Year Ended December 31, 2019", relative=False) == ("FY", "2019")
    assert normalize_period(p, "Three Months Ended September 30, 2019", relative=False) == \
        ("QUARTER", "2019Q3")
    assert normalize_period(p, "Nine Months Ended September 30, 2019", relative=False) is None
    assert normalize_period(p, "first half", relative=False) is None
    assert normalize_periods(p, "Years ended December 31, 2019 and 2018") == \
        [("FY", "2019"), ("FY", "2018")]
    assert phrase_periods("revenue") is None
    assert ended_period(6, (2025, 3, 31)) is None  # a half ends in June or December


@pytest.fixture(scope="module")
def demo_agent(demo_ws: Path) -> Agent:
    ws = Workspace(demo_ws)
    return Agent(ws.facts, NarrativeIndex(ws.chunks, profile=ws.profile), profile=ws.profile)


def test_the_demo_first_half_question_answers_the_half_year(demo_agent: Agent) -> None:
    """The demo bug: "first half of 2025" read as 2026H1 (not found) and FY2025 (4,760)."""
    for question in ("What was Group revenue in the first half of 2025?",
                     "What was Group revenue for the six months ended June 30, 2025?",
                     "What was Group revenue in H1 2025?"):
        result = demo_agent.ask(question, reference_date=REF)
        assert "2,290" in result.answer, (question, result.answer)
        assert "2026H1" not in result.answer and "4,760" not in result.answer
        assert "slide=6,table=1,row=REVENUE,col=2025H1" in result.answer


@pytest.mark.parametrize("question", [
    "What was Group operating proft in 2024?",
    "What was Group operating proft?",
    "What was Group revnue in 2024?",
    "What was Group revnue?",
    "What was the group's revenu in FY2025?",
])
def test_a_misspelled_metric_asks_back_with_the_closest(demo_agent: Agent, question: str) -> None:
    parsed = demo_agent.parser.parse(question, REF)
    assert parsed.route == ROUTE_STRUCTURED and parsed.metric is None
    result = demo_agent.ask(question, reference_date=REF)
    assert "Closest:" in result.answer, result.answer
    assert ("Operating profit" if "proft" in question else "Revenue") in result.answer
    assert "[1]" not in result.answer  # no narrative passages


def test_narrative_questions_stay_narrative(demo_agent: Agent) -> None:
    for question in ("What was the operating environment like?", "What did the board discuss?"):
        assert demo_agent.parser.parse(question, REF).route == ROUTE_NARRATIVE, question


def test_typo_index() -> None:
    idx = TypoIndex(["revenue", "operating", "profit", "rate", "interest"])
    assert idx.near("revnue") == "revenue" and idx.near("intrest") == "interest"
    assert idx.near("late") is None  # short words are never corrected ("late" is no "rate")
    assert TypoIndex(["prices", "prizes"]).near("prixes") is None  # two as near: no guess
    assert idx.near("profit") is None  # a known word is no misspelling
    assert edit_distance("interst", "interest") == 1 and edit_distance("abc", "xyz", 1) == 2


def test_every_month_pattern_is_built_from_the_one_table() -> None:
    """Issue 37: months are data (ragspine_nb.lexicon); no reader writes the twelve out again."""
    import re
    from pathlib import Path

    from ragspine_nb.lexicon import MONTHS, month_number

    pkg = Path(__file__).resolve().parents[1] / "ragspine_nb"
    written = re.compile(r"jan\|feb\|mar|january\|february|\"january\", \"february\"")
    offenders = [str(p.relative_to(pkg)) for p in pkg.rglob("*.py")
                 if p.name != "lexicon.py" and written.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
    assert [month_number(w) for w in ("Jan.", "sept", "SEPTEMBER", "dec", "mayor", "ju")] == \
        [1, 9, 9, 12, None, None]
    assert len(MONTHS) == 12
