"""Which cash flow brought in the most (or lost the least): lists with shared words, signed.

A question comparing the three cash flows of a statement (issue 36, FinanceBench's Best
Buy question) names them as one list with shared words — "operating, investing and
financing cash flow", "net cash from operating activities, investing activities and
financing activities" — and asks for the highest *signed* value ("brought in the most
(or lost the least)"). Each item names its row with the words it shares; a loss named
beside the extreme says a loss is below any gain, so negative values are compared as
they are (without it a negative value is still refused: a larger loss, or a lower
value?). Through the user's path: a PDF statement, ``ingest``, ``Agent.ask``.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from ragspine_nb import ingest
from ragspine_nb.agent import Agent
from ragspine_nb.agent.reading.coordination import shared_words
from ragspine_nb.agent.reading.operation_cues import signed_extreme

REF = date(2024, 6, 1)
CASH_FLOWS = [
    ("Fiscal Year", "2023", "2022"),
    ("Net earnings", "$ 1,400", "$ 2,500"),
    ("Net cash provided by operating activities", "1,824", "3,252"),
    ("Capital expenditures", "(930)", "(737)"),
    ("Net cash used in investing activities", "(962)", "(1,372)"),
    ("Repurchase of common stock", "(1,014)", "(3,502)"),
    ("Net cash used in financing activities", "(1,806)", "(4,297)"),
    ("Cash and cash equivalents at end of year", "1,874", "2,936"),
]


def _page(c: Any, titles: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    """One PDF page: the titles, then the rows with their cells right-aligned in columns."""
    c.setFont("Helvetica", 8)
    y = 800
    for title in titles:
        c.drawString(60, y, title)
        y -= 12
    for label, *cells in rows:
        c.drawString(60, y, label)
        for i, cell in enumerate(cells):
            c.drawRightString(400 + 80 * i, y, cell)
        y -= 11
    c.showPage()


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    tmp = tmp_path_factory.mktemp("signed")
    folder = tmp / "docs"
    folder.mkdir()
    c = canvas.Canvas(str(folder / "halvard_2023_10k.pdf"), pagesize=A4, invariant=1)
    _page(c, ("Halvard Inc.", "Consolidated Statements of Cash Flows", "($ in millions)"),
          CASH_FLOWS)
    # another table names a row "Operations": the list's "operations" is no such row
    _page(c, ("Halvard Inc.", "Employees by function", "(number of employees)"),
          [("Fiscal Year", "2023", "2022"), ("Operations", "1,210", "1,150"),
           ("Corporate", "310", "290"), ("Total employees", "1,520", "1,440")])
    # and a row named "Cash": "cash flow" after the list is no such row either
    _page(c, ("Halvard Inc.", "Liquidity", "($ in millions)"),
          [("Fiscal Year", "2023", "2022"), ("Cash", "1,874", "2,936"),
           ("Short-term investments", "50", "40")])
    c.save()
    ingest(folder, workspace=tmp / "ws", progress=False,
           metadata={"halvard_2023_10k.pdf": {"company": "Halvard"}})
    return tmp / "ws"


@pytest.mark.parametrize("question", [
    # FinanceBench's wording: "operations" before the shared "activities" is "operating"
    "Among operations, investing, and financing activities, which brought in the most (or "
    "lost the least) cash flow for Halvard in FY2023?",
    "Of net cash from operating activities, investing activities and financing activities, "
    "which brought in the most (or lost the least) in FY2023?",
    "Which of operating, investing and financing cash flow brought in the most (or lost the "
    "least) for Halvard in FY2023?",
    "Which of operating, investing and financing cash flow was the least negative in FY2023?",
    # no list: "cash flow activity" names the three (the built-in profile's parts of it)
    "Which cash flow activity brought in the most (or lost the least) cash flow for Halvard in "
    "FY2023?",
])
def test_the_signed_highest_of_a_shared_words_list(workspace: Path, question: str) -> None:
    agent = Agent.from_workspace(workspace)
    answer = agent.ask(question, REF).answer
    agent.close()
    assert "Net cash from operating activities: the highest of the 3 compared" in answer
    for figure in ("1,824 million", "-962 million", "-1,806 million"):
        assert figure in answer


def test_cash_flow_is_no_cash_balance(workspace: Path) -> None:
    agent = Agent.from_workspace(workspace)
    answer = agent.ask("What was Halvard's cash flow in FY2023?", REF).answer
    agent.close()
    assert answer.startswith("Which metric do you mean?")
    assert "1,874" not in answer


def test_cash_flow_activities_asked_as_a_figure_are_its_three_parts(workspace: Path) -> None:
    # no table states "cash flow activities": the three flows it groups answer, each cited
    agent = Agent.from_workspace(workspace)
    result = agent.ask("What were Halvard's cash flow activities in FY2022?", REF)
    agent.close()
    for label, figure in (("operating", "3,252"), ("investing", "-1,372"),
                          ("financing", "-4,297")):
        assert f"Net cash from {label} activities, FY2022: {figure} million (source: " \
            "halvard_2023_10k.pdf · page=1,table=1" in result.answer
    assert "not in the fact store" not in result.answer


def test_a_loss_lost_the_most_is_the_lowest_and_plain_highest_still_asks(
        workspace: Path) -> None:
    agent = Agent.from_workspace(workspace)
    lost, plain, values = (agent.ask(q, REF).answer for q in (
        "Which of investing and financing cash flow lost the most in FY2022?",
        "Which of operating, investing and financing cash flow was the highest in FY2023?",
        "What were operating, investing and financing cash flow in FY2022?"))
    agent.close()
    assert "Net cash from financing activities: the lowest of the 2 compared" in lost
    # "highest" of values some negative: the value, or the size of a loss? not said
    assert "some values are negative (1,824, -962, -1,806)" in plain
    for figure in ("3,252 million", "-1,372 million", "-4,297 million"):
        assert figure in values


@pytest.mark.parametrize(("text", "expected"), [
    ("which brought in the most (or lost the least) cash?", "max"),
    ("which segment lost the most?", "min"),
    ("the least negative of them", "max"),
    ("which used the most cash?", "min"),
    # the rest of the question names the other way: no reading
    ("which brought in the least (or lost the least)?", None),
    ("which segment had the highest revenue?", None),
])
def test_signed_extreme_words(text: str, expected: str | None) -> None:
    assert signed_extreme(text) == expected


def test_a_list_without_shared_words_is_each_name_as_written() -> None:
    # every reading is offered; the row reader keeps one only if each item is a name
    readings = [[d.leads[-1] for d in g] for g in shared_words("revenue and operating income")]
    assert ["revenue income", "operating income"] in readings
    # an action noun before the shared head reads as its -ing form too
    (first, *_), *_ = shared_words("among operations, investing, and financing activities")
    assert first.leads == ("among operations activities", "operations activities",
                           "among operating activities", "operating activities")
    assert shared_words("revenue in 2023") == []


INTANGIBLES = [
    ["(in millions)", "", "2019", "2018"],
    ["Finite-lived intangible assets:", "", "", ""],
    ["Customer relationships", "", "950.0", "990.0"],
    ["Underlying rights and other", "", "14.5", "15.0"],
    ["Total finite-lived intangible assets", "", "964.5", "1,005.0"],
    ["Indefinite-lived intangible assets:", "", "", ""],
    ["Trade names", "", "1,100.0", "1,100.0"],
    ["Underlying rights and other", "", "1.9", "2.0"],
    ["Total indefinite-lived intangible assets", "", "1,101.9", "1,102.0"],
]


def test_a_list_saying_which_of_a_row_is_not_the_rows_asked(tmp_path: Path) -> None:
    from tests.tablehelpers import TATQA_REFERENCE, tatqa_agent

    agent = tatqa_agent(tmp_path, INTANGIBLES)
    r = agent.ask("What is the total underlying rights and other for both finite-lived and "
                  "indefinite-lived intangible assets in 2019?", TATQA_REFERENCE)
    # the list qualifies the row named before it: never the two sections' totals
    assert not {f.value for f in r.figures} & {964.5, 1101.9}
    both = agent.ask("What were finite-lived and indefinite-lived intangible assets in 2019?",
                     TATQA_REFERENCE)
    assert sorted(f.value for f in both.figures) == [964.5, 1101.9]


def test_the_measure_after_a_list_names_no_row_of_its_own() -> None:
    # a folder of 10-Ks holds a table row named just "Cash": "... brought in the most
    # cash flow" after the list is what each item measures, not that row
    from dataclasses import replace

    from ragspine_nb.agent.reading.intent_rows import RowReader
    from ragspine_nb.profile import DomainProfile, MetricSpec

    builtin = DomainProfile.builtin()
    metrics = {**builtin.metrics, "CASH_2": MetricSpec(code="CASH_2", unit="", label="Cash"),
               "OPERATIONS": MetricSpec(code="OPERATIONS", unit="", label="Operations")}
    reader = RowReader(replace(builtin, metrics=metrics))
    text = ("among operations, investing, and financing activities, which brought in the most "
            "(or lost the least) cash flow in fy2023?")
    assert [h[2] for h in reader.phrases(text)] == [
        "OPERATING_CASH_FLOW", "INVESTING_CASH_FLOW", "FINANCING_CASH_FLOW"]
