"""Issue 15 item 4: what a question asks for — a number, a label (a year, an item) or text.

A question asking for text or a label never gets a table figure as its headline; only a
number question may. Classification tables in English and Chinese, then the agent on a
table ingested with no profile: text and label questions assert no figure.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent
from ragspine_nb.agent.reading.question_kind import (
    KIND_LABEL,
    KIND_NUMBER,
    KIND_TEXT,
    TARGET_ITEM,
    TARGET_PERIOD,
    QuestionKind,
    question_kind,
)
from ragspine_nb.ingestion.workspace import ingest

NUMBER = [
    "What was revenue in 2019?",
    "What is the average net income for 2018 and 2019?",
    "How many years did net sales exceed $200,000 thousand?",
    "What is the percentage change in revenue from 2018 to 2019?",
    "How much of the increase was due to higher prices?",
    "What is the ratio of inventory reserves to accrued compensation in 2018?",
    "What percentage of total revenue was from services in 2019?",
    "What was the amount of accrued interest as of December 31, 2019?",
    "香港2024年营业收入是多少？",
    "2025年香港营业收入占集团营业收入的比例是多少？",
    "营运利润是多少？",
]
TEXT = [
    "Why did the valuation allowance increase in fiscal 2019?",
    "How is the discount rate for domestic plans determined?",
    "How are the realized and unrealized losses recognized?",
    "How does the company estimate the fair value of its stock options?",
    "What does software and other revenue comprise of?",
    "What does ship management creditors consist of?",
    "What is included in Service delivery costs?",
    "What were the components making up current assets?",
    "What are the segments of revenue?",
    "What caused the increase in interest expense in 2019?",
    "What led to the decrease in other income in 2018?",
    "Where should one look for additional information on borrowings?",
    "When does the company record an accrued receivable?",
    "What was the increase in free cash flow from 2018 to 2019 driven by?",
    "Is the defined benefit plan open to new members?",
    "What is the company's main cost of revenue?",
    "What do stock-based compensation expense result from?",
    "为什么内地2025年营运利润下降？",
    "营业收入是如何确定的？",
    "流动资产包括哪些项目？",
]
LABEL_PERIOD = [
    "In which year is the amount of total sales the largest?",
    "Which FY has a higher EBITDA?",
    "In which years was the total equity calculated?",
    "Between 2018 and 2019, which year has higher amounts owed by subsidiaries?",
    "In which year was net income less than 100.0 million?",
    "Which years does the table provide information for revenue by type?",
    "When was revenue the highest?",
    "哪一年的营业收入更高？",
    "香港营业收入在哪个年度最低？",
]
LABEL_ITEM = [
    "In which business segment was the net balance the largest?",
    "Which contractual obligation has the highest total value?",
    "哪个分部的营业收入最高？",
]


@pytest.mark.parametrize("question", NUMBER)
def test_number_questions(question: str) -> None:
    assert question_kind(question).kind == KIND_NUMBER


@pytest.mark.parametrize("question", TEXT)
def test_text_questions(question: str) -> None:
    assert question_kind(question).kind == KIND_TEXT


@pytest.mark.parametrize("question", LABEL_PERIOD)
def test_which_period_questions_are_labels(question: str) -> None:
    kind = question_kind(question)
    assert (kind.kind, kind.target) == (KIND_LABEL, TARGET_PERIOD)


@pytest.mark.parametrize("question", LABEL_ITEM)
def test_which_item_questions_are_labels(question: str) -> None:
    kind = question_kind(question)
    assert (kind.kind, kind.target) == (KIND_LABEL, TARGET_ITEM)


def test_the_cue_says_what_decided() -> None:
    assert question_kind("In which year was revenue higher?") == QuestionKind(
        KIND_LABEL, TARGET_PERIOD, "in which year")
    assert question_kind("Why did revenue fall?").cue == "why"
    with pytest.raises(ValueError, match="Valid: \\['number', 'label', 'text'\\]"):
        QuestionKind("amount")


TABLE = """\
"(In thousands, except per share data)",,,
,2019,2018,2017
Revenue,"1,500","1,200","1,100"
Cost of sales,900,800,700
"""
NOTES = ("Revenue is recognized when control of the goods passes to the customer.\n\n"
         "Revenue increased in 2019 due to higher volumes in all regions.\n")


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Agent:
    root = tmp_path_factory.mktemp("kind")
    files = root / "files"
    files.mkdir()
    (files / "table.csv").write_text(TABLE, encoding="utf-8")
    (files / "notes.md").write_text(NOTES, encoding="utf-8")
    ingest(files, workspace=root / "ws", profile=None, metadata=None, progress=False)
    return Agent.from_workspace(Path(root / "ws"))


REF = date(2020, 1, 1)


@pytest.mark.parametrize("question", [
    "How is revenue recognized?",
    "Why did revenue increase in 2019?",
    "What does revenue consist of?",
])
def test_a_text_question_on_a_table_row_asserts_no_figure(agent: Agent, question: str) -> None:
    # before: the row's 2019 level was the headline figure (figure on a text question)
    r = agent.ask(question, REF)
    assert r.figures == ()


def test_a_why_question_shows_the_cells_it_names_as_context(agent: Agent) -> None:
    r = agent.ask("Why did revenue increase in 2019?", REF)
    assert r.figures == ()
    assert r.answer.startswith("Figures in question (context, not the answer):\n"
                               "the company Revenue, FY2019: 1,500 thousand (source: table.csv · "
                               "cell=B3)")


def test_a_which_year_question_names_the_winner_as_text(agent: Agent) -> None:
    # before: the 2019 level (1,500) was asserted as the answer to "which year"
    r = agent.ask("In which year was revenue the highest?", REF)
    assert r.figures == ()
    assert r.answer.startswith("FY2019: the company Revenue is the highest of the 3 "
                               "compared.\nCompared (inputs, not the answer):\n")
    assert "- the company Revenue, FY2017: 1,100 thousand (source: table.csv · cell=D3)" in r.answer
