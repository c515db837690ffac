"""PDF statements into facts: a real PDF drawn with reportlab, read by pypdfium2."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from ragspine_nb import Agent
from ragspine_nb.extract.document import read_document
from ragspine_nb.extract.pdf import reflow
from ragspine_nb.ingestion.workspace import ingest
from ragspine_nb.profile import DomainProfile

pytest.importorskip("pypdfium2")
canvas_mod = pytest.importorskip("reportlab.pdfgen.canvas")

COLUMNS = (380.0, 450.0, 520.0)  # right edges of the three year columns
CASH_FLOW = [
    ("Cash Flows from Operating Activities", ()),
    ("Net income", ("$ 5,363", "$ 4,869", "$ 5,058")),
    ("Depreciation and amortization", ("1,488", "1,544", "1,474")),
    ("Purchases of property, plant and equipment (PP&E)", ("(1,577)", "(1,373)", "(1,420)")),
    ("Proceeds from sale of businesses, net of cash", ()),
    ("sold", ()),
    ("", ("846", "1,065", "142")),
    ("Net cash provided by operating activities", ("6,439", "—", "6,662")),
]
SEGMENT = [("Net income", ("900", "800", "700"))]


def _statement(c: object, y: float, title: str, caption: str,
               rows: list[tuple[str, tuple[str, ...]]]) -> float:
    c.setFont("Helvetica", 8)  # type: ignore[attr-defined]
    c.drawString(60, y, title)  # type: ignore[attr-defined]
    y -= 12
    c.drawString(60, y, caption)  # type: ignore[attr-defined]
    for x, year in zip(COLUMNS, ("2018", "2017", "2016"), strict=True):
        c.drawRightString(x - 6, y, year)  # type: ignore[attr-defined]
    for label, values in rows:
        y -= 11
        c.drawString(60 if label[:1].isupper() or not label else 70, y, label)  # type: ignore[attr-defined]
        for x, v in zip(COLUMNS, values, strict=False):
            if v.startswith("$ "):
                c.drawString(x - 55, y, "$")  # type: ignore[attr-defined]
                v = v[2:]
            c.drawRightString(x + (3 if v.endswith(")") else 0), y, v)  # type: ignore[attr-defined]
    return y - 30


def make_filing(path: Path) -> Path:
    c = canvas_mod.Canvas(str(path), pagesize=(612, 792), invariant=1)
    y = _statement(c, 740, "Consolidated Statement of Cash Flows", "(Millions)", CASH_FLOW)
    c.drawString(60, y, "The accompanying notes are an integral part of this statement.")
    c.drawString(300, y - 20, "60")
    c.showPage()
    c.setFont("Helvetica", 9)
    c.drawString(60, 740, "Sales rose in every business group this year, led by strong demand in")
    c.drawString(60, 729, "Health Care and Safety. Margins held steady as material costs eased.")
    _statement(c, 700, "Safety and Industrial Business", "(Millions)", SEGMENT)
    c.showPage()
    c.showPage()  # a page with no text layer
    c.save()
    return path


@pytest.fixture(scope="module")
def filing(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_filing(tmp_path_factory.mktemp("pdf") / "acme_2018_10k.pdf")


def _facts(filing: Path) -> dict[tuple[str, str], tuple[float, str, str]]:
    result = read_document(filing, "acme", DomainProfile.builtin())
    return {(f.metric_code, f.period): (f.value, f.unit, f.source_locator) for f in result.facts}


def test_a_statement_table_becomes_facts_with_page_locators(filing: Path) -> None:
    facts = _facts(filing)
    assert facts[("DEPRECIATION_AMORTIZATION", "2017")] == (
        1544.0, "M", "page=1,table=1,row=DEPRECIATION_AMORTIZATION,col=FY2017")
    assert facts[("CAPEX", "2018")][:2] == (-1577.0, "M")  # parentheses: negative
    # a label wrapped over two lines, its figures on a line of their own
    wrapped = [k for k in facts if k[0].startswith("PROCEEDS_FROM_SALE_OF_BUSINESSES")]
    assert sorted(facts[k][0] for k in wrapped) == [142.0, 846.0, 1065.0]
    # a dash in a row of figures is nil, as statements print zero, cited at its cell;
    # the page number under the table is no row
    assert facts[("OPERATING_CASH_FLOW", "2018")][0] == 6439.0
    assert facts[("OPERATING_CASH_FLOW", "2017")] == (
        0.0, "M", "page=1,table=1,row=OPERATING_CASH_FLOW,col=FY2017")
    assert not any("60" in k[0] for k in facts)


def test_the_primary_statement_wins_over_a_segment_table(filing: Path) -> None:
    result = read_document(filing, "acme", DomainProfile.builtin())
    net = [f for f in result.facts if f.metric_code == "NET_INCOME" and f.period == "2018"]
    assert [(f.value, f.source_locator.split(",")[0]) for f in net] == [(5363.0, "page=1")]
    # the segment's table (titled by the segment) gives no fact of the company at all;
    # the precedence of primary statements is tested in test_instructions.py
    assert [s.reason.split(":")[0] for s in result.skipped if s.locator.startswith("page=2")
            ] == ["a table of one part of the company ('Safety and Industrial', named in its "
                  "title)"]


def test_pages_without_text_are_named_and_prose_is_reflowed(filing: Path) -> None:
    result = read_document(filing, "acme", DomainProfile.builtin())
    assert any("page(s) 3" in w and "no OCR" in w for w in result.warnings)
    page2 = [c.text for c in result.chunks if c.source_locator.startswith("page=2")]
    assert any("led by strong demand in Health Care and Safety. Margins held steady" in t
               for t in page2)


def test_a_user_asks_for_capex_from_the_filing(filing: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / filing.name).write_bytes(filing.read_bytes())
    ingest(docs, workspace=tmp_path / "ws", progress=False)
    agent = Agent.from_workspace(tmp_path / "ws")
    r = agent.ask("What is the FY2018 capital expenditure amount (in USD millions)?",
                  date(2019, 3, 1))
    assert [(f.value, f.unit) for f in r.figures] == [(-1577.0, "M")]
    assert "page=1,table=1,row=CAPEX,col=FY2018" in r.answer


def test_reflow_keeps_short_lines_and_bullets_apart() -> None:
    text = ("Overview\r\n" + "a" * 70 + " wraps\r\n" + "here.\r\n" + "• first point\r\n"
            + "• second point")
    assert reflow(text).split("\n") == ["Overview", "a" * 70 + " wraps here.",
                                        "• first point", "• second point"]


def test_financebench_eval_through_the_cli_on_a_filing_of_our_own(tmp_path: Path) -> None:
    # the FinanceBench layout (questions.jsonl, documents.jsonl, pdfs/) with one filing
    import json

    from ragspine_nb.cli.commands import main

    (tmp_path / "pdfs").mkdir()
    make_filing(tmp_path / "pdfs" / "ACME_2018_10K.pdf")
    (tmp_path / "documents.jsonl").write_text(json.dumps(
        {"doc_name": "ACME_2018_10K", "company": "ACME", "doc_period": 2018}) + "\n")
    questions = [
        ("What is the FY2018 capital expenditure amount (in USD millions) for ACME? Give a "
         "response to the question by relying on the details shown in the cash flow "
         "statement.", "$1577.00", 0),
        ("What was ACME's FY2017 net income (in USD millions)? Answer in USD millions.",
         "$4869.00", 0),
        ("Why did ACME's sales rise?", "Demand in Health Care and Safety.", 1),
    ]
    (tmp_path / "questions.jsonl").write_text("".join(json.dumps(
        {"financebench_id": f"q{i}", "company": "ACME", "doc_name": "ACME_2018_10K",
         "question_type": "metrics-generated", "question": q, "answer": a,
         "evidence": [{"evidence_page_num": page}]}) + "\n"
        for i, (q, a, page) in enumerate(questions)))
    out = tmp_path / "fb.json"
    assert main(["eval", "financebench", str(tmp_path), "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["questions"] == 3 and report["filings"] == 1
    assert report["categories"]["correct"] == 2 and report["categories"]["wrong_number"] == 0
    assert report["sign_flipped"] == 1  # capex is stated as an outflow: (1,577)
    assert [r["evidence_cited"] for r in report["rows"]][:2] == [True, True]
    assert report["rows"][0]["answer"].startswith("(Read as the question:")
    assert main(["eval", "financebench", str(tmp_path / "missing")]) == 2


def _rows(c: Any, rows: list[tuple[int, str, tuple[str, ...]]],
          rights: tuple[float, ...]) -> None:
    """Labelled rows at their heights, each figure right-aligned on its column's edge."""
    for y, label, values in rows:
        c.drawString(60, y, label)
        for right, v in zip(rights, values, strict=True):
            c.drawRightString(right + (3 if v.endswith(")") else 0), y, v)


