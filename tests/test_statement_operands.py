"""A formula's balances come from the balance sheet, never a cash-flow change line (issue 36).

A cash-flow statement lists "Inventories (200)" and "Accounts payable 200" under
"Changes in operating assets and liabilities:": the change of each balance, not the
balance. Filed as INVENTORIES, a days-payable formula took the change line for a year
the balance sheet does not show (2 wrong numbers on held-out filings). A row under such
a section is now a row of its own ("changes in … inventories"); the section ends at the
cash flow it adds up to, so the rows after it keep their names.
"""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import FactStore, ingest
from ragspine_nb.agent import Agent

REF = date(2024, 6, 1)
INCOME = (["Norvale Inc.", "Consolidated Statements of Earnings", "(In millions)"], [
    ("Fiscal Year", "2023", "2022"),
    ("Net sales", "$ 20,000", "$ 18,000"),
    ("Cost of sales", "12,000", "11,000"),
    ("Gross profit", "8,000", "7,000"),
    ("Net earnings", "$ 2,000", "$ 1,800"),
])
BALANCE = (["Norvale Inc.", "Consolidated Balance Sheets", "(In millions)"], [
    ("", "December 31, 2023", "December 31, 2022"),
    ("Cash and cash equivalents", "$ 1,500", "$ 1,200"),
    ("Inventories", "2,600", "2,400"),
    ("Total current assets", "6,000", "5,500"),
    ("Accounts payable", "1,900", "1,700"),
    ("Total current liabilities", "4,000", "3,800"),
])
CASH_FLOWS = (["Norvale Inc.", "Consolidated Statements of Cash Flows", "(In millions)"], [
    ("Fiscal Year", "2023", "2022", "2021"),
    ("Net earnings", "$ 2,000", "$ 1,800", "$ 1,500"),
    ("Depreciation and amortization", "500", "450", "400"),
    ("Changes in operating assets and liabilities:", "", "", ""),
    ("Inventories", "(200)", "(150)", "(100)"),
    ("Accounts payable", "200", "120", "90"),
    ("Net cash provided by operating activities", "2,500", "2,220", "1,890"),
    ("Capital expenditures", "(700)", "(600)", "(500)"),
])
Page = tuple[list[str], list[tuple[str, ...]]]


def _filing(tmp_path: Path, pages: list[Page]) -> Path:
    """A PDF of statements (one a page), ingested as a user's folder; the workspace."""
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
                c.drawRightString(400 + 80 * i, y, cell)
            y -= 11
        c.showPage()
    c.save()
    ingest(folder, workspace=tmp_path / "ws", progress=False,
           metadata={"norvale_2023_10k.pdf": {"company": "Norvale"}})
    return tmp_path / "ws"


def _ask(ws: Path, *questions: str) -> list[str]:
    agent = Agent.from_workspace(ws)
    try:
        return [agent.ask(q, REF).answer for q in questions]
    finally:
        agent.close()


def test_a_change_line_is_no_balance(tmp_path: Path) -> None:
    ws = _filing(tmp_path, [CASH_FLOWS])
    frame = FactStore(ws / "facts.db", create=False).to_frame()
    codes = set(frame.metric_code)
    assert not {"INVENTORIES", "ACCOUNTS_PAYABLE"} & codes
    # the rows after the changes keep the profile's names
    assert {"OPERATING_CASH_FLOW", "CAPEX", "NET_INCOME", "DEPRECIATION_AMORTIZATION"} <= codes
    changes = frame[frame.metric_code.str.endswith("_INVENTORIES")]
    assert sorted(changes.value) == [-200.0, -150.0, -100.0]
    (answer,) = _ask(ws, "What were Norvale's inventories in FY2021?")
    assert answer.startswith("Not found: Norvale Inventories, FY2021 is not in the fact store")


