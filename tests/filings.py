"""Small PDF filings made for tests: a 10-K cover page, prose, an income statement."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from ragspine_nb import FactStore, ingest
from ragspine_nb.agent import Agent
from ragspine_nb.extract.beir import data_root

__all__ = ["filing", "with_orvale_row", "cover_page", "dev_filing_workspace", "page_values",
           "page_facts", "tables_agent"]


def cover_page(c: Any, name: str, year: int, registrant: str) -> None:
    """A 10-K cover page drawn on the reportlab canvas ``c``, then the page ended."""
    y = 800
    for line in ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "FORM 10-K",
                 f"For the fiscal year ended December 31, {year}",
                 f"Commission file number {registrant}", name,
                 "(Exact name of registrant as specified in its charter)"):
        c.drawString(60, y, line)
        y -= 16
    c.showPage()


def dev_filing_workspace(tmp_path: Path, *names: str) -> Path:
    """FinanceBench dev filings (``names``) ingested as one folder: its workspace.

    Skipped where the datasets are not found (``RAGSPINE_DATA``).
    """
    pdfs = [data_root() / "financebench" / "pdfs" / name for name in names]
    if not all(pdf.is_file() for pdf in pdfs):
        pytest.skip("FinanceBench filings not found (set RAGSPINE_DATA)")
    folder = tmp_path / "reports"
    folder.mkdir()
    for pdf in pdfs:
        shutil.copy(pdf, folder / pdf.name)
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    return tmp_path / "ws"


def tables_agent(root: Path, tables: dict[str, str]) -> Agent:
    """The agent of a folder of CSV ``tables`` (file name → text) ingested under ``root``."""
    (root / "reports").mkdir()
    for name, text in tables.items():
        (root / "reports" / name).write_text(text, encoding="utf-8")
    ingest(root / "reports", workspace=root / "ws", progress=False)
    return Agent.from_workspace(root / "ws")


def filing(path: Path, name: str, year: int, rows: list[tuple[str, str, str]],
            prose: list[str], unit: str = "(in millions)", cover: bool = True,
            registrant: str = "") -> Path:
    """A two-page PDF filing: a 10-K cover page, then prose and an income statement.

    Each company has its own commission file number (as every SEC filer does), unless
    ``registrant`` gives one.
    """
    registrant = registrant or f"1-{sum(map(ord, name)) % 9000 + 1000}"
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    if cover:
        cover_page(c, name, year, registrant)
    else:
        c.drawString(60, 800, "Annual review")
        c.showPage()
    y = 800
    for line in prose:
        c.drawString(60, y, line)
        y -= 16
    y -= 20
    c.drawString(60, y, f"Consolidated Statement of Income {unit}".strip())
    y -= 20
    c.drawString(300, y, str(year))
    c.drawString(400, y, str(year - 1))
    y -= 16
    for label, a, b in rows:
        c.drawString(60, y, label)
        c.drawRightString(340, y, a)
        c.drawRightString(440, y, b)
        y -= 16
    c.showPage()
    c.save()
    return path


def with_orvale_row(tmp_path: Path, label: str) -> Agent:
    """Zentra's filing (inventories, net sales) beside Orvale's with a row of its own."""
    folder = tmp_path / "reports"
    folder.mkdir()
    filing(folder / "zentra_report.pdf", "ZENTRA CORPORATION", 2023,
           [("Inventories", "410", "380"), ("Net sales", "1,200", "1,000")], ["Sales grew."])
    filing(folder / "orvale_report.pdf", "ORVALE INC.", 2023,
           [(label, "52", "50"), ("Net sales", "5,300", "5,900")], ["Sales fell."])
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    return Agent.from_workspace(tmp_path / "ws")


def page_facts(ws: Path, page: str) -> dict[tuple[str, str, str], tuple[float, str]]:
    """The workspace's facts whose locator starts with ``page`` ("page=62,table=1,"):
    ``(metric, channel, period) -> (value, unit)``."""
    return {(f.metric_code, f.channel, f.period): (f.value, f.unit)
            for f in FactStore(ws / "facts.db", create=False).iter_facts()
            if f.source_locator.startswith(page)}


def page_values(ws: Path, page: str) -> dict[tuple[str, str, str], float]:
    """:func:`page_facts` with the values alone."""
    return {key: value for key, (value, _) in page_facts(ws, page).items()}