def test_period_headers_drawn_column_by_column_are_read_side_by_side(tmp_path: Path) -> None:
    # before: "December 1," / "2017" / "December 2," / "2016" came out as four lines in
    # text order, the title was lost and no column had a period (Adobe's statements)
    path = tmp_path / "balance.pdf"
    c = canvas_mod.Canvas(str(path), pagesize=(612, 792), invariant=1)
    c.setFont("Helvetica", 8)
    c.drawString(200, 740, "CONSOLIDATED BALANCE SHEETS")
    c.drawString(200, 728, "(In thousands)")
    for right, day, year in ((470.0, "December 1,", "2017"), (545.0, "December 2,", "2016")):
        c.drawRightString(right, 712, day)  # one column's header, then the next one's
        c.drawRightString(right - 10, 704, year)
    _rows(c, [(690, "Cash and cash equivalents", ("2,306,072", "1,011,315")),
              (678, "Total current liabilities", ("2,180,241", "2,811,635"))], (480.0, 555.0))
    c.save()
    result = read_document(path, "adbe", DomainProfile.builtin())
    got = {(f.metric_code, f.period): (f.value, f.unit) for f in result.facts}
    assert got[("CURRENT_LIABILITIES", "2017")] == (2180241.0, "K")
    assert got[("CASH", "2016")] == (1011315.0, "K")