def test_days_inventory_and_payables_take_the_balance_sheet(tmp_path: Path) -> None:
    ws = _filing(tmp_path, [INCOME, BALANCE, CASH_FLOWS])
    dpo, dio_2022 = _ask(
        ws,
        "What is the FY2023 DPO for Norvale? DPO is defined as: 365 * (average accounts "
        "payable between FY2022 and FY2023) / (FY2023 COGS + change in inventory between "
        "FY2022 and FY2023).",
        "What is the FY2022 DIO for Norvale? DIO is defined as: 365 * (average inventory "
        "between FY2021 and FY2022) / (FY2022 COGS).")
    assert "365 × [(1,700 + 1,900) / 2] / (12,000 + (2,600 − 2,400)) = 53.85" in dpo
    assert "row=INVENTORIES,col=FY2023" in dpo and "page=2,table=1" in dpo
    assert "page=3" not in dpo  # nothing from the cash flows
    # FY2021's inventory is on no balance sheet: no figure, never the change line's -100
    assert dio_2022.startswith("(Read as the question")
    assert "DIO not computed" in dio_2022 and "-100" not in dio_2022


def test_a_cash_flow_without_a_changes_heading_is_unchanged(tmp_path: Path) -> None:
    """A benign look-alike: rows under "Cash flows from investing activities:" keep
    the profile's names (capital expenditures is CAPEX)."""
    pages: list[Page] = [(CASH_FLOWS[0], [
        ("Fiscal Year", "2023", "2022"),
        ("Cash flows from investing activities:", "", ""),
        ("Capital expenditures", "(700)", "(600)"),
        ("Net cash used in investing activities", "(650)", "(560)"),
    ])]
    frame = FactStore(_filing(tmp_path, pages) / "facts.db", create=False).to_frame()
    assert sorted(frame[frame.metric_code == "CAPEX"].value) == [-700.0, -600.0]


def test_a_balance_named_with_its_allowances_is_the_balance_and_a_summary_change_is_not(
        tmp_path: Path) -> None:
    """3M's 10-Ks (issue 36): the balance sheet's "Accounts receivable — net of allowances
    of $174 and $189" was filed under a name of its own, so the MD&A cash flow summary's
    "Accounts receivable (105)" — the change — answered as the receivables (-105 for
    4,532). The allowance note reads as the net line; the summary's row, contradicted by
    the balance sheet for the years both show, is left out for every year."""
    balance = (["Norvale Inc.", "Consolidated Balance Sheets", "(In millions)"], [
        ("", "December 31, 2023", "December 31, 2022"),
        ("Cash and cash equivalents", "$ 1,500", "$ 1,200"),
        ("Accounts receivable — net of allowances of $174 and $189", "4,532", "4,660"),
        ("Total current assets", "6,000", "5,500"),
    ])
    summary = (["Norvale Inc.", "Cash flows from operating activities", "(Millions)"], [
        ("Years ended December 31", "2023", "2022", "2021"),
        ("Net income", "$ 2,000", "$ 1,800", "$ 1,500"),
        ("Accounts receivable", "(105)", "(122)", "(268)"),
        ("Net cash provided by operating activities", "2,500", "2,220", "1,890"),
    ])
    ws = _filing(tmp_path, [balance, summary])
    frame = FactStore(ws / "facts.db", create=False).to_frame()
    receivables = frame[frame.metric_code == "ACCOUNTS_RECEIVABLE"]
    assert sorted(receivables.value) == [4532.0, 4660.0]
    assert set(receivables.source_locator.str.slice(0, 7)) == {"page=1,"}
    assert -268.0 not in set(frame.value)  # the year the balance sheet does not show too
    asked = _ask(ws, "What were Norvale's accounts receivable in FY2023?",
                 "What were Norvale's accounts receivable in FY2021?")
    assert "4,532" in asked[0] and "-105" not in asked[0]
    assert asked[1].startswith("Not found") and "-268" not in asked[1]


