"""An amount of money on a statement is never a share count (issue 36, defect M9).

Best Buy's income statement is headed "$ and shares in millions, except per share
amounts": the header says how money *and* share counts are scaled, not that its rows
are share counts. Gross profit was filed as ``shares_M`` (Revenue, whose cells carry a
"$", as ``M``), and "What was Best Buy's gross margin in fiscal 2023?" was refused as
"different units (shares_M, M)". The rows that count shares name themselves
("Weighted-average common shares outstanding:" over "Basic" / "Diluted").
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import FactStore, ingest
from ragspine_nb.agent import Agent
from ragspine_nb.extract.beir import data_root

STATEMENT = [
    ("Revenue", "$ 46,298", "$ 51,761"),
    ("Cost of sales", "36,386", "40,121"),
    ("Gross profit", "9,912", "11,640"),
    ("Selling, general and administrative expenses", "7,970", "8,635"),
    ("Operating income", "1,795", "3,039"),
    ("Net earnings", "$ 1,419", "$ 2,454"),
    ("Basic earnings per share", "$ 6.31", "$ 9.94"),
    ("Weighted-average common shares outstanding:", "", ""),
    ("Basic", "224.8", "246.8"),
    ("Diluted", "225.7", "249.3"),
]


def _statement_pdf(path: Path, heading: str) -> Path:
    """One page: a statement of earnings whose column headers state the scale."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setFont("Helvetica", 8)
    y = 800
    c.drawString(60, y, "Consolidated Statements of Earnings")
    y -= 14
    c.drawString(60, y, heading)
    y -= 11
    c.drawString(60, y, "Fiscal Years Ended")
    c.drawRightString(420, y, "January 28, 2023")
    c.drawRightString(500, y, "January 29, 2022")
    y -= 11
    for label, a, b in STATEMENT:
        c.drawString(60, y, label)
        c.drawRightString(420, y, a)
        c.drawRightString(500, y, b)
        y -= 11
    c.showPage()
    c.save()
    return path


def _units(ws: Path) -> dict[str, set[str]]:
    frame = FactStore(ws / "facts.db", create=False).to_frame()
    return {m: set(frame[frame.metric_code == m].unit) for m in set(frame.metric_code)}


@pytest.mark.parametrize("heading", [
    "($ and shares in millions, except per share amounts)",
    "(Dollars in millions, shares in millions, except per share data)",
    "(in millions of dollars and shares, except per share amounts)",
])
def test_a_heading_scaling_money_and_shares_files_amounts_as_money(tmp_path: Path,
                                                                   heading: str) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    _statement_pdf(folder / "earnings.pdf", heading)
    ingest(folder, workspace=tmp_path / "ws", progress=False,
           metadata={"earnings.pdf": {"company": "Norvale"}})
    units = _units(tmp_path / "ws")
    for metric in ("REVENUE", "COST_OF_REVENUE", "GROSS_PROFIT", "OPERATING_INCOME",
                   "NET_INCOME", "SGA_EXPENSES"):
        assert not any(u.startswith("shares") for u in units[metric]), (metric, units[metric])
    assert units["GROSS_PROFIT"] == units["REVENUE"]
    share_counts = {u for m, us in units.items() for u in us if u.startswith("shares")}
    assert share_counts == {"shares_M"}  # the basic and diluted share counts still are


def test_a_heading_scaling_shares_alone_keeps_share_counts(tmp_path: Path) -> None:
    """A benign look-alike: "Shares (in thousands)" over an options roll-forward."""
    from ragspine_nb.extract.scale import kind_words, row_kind

    assert row_kind("Granted", kind_words("Shares (in thousands)")) == "shares"
    assert row_kind("Granted", kind_words("$ and shares in thousands")) == "amount"


@pytest.fixture(scope="module")
def bestbuy_ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pdf = data_root() / "financebench" / "pdfs" / "BESTBUY_2023_10K.pdf"
    if not pdf.is_file():
        pytest.skip(f"{pdf} not found (set RAGSPINE_DATA)")
    base = tmp_path_factory.mktemp("bestbuy")
    (base / "docs").mkdir()
    (base / "docs" / pdf.name).write_bytes(pdf.read_bytes())
    ingest(base / "docs", workspace=base / "ws", progress=False,
           metadata={pdf.name: {"company": "Best Buy"}})  # as eval financebench does
    return base / "ws"


def test_best_buy_income_statement_amounts_are_money(bestbuy_ws: Path) -> None:
    frame = FactStore(bestbuy_ws / "facts.db", create=False).to_frame()
    statement = frame[frame.source_locator.str.startswith("page=40,table=1,")]
    gross = statement[statement.metric_code == "GROSS_PROFIT"]
    assert sorted(zip(gross.period, gross.value, gross.unit, strict=True)) == [
        ("2021", 10573.0, "M"), ("2022", 11640.0, "M"), ("2023", 9912.0, "M")]
    shares = set(statement[statement.unit.str.startswith("shares")].metric_code)
    assert shares == {"BASIC", "DILUTED"}  # weighted-average shares outstanding


def test_best_buy_gross_margin(bestbuy_ws: Path) -> None:
    agent = Agent.from_workspace(bestbuy_ws)
    try:
        r = agent.ask("What was Best Buy's gross margin in fiscal 2023?", date(2024, 1, 1))
    finally:
        agent.close()
    assert [round(f.value, 1) for f in r.figures] == [21.4], r.answer  # 9,912 / 46,298
    assert "9,912" in r.answer and "46,298" in r.answer
