"""A line item a reconciliation repeats with its sign word ("Add: Interest expense") is one row.

Amcor's 10-K states interest expense on its income statement ("Interest expense (159)")
and twice more in its EBIT reconciliation ("Add: Interest expense 159", "Less: Interest
expense (159)"). "What was Amcor's interest expense in FY2022?" named all three and asked
back which was meant: a choice that changes no figure. Rows whose labels differ only by a
sign word, stating the same amounts in every period they share, are one line item: the
unsigned row is answered and the answer says the others agree. Amounts that differ
anywhere are still asked back. Each test fails on the code before the rule (an ask-back).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from ragspine_nb import ingest
from ragspine_nb.agent import Agent
from tests.filings import dev_filing_workspace

REF = date(2024, 1, 1)
STATEMENT = """(in millions),2022,2023
Net sales,"14,544","14,694"
Interest expense,(159),(290)
Net income,815,"1,058"
"""
RECONCILIATION = """(in millions),2022,2023
Net income,815,"1,058"
Add: Interest expense,159,290
EBIT,"1,250","1,510"
Less: Interest expense,(159),(290)
"""


def _agent(tmp_path: Path, reconciliation: str) -> Agent:
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "zentra_income.csv").write_text(STATEMENT, encoding="utf-8")
    (folder / "zentra_ebit.csv").write_text(reconciliation, encoding="utf-8")
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    return Agent.from_workspace(tmp_path / "ws")


def test_the_unsigned_row_is_answered_and_the_others_said(tmp_path: Path) -> None:
    result = _agent(tmp_path, RECONCILIATION).ask("What was interest expense in FY2022?",
                                                  reference_date=REF)
    assert [f.value for f in result.figures] == [-159.0]
    assert "zentra_income.csv · cell=B3" in result.answer
    assert result.answer.startswith(
        "(Interest expense and Add: Interest expense and Less: Interest expense state the "
        "same figures, sign apart: Interest expense is answered.)")


def test_a_signed_row_stating_another_amount_is_asked_about(tmp_path: Path) -> None:
    other = RECONCILIATION.replace("Add: Interest expense,159,290",
                                   "Add: Interest expense,160,290")
    result = _agent(tmp_path, other).ask("What was interest expense in FY2022?",
                                         reference_date=REF)
    assert result.figures == ()
    assert result.answer.startswith("Which of these do you mean")


def test_amcors_interest_expense_is_its_income_statements(tmp_path: Path) -> None:
    agent = Agent.from_workspace(dev_filing_workspace(tmp_path, "AMCOR_2023_10K.pdf"))
    result = agent.ask("What was Amcor's interest expense in FY2022?", reference_date=REF)
    assert [abs(f.value) for f in result.figures] == [159.0]
    assert "row=INTEREST_EXPENSE,col=FY2022" in result.answer
