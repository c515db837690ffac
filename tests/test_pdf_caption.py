"""A statement's scale caption is read above a header stacked over many lines.

Netflix's 2019 10-K titles its equity statement "CONSOLIDATED STATEMENTS OF
STOCKHOLDERS' EQUITY" / "(in thousands, except share data)", then draws its column
heads over four lines ("Accumulated" / "Other" / "Comprehensive" / "Income (Loss)"). The
table's titles were those head fragments, its amounts read with no scale: 87 figures of
the statement (equity balances, net income, stock-based compensation) were stored as
plain numbers, against the 2017 10-K's same figures in thousands.
"""

from __future__ import annotations

from pathlib import Path

from ragspine_nb.extract.pdf import _with_caption
from ragspine_nb.extract.pdf_layout import Cell, Line
from ragspine_nb.extract.pdf_tables import PdfTable
from tests.filings import dev_filing_workspace, page_facts


def _line(y: float, *texts: str) -> Line:
    return Line(tuple(Cell(t, 60.0 + 120 * k, 100.0 + 120 * k) for k, t in enumerate(texts)), y)


_PAGE = [_line(724.3, "CONSOLIDATED STATEMENTS OF STOCKHOLDERS' EQUITY"),
         _line(714.0, "(in thousands, except share data)"),
         _line(687.7, "Accumulated"), _line(679.7, "Other"), _line(671.5, "Comprehensive"),
         _line(663.4, "Income (Loss)"), _line(649.3, "Shares", "Amount", "Total"),
         _line(636.4, "Balances as of December 31, 2016", "430,054,212", "$ 1,599,762")]


def test_the_caption_above_a_stacked_header_is_a_title() -> None:
    table = PdfTable(("Income (Loss)", "Comprehensive", "Other"), (_PAGE[6],), (_PAGE[7],))
    assert _with_caption(table, _PAGE) == (
        "Income (Loss)", "Comprehensive", "Other", "(in thousands, except share data)")


def test_a_caption_is_not_taken_across_another_tables_rows() -> None:
    page = [_PAGE[1], _line(700.0, "Revenue", "1,200", "1,100"), *_PAGE[2:]]
    table = PdfTable(("Income (Loss)",), (_PAGE[6],), (_PAGE[7],))
    assert _with_caption(table, page) == ("Income (Loss)",)


def test_titles_stating_a_scale_are_kept_as_they_are() -> None:
    table = PdfTable(("(Millions)",), (_PAGE[6],), (_PAGE[7],))
    assert _with_caption(table, _PAGE) == ("(Millions)",)


def test_netflix_equity_statement_is_in_thousands(tmp_path: Path) -> None:
    ws = dev_filing_workspace(tmp_path, "NETFLIX_2019_10K.pdf")
    facts = page_facts(ws, "page=47,table=1,")
    assert facts[("BALANCES", "C_TOTAL_STOCKHOLDERS_EQUITY", "2016")] == (2679800.0, "K")
    assert facts[("BALANCES", "C_SHARES", "2016")] == (430054212.0, "shares")
    amounts = {unit for (_, channel, _), (_, unit) in facts.items() if channel != "C_SHARES"}
    assert amounts == {"K"}
