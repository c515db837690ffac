"""Metric names with a qualifier reach the stored line item and say how (issue 36).

"Average inventory in FY2023" is the mean of the year-end balances of FY2022 and FY2023
(a balance sheet's line, ``balance = true`` in the profile), computed from the stored
balances with the derivation; a flow's average over one year is not made up. "Net
income attributable to Norvale" is the owners' line; when the statement states no
separate one and no noncontrolling interest, the plain "Net income" is that line and
the answer says so; when it states a minority's share, nothing is guessed.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import ingest
from ragspine_nb.agent import Agent

REF = date(2024, 6, 1)
BALANCE = (["Norvale Inc.", "Consolidated Balance Sheets", "(In millions)"], [
    ("", "December 31, 2023", "December 31, 2022"),
    ("Cash and cash equivalents", "$ 1,500", "$ 1,200"),
    ("Inventories", "2,600", "2,400"),
    ("Total current assets", "6,000", "5,500"),
    ("Total assets", "15,000", "14,000"),
])
INCOME = (["Norvale Inc.", "Consolidated Statements of Earnings", "(In millions)"], [
    ("Fiscal Year", "2023", "2022"),
    ("Net sales", "$ 20,000", "$ 18,000"),
    ("Cost of sales", "12,000", "11,000"),
    ("Net earnings", "$ 2,000", "$ 1,800"),
])
WITH_MINORITY = (INCOME[0], [*INCOME[1][:-1],
                             ("Net income", "$ 2,100", "$ 1,900"),
                             ("Net income attributable to noncontrolling interests", "100", "100"),
                             ("Net income attributable to Norvale", "$ 2,000", "$ 1,800")])
MINORITY_ONLY = (INCOME[0], [*INCOME[1][:-1],
                             ("Net income", "$ 2,100", "$ 1,900"),
                             ("Net income attributable to noncontrolling interests", "100", "100")])
Page = tuple[list[str], list[tuple[str, ...]]]


def _agent(tmp_path: Path, pages: list[Page]) -> Agent:
    """A one-filing folder (a PDF of statements, one a page) ingested; its agent."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    folder = tmp_path / "docs"
    folder.mkdir()
    c = canvas.Canvas(str(folder / "norvale_2023_10k.pdf"), pagesize=A4, invariant=1)
    for titles, rows in pages:
        c.setFont("Helvetica", 8)
        y = 800
        for title in titles:
            c.drawString(60, y, title)
            y -= 12
        for label, *cells in rows:
            c.drawString(60, y, label)
            for i, cell in enumerate(cells):
                c.drawRightString(420 + 80 * i, y, cell)
            y -= 11
        c.showPage()
    c.save()
    ingest(folder, workspace=tmp_path / "ws", progress=False,
           metadata={"norvale_2023_10k.pdf": {"company": "Norvale"}})
    return Agent.from_workspace(tmp_path / "ws")


@pytest.fixture
def statements(tmp_path: Path) -> Agent:
    agent = _agent(tmp_path, [INCOME, BALANCE])
    yield agent  # type: ignore[misc]
    agent.close()


@pytest.mark.parametrize(("question", "value", "row"), [
    ("What was Norvale's average inventory in FY2023?", 2500.0, "INVENTORIES"),
    ("What were Norvale's average total assets in 2023?", 14500.0, "TOTAL_ASSETS"),
    ("What is Norvale's 2023 average total assets?", 14500.0, "TOTAL_ASSETS"),
])
def test_an_average_balance_is_the_mean_of_two_year_ends(statements: Agent, question: str,
                                                          value: float, row: str) -> None:
    r = statements.ask(question, REF)
    assert [f.value for f in r.figures] == [value], r.answer
    assert r.answer.startswith("(Assuming the average is of the year-end balances of FY2022 "
                               "and FY2023.)")
    assert "Derivation: (" in r.answer
    assert f"row={row},col=FY2022" in r.answer and f"row={row},col=FY2023" in r.answer


def test_an_average_balance_in_chinese(statements: Agent) -> None:
    r = statements.ask("Norvale 2023年平均存货是多少？", REF)
    assert [f.value for f in r.figures] == [2500.0]
    assert r.answer.startswith("（假设：平均数为FY2022与FY2023年末余额的平均）")


def test_no_average_without_the_opening_balance(statements: Agent) -> None:
    r = statements.ask("What was Norvale's average inventory in FY2022?", REF)
    assert r.figures == ()
    assert "FY2021 is not in the fact store" in r.answer


def test_a_flow_has_no_average_of_one_year(statements: Agent) -> None:
    """A benign look-alike: revenue is no balance; one year's average is not made up."""
    r = statements.ask("What was Norvale's average revenue in FY2023?", REF)
    assert r.figures == () and "not computed" in r.answer


@pytest.mark.parametrize("question", [
    "What was Norvale's net income attributable to Norvale in FY2023?",
    "What was Norvale's net income attributable to shareholders in FY2023?",
])
def test_the_plain_line_when_no_separate_owners_line(statements: Agent, question: str) -> None:
    r = statements.ask(question, REF)
    assert [f.value for f in r.figures] == [2000.0], r.answer
    assert r.answer.startswith("(No separate line states Net income attributable to "
                               "shareholders of the parent, and no noncontrolling interest "
                               "is stated: the statement's Net income is shown.)")
    assert "row=NET_INCOME,col=FY2023" in r.answer


def test_the_owners_line_when_stated(tmp_path: Path) -> None:
    agent = _agent(tmp_path, [WITH_MINORITY])
    try:
        en = agent.ask("What was Norvale's net income attributable to Norvale in FY2023?", REF)
        zh = agent.ask("Norvale 2023年归属于Norvale的净利润是多少？", REF)
        plain = agent.ask("What was Norvale's net income in FY2023?", REF)
    finally:
        agent.close()
    assert [f.value for f in en.figures] == [2000.0], en.answer
    assert "row=NET_INCOME_PARENT,col=FY2023" in en.answer
    assert [f.value for f in zh.figures] == [2000.0], zh.answer
    assert [f.value for f in plain.figures] == [2100.0], plain.answer


def test_no_owners_figure_when_a_minority_share_is_stated(tmp_path: Path) -> None:
    """Net income includes the minority's 100 here: never given as the owners' line."""
    agent = _agent(tmp_path, [MINORITY_ONLY])
    try:
        r = agent.ask("What was Norvale's net income attributable to Norvale in FY2023?", REF)
    finally:
        agent.close()
    assert r.figures == (), r.answer
    assert "2,100" not in r.answer


def test_the_balance_flag_is_read_checked_and_kept() -> None:
    from ragspine_nb.errors import ProfileError
    from ragspine_nb.profile import DomainProfile

    builtin = DomainProfile.builtin()
    assert builtin.metrics["INVENTORIES"].balance and not builtin.metrics["REVENUE"].balance
    again = DomainProfile.from_dict(builtin.to_dict())
    assert again.metrics["TOTAL_ASSETS"].balance and not again.metrics["NET_INCOME"].balance
    data = builtin.to_dict()
    data["metrics"]["INVENTORIES"]["balance"] = "yes"
    with pytest.raises(ProfileError, match="balance must be true or false"):
        DomainProfile.from_dict(data)
