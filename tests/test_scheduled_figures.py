"""A report's figures for years after its own are scheduled, never those years' levels.

NIKE's 2021 10-K lists its contractual obligations by the fiscal year they fall due
("Cash Payments Due During the Year Ending May 31, 2022 … 2026"). Each cell was also
filed as that year's plain figure, so "What was Nike's long-term debt in fiscal 2022?"
answered 286 million — the debt due in 2022, not the 9.4 billion of debt — and in a
folder the 2018 and 2019 10-Ks' schedules contradicted the later 10-Ks' balance sheets.
A figure of a fiscal year after the one the document reports is filed as ``scheduled``
(:mod:`ragspine_nb.extract.scheduled`): asked for as scheduled or due, it is answered;
asked as a level, it is not there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine_nb import FactStore
from ragspine_nb.agent import Agent
from ragspine_nb.core import Fact
from ragspine_nb.extract.scheduled import SCHEDULED, last_reported_year, scheduled_facts
from tests.filings import dev_filing_workspace, tables_agent


def _fact(channel: str, period: str, value: float, period_type: str = "FY") -> Fact:
    return Fact("LONG_TERM_DEBT", "ACME", "UNSPECIFIED", channel, period_type, period, value,
                "M", "report.pdf", f"page=4,table=1,row=LONG_TERM_DEBT,col={period}")


@pytest.mark.parametrize(("period", "year_end", "last"), [
    (("FY", "2021"), "2021-05-31", 2021),
    (("FY", "2022"), "2023-01-28", 2023),  # a fiscal year ending in January
    (("FY", "2021"), "", 2021),
    (("FY", "2021"), "05-31", 2021),  # an end without its year
    (("QUARTER", "2023Q2"), "2023-06-30", None),
    (("HY", "2025H1"), "", None),
    (None, "2021-12-31", None),
])
def test_the_last_year_a_document_reports(period: tuple[str, str] | None, year_end: str,
                                          last: int | None) -> None:
    assert last_reported_year(period, year_end) == last


def test_later_plain_figures_are_scheduled_and_nothing_else_moves() -> None:
    read = [_fact("TOTAL", "2021", 9413.0), _fact("TOTAL", "2022", 286.0),
            _fact("C_CASH_PAYMENTS_DUE_DURING", "2022", 286.0), _fact("TOTAL", "2020", 9406.0),
            _fact("TOTAL", "2022Q1", 5.0, "QUARTER")]
    kept, moved = scheduled_facts(read, ("FY", "2021"), "2021-05-31")
    assert moved == 1
    assert [(f.channel, f.period) for f in kept] == [
        ("TOTAL", "2021"), (SCHEDULED, "2022"), ("C_CASH_PAYMENTS_DUE_DURING", "2022"),
        ("TOTAL", "2020"), ("TOTAL", "2022Q1")]
    assert kept[1].source_locator == read[1].source_locator  # the same cell is cited
    assert scheduled_facts(read, None, "") == (read, 0)
    # Foot Locker's fiscal 2022 ends January 28, 2023: its 2023 column is its own year
    assert scheduled_facts(read, ("FY", "2022"), "2023-01-28")[1] == 0


_FOLDER = {
    "ACME_FY2021_balance_sheet.csv": "(in millions),2021,2020\nLong-term debt,9413,9406\n",
    "ACME_FY2021_obligations.csv": ("Contractual obligations (in millions),2022,2023,2024\n"
                                    "Long-term debt,286,786,275\n"
                                    "Operating leases,534,530,490\n"),
}


def test_a_level_of_a_later_year_is_not_answered_with_a_payment_due(tmp_path: Path) -> None:
    agent = tables_agent(tmp_path, _FOLDER)
    level = agent.ask("What was long-term debt in 2022?")
    assert "286" not in level.answer and not level.figures
    assert "not in the fact store" in level.answer
    change = agent.ask("What was the change in long-term debt from 2021 to 2022?")
    assert not change.figures and "-9,127" not in change.answer
    assert "9,413" in agent.ask("What was long-term debt in 2021?").answer


@pytest.mark.parametrize(("question", "value"), [
    ("How much long-term debt is due in 2022?", 286.0),
    ("What is the scheduled long-term debt in 2023?", 786.0),
    ("What are the operating leases due in 2023 and 2024 in total?", 1020.0),
])
def test_a_scheduled_figure_is_answered_as_scheduled(tmp_path: Path, question: str,
                                                     value: float) -> None:
    result = tables_agent(tmp_path, _FOLDER).ask(question)
    assert [f.value for f in result.figures] == [value]
    assert "(scheduled)" in result.answer
    assert "ACME_FY2021_obligations.csv" in result.answer


def test_nikes_obligations_are_scheduled_in_its_own_10k(tmp_path: Path) -> None:
    ws = dev_filing_workspace(tmp_path, "NIKE_2021_10K.pdf")
    store = FactStore(ws / "facts.db")
    rows = {(f.channel, f.period): f.value for f in store.iter_facts(metric_code="LONG_TERM_DEBT")
            if f.source_locator.startswith("page=48,table=1")}
    store.close()
    assert rows[(SCHEDULED, "2022")] == 286.0
    assert ("TOTAL", "2022") not in rows
    agent = Agent.from_workspace(ws)
    level = agent.ask("What was Nike's long-term debt in fiscal 2022?")
    assert "286" not in level.answer and not level.figures
    assert "9,413" in agent.ask("What was Nike's long-term debt in fiscal 2021?").answer
    due = agent.ask("How much long-term debt is due in fiscal 2024?")
    assert [f.value for f in due.figures] == [275.0]