def test_working_capital_days_are_computed_from_the_statements_with_their_formula(
        tmp_path: Path) -> None:
    # the built-in profile's days: a year-end balance over the year's cost of sales, × 365
    ws = _filing(tmp_path, [INCOME, BALANCE, CASH_FLOWS])
    dpo, dio, dio_cn = _ask(ws, "What was Norvale's days payable outstanding in FY2023?",
                            "What was Norvale's DIO in FY2023?",
                            "Norvale 2023年存货周转天数是多少？")
    assert "= Accounts payable / Cost of revenue × 365: 1,900 / 12,000 × 365 = 57.79" in dpo
    assert "= Inventories / Cost of revenue × 365: 2,600 / 12,000 × 365 = 79.08" in dio
    assert "79.08" in dio_cn and "page=3" not in dio + dpo  # never a cash-flow change line


def test_a_deferred_tax_table_titled_in_a_wrapped_sentence_files_no_balances(
        tmp_path: Path) -> None:
    """Best Buy's 10-Ks (issue 36): "Deferred tax assets and liabilities were comprised of
    the following" wraps after "and", and the table has no "Deferred tax liabilities:"
    heading, so "Property and equipment (169)" — a tax effect — was filed as property and
    equipment (six negative values on the dev filings). The title is the sentence whole;
    every row of a table titled for deferred taxes is a tax component."""
    balance = (["Norvale Inc.", "Consolidated Balance Sheets", "(In millions)"], [
        ("", "December 31, 2023", "December 31, 2022"),
        ("Inventories", "2,600", "2,400"),
        ("Property and equipment, net", "2,352", "2,250"),
        ("Total current assets", "6,000", "5,500"),
    ])
    taxes = (["Deferred taxes are the result of differences between the bases of assets and "
              "liabilities for reporting and tax purposes. Deferred tax assets and",
              "liabilities were comprised of the following ($ in millions):"], [
        ("", "December 31, 2023", "December 31, 2022"),
        ("Deferred revenue", "$ 67", "$ 76"),
        ("Total deferred tax assets", "1,117", "1,204"),
        ("Inventory", "(37)", "(24)"),
        ("Property and equipment", "(169)", "(270)"),
        ("Total deferred tax liabilities", "(1,014)", "(1,073)"),
    ])
    ws = _filing(tmp_path, [balance, taxes])
    frame = FactStore(ws / "facts.db", create=False).to_frame()
    assert "PPE" not in set(frame.metric_code)  # the balance sheet states only the net line
    assert sorted(frame[frame.metric_code == "INVENTORIES"].value) == [2400.0, 2600.0]
    tax = frame[frame.metric_code == "DEFERRED_TAXES_PROPERTY_AND_EQUIPMENT"]
    assert sorted(tax.value) == [-270.0, -169.0]
    gross, net = _ask(ws, "What was Norvale's gross property and equipment in FY2023?",
                      "What was Norvale's property and equipment, net in FY2023?")
    assert "-169" not in gross and "2,352" in net