def test_a_contents_list_and_page_footers_give_no_facts(tmp_path: Path) -> None:
    c = canvas_mod.Canvas(str(tmp_path / "acme_2018_10k.pdf"), pagesize=(612, 792), invariant=1)
    c.setFont("Helvetica", 9)
    c.drawString(60, 740, "Index to Consolidated Financial Statements")
    c.drawRightString(520, 740, "PAGE NO.")
    for k, (label, page) in enumerate([("Report of Independent Auditors", "2"),
                                       ("Consolidated Statements of Cash Flows", "3"),
                                       ("Notes to Consolidated Financial Statements", "3")]):
        c.drawString(60, 720 - 12 * k, label)
        c.drawRightString(520, 720 - 12 * k, page)
    c.drawString(60, 30, "2018 FORM 10-K")
    c.drawRightString(520, 30, "1")
    c.showPage()
    c.showPage()
    y = _statement(c, 740, "Consolidated Statement of Cash Flows", "(Millions)", CASH_FLOW)
    c.drawString(60, y, "The accompanying notes are an integral part of this statement.")
    c.drawString(60, 30, "2018 FORM 10-K")
    c.drawRightString(520, 30, "3")
    c.showPage()
    c.save()
    result = read_document(tmp_path / "acme_2018_10k.pdf", "acme", DomainProfile.builtin())
    pages = sorted({f.source_locator.split(",")[0] for f in result.facts})
    assert pages == ["page=3"]
    assert not any("FORM" in f.metric_code or "NOTES" in f.metric_code for f in result.facts)
    assert ("DEPRECIATION_AMORTIZATION", "2018") in {
        (f.metric_code, f.period) for f in result.facts}


def test_a_raised_footnote_mark_is_no_figure(tmp_path: Path) -> None:
    # Adobe's 2017 10-K: "Repurchases Under the Plan (1)" with the "(1)" raised in a
    # smaller font was read as a row "Under the Plan" of -1 (asked: "-1 thousand")
    path = tmp_path / "adbe_2017_10k.pdf"
    c = canvas_mod.Canvas(str(path), pagesize=(612, 792), invariant=1)
    c.setFont("Helvetica", 8)
    c.drawString(60, 740, "Summary of Stock Repurchases for Fiscal 2017 and 2016")
    c.drawString(60, 728, "(in thousands)")
    c.drawString(150, 712, "Under the Plan")
    c.setFont("Helvetica", 5)
    c.drawString(207, 716, "(1)")  # raised as Adobe's: its bottom 3 points above the line's
    c.setFont("Helvetica", 8)
    for right, year in ((380.0, "2017"), (450.0, "2016")):
        c.drawRightString(right, 712, year)
    _rows(c, [(700, "Structured repurchases", ("4,263", "10,428")),
              (688, "Total shares (2)", ("8,186", "(1)"))], (380.0, 450.0))
    c.save()
    result = read_document(path, "adbe", DomainProfile.builtin())
    got = {(f.metric_code, f.period): f.value for f in result.facts}
    assert not [k for k in got if k[0] == "UNDER_THE_PLAN"], got
    assert got[("STRUCTURED_REPURCHASES", "2017")] == 4263.0
    # a "(1)" on the baseline is a figure: minus one
    assert got[("TOTAL_SHARES", "2016")] == -1.0


def test_character_boxes_are_pypdfium2s_own(filing: Path) -> None:
    """The reader's fast box reading gives exactly ``PdfTextPage.get_charbox``'s values."""
    import pypdfium2 as pdfium

    from ragspine_nb.extract.pdf import char_boxes

    doc, drawn = pdfium.PdfDocument(str(filing)), 0
    try:
        for page in doc:
            textpage = page.get_textpage()
            text = textpage.get_text_range()
            expected = [(0.0, 0.0, 0.0, 0.0) if ch.isspace() else textpage.get_charbox(i)
                        for i, ch in enumerate(text[:textpage.count_chars()])]
            assert [tuple(box) for box in char_boxes(textpage, text).tolist()] == expected
            drawn += sum(1 for box in expected if box[2] > box[0])
            textpage.close()
            page.close()
    finally:
        doc.close()
    assert drawn > 400  # both statements' characters, each in its own box