def test_real_filings_store_the_balance_sheets_lines(tmp_path: Path) -> None:
    """The dev 10-Ks whose lines were misfiled (issue 36), ingested as a user's folder.

    Amcor FY2023: the balance sheet's "Property, plant, and equipment, net" (a serial
    comma the profile's name lacks) was not PPE_NET, so the held-for-sale note's row
    ("— / 49") was, and "Amcor's PP&E, net in FY2023" answered 0 million for 3,762.
    3M 2022: "Accounts receivable — net of allowances …" was not the receivables, so the
    MD&A cash-flow summary's change (-105) was; its equity rows were lost after two
    "Shares outstanding - December 31, 2022: 549,245,105" lines read as a header. Best
    Buy FY2019: the deferred tax table's "Property and equipment (184)" was property and
    equipment, and its equity share counts in billions.
    """
    from ragspine_nb.extract.beir import data_root

    pdfs = data_root() / "financebench" / "pdfs"
    names = ("AMCOR_2023_10K.pdf", "3M_2022_10K.pdf", "BESTBUY_2019_10K.pdf",
             "ADOBE_2022_10K.pdf")
    if not all((pdfs / n).is_file() for n in names):
        pytest.skip(f"{pdfs} not found (set RAGSPINE_DATA)")
    folder = tmp_path / "filings"
    folder.mkdir()
    for n in names:
        shutil.copyfile(pdfs / n, folder / n)
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    facts = {(f.metric_code, f.entity, f.period): (f.value, f.source_locator)
             for f in FactStore(tmp_path / "ws" / "facts.db", create=False).iter_facts()
             if f.channel == "TOTAL"}
    assert facts[("PPE_NET", "AMCOR", "2023")] == (3762.0, "page=52,table=1,row=PPE_NET,col=FY2023")
    assert facts[("ACCOUNTS_RECEIVABLE", "3M", "2022")][0] == 4532.0
    # the equity rows below "Shares outstanding - December 31, 2022: 549,245,105" (a note
    # line, neither a header nor a heading making them share counts)
    equity = [f for f in FactStore(tmp_path / "ws" / "facts.db", create=False).iter_facts()
              if (f.metric_code, f.entity, f.period) == ("TOTAL_EQUITY", "3M", "2022")]
    assert [(f.value, f.unit) for f in equity] == [(14770.0, "M")]
    # Best Buy's "Common stock …: Authorized — 1.0 billion shares; Issued and outstanding —
    # 265,703,000 and" over the equity rows made them share counts in billions
    units = {(f.metric_code, f.period): f.unit for f in
             FactStore(tmp_path / "ws" / "facts.db", create=False).iter_facts()
             if f.entity == "BEST_BUY" and f.channel == "TOTAL"}
    assert units[("TOTAL_EQUITY", "2019")] == units[("RETAINED_EARNINGS", "2019")] == "M"
    # Adobe's "Common stock, $0.0001 par value; 900 shares authorized; 601 shares issued;"
    # heads the next lines: its retained earnings were 28,319 million shares
    adobe = {(f.metric_code, f.period): (f.value, f.unit) for f in
             FactStore(tmp_path / "ws" / "facts.db", create=False).iter_facts()
             if f.entity == "ADOBE" and f.channel == "TOTAL"}
    assert adobe[("RETAINED_EARNINGS", "2022")] == (28319.0, "M")
    assert not any(code in ("PPE", "ACCOUNTS_RECEIVABLE", "GOODWILL", "PPE_NET") and v < 0
                   for (code, _, _), (v, _) in facts.items())
    assert not any(where.startswith("page=66,") for (code, e, _), (_, where) in facts.items()
                   if e == "AMCOR" and code in ("PPE_NET", "GOODWILL", "CASH"))


def test_a_statement_total_adding_up_its_parts_is_the_line_item(tmp_path: Path) -> None:
    """Foot Locker's income statement: "Sales 8,747", "Licensing revenue 12", "Total revenue
    8,759" — two rows claim the built-in revenue, and both were filed under their own names
    ("Foot Locker's revenue in 2022" was not found). The row the figures show adding up the
    others is the line item; the part keeps its own name."""
    income = (["Norvale Inc.", "Consolidated Statements of Operations", "(In millions)"], [
        ("Fiscal Year", "2023", "2022"),
        ("Sales", "$ 8,747", "$ 8,958"),
        ("Licensing revenue", "12", "10"),
        ("Total revenue", "8,759", "8,968"),
        ("Cost of sales", "5,955", "5,777"),
        ("Net income", "$ 341", "$ 893"),
    ])
    ws = _filing(tmp_path, [income])
    frame = FactStore(ws / "facts.db", create=False).to_frame()
    assert sorted(frame[frame.metric_code == "REVENUE"].value) == [8759.0, 8968.0]
    (answer,) = _ask(ws, "What was Norvale's revenue in FY2023?")
    assert "8,759" in answer and "8,747" not in answer

