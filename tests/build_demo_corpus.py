"""Build the bilingual ACME demo corpus and its ground truth (reproducible).

    .venv/bin/python tests/build_demo_corpus.py

Writes ``ragspine_nb/demo/reports/`` (a results deck .pptx with tables and a chart, a
five-year .xlsx, a .csv, business reviews in .md and .docx, a regulatory-watch .pdf
and a RESTRICTED board paper .docx) and ``ragspine_nb/demo/ground_truth.json``: every fact
the reports state, with the exact locator of its cell. The ground truth is written
from the same numbers that are placed in the files, independently of the extractors.
Timestamps inside the files are fixed, so a rebuild gives the same bytes.

Deliberate traps: half-year columns next to full-year ones (1H2025 is not FY2025);
Group new sales 8,180 vs Hong Kong new sales 818; the bancassurance channel exists for
Mainland China only; ROE is not reported for Mainland China; a row label the glossary
does not know ("Embedded value"); a non-numeric cell ("n/a"); a non-period column
("YoY change"); ROE stored as an Excel percentage; a CSV in US$ thousands; a sheet in
人民币亿元; an operating loss written in parentheses.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import zipfile
from pathlib import Path

#: The demo data ships inside the package (``ragspine-nb demo`` reads it from there).
HERE = Path(__file__).resolve().parents[1] / "ragspine_nb" / "demo"
OUT = HERE / "reports"
FIXED = dt.datetime(2026, 3, 20, 9, 0, 0)
FACTS: list[dict[str, object]] = []

CODES = {"Revenue": "REVENUE", "New sales": "NEW_SALES", "Operating profit": "OPERATING_PROFIT",
         "ROE (%)": "ROE", "ROE": "ROE", "营业收入": "REVENUE"}
PERIODS = {"FY2019": ("FY", "2019"), "FY2020": ("FY", "2020"), "FY2021": ("FY", "2021"),
           "FY2022": ("FY", "2022"), "FY2023": ("FY", "2023"), "FY2024": ("FY", "2024"),
           "FY2025": ("FY", "2025"), "1H2024": ("HY", "2024H1"), "2H2024": ("HY", "2024H2"),
           "1H2025": ("HY", "2025H1"), "2H2025": ("HY", "2025H2"),
           "2025Q1": ("QUARTER", "2025Q1"), "2025Q2": ("QUARTER", "2025Q2"),
           "2025Q3": ("QUARTER", "2025Q3"), "2025Q4": ("QUARTER", "2025Q4")}


def label_of(ptype: str, period: str) -> str:
    return f"FY{period}" if ptype == "FY" else period


def record(metric: str, entity: str, header: str, value: float, unit: str, doc: str,
           locator: str, channel: str = "TOTAL") -> None:
    ptype, period = PERIODS[header]
    FACTS.append({"metric_code": metric, "entity": entity, "channel": channel,
                  "period_type": ptype, "period": period, "value": value, "unit": unit,
                  "source": {"doc": doc, "locator": locator}})


def fixed_zip(data: bytes) -> bytes:
    """Rewrite an OOXML zip with fixed entry timestamps (reproducible bytes)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2026, 3, 20, 9, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o644 << 16
            body = src.read(info.filename)
            if info.filename.endswith(".xlsx"):  # a chart's embedded workbook
                body = fixed_zip(body)
            elif info.filename == "docProps/core.xml":
                body = re.sub(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*",
                              rb"\g<1>2026-03-20T09:00:00Z", body)
            dst.writestr(fixed, body)
    return buf.getvalue()


# --------------------------------------------------------------------------- deck
KEY_FIGURES = {
    "ACME_GROUP": ("ACME Group — Key figures (US$m)",
                   [("Revenue", "4,500", "4,760"), ("New sales", "8,180", "8,650"),
                    ("Operating profit", "1,020", "1,105"), ("ROE (%)", "12.8", "13.4"),
                    ("Embedded value", "21,300", "22,050")]),
    "ACME_HK": ("ACME Hong Kong — Key figures (US$m)",
                [("Revenue", "1,320", "1,405"), ("New sales", "818", "902"),
                 ("Operating profit", "410", "452"), ("ROE (%)", "15.1", "15.9")]),
    "ACME_CN": ("ACME Mainland China — Key figures (US$m)",
                [("Revenue", "1,580", "1,530"), ("New sales", "2,950", "2,710"),
                 ("Operating profit", "335", "(36)")]),
}


def _num(text: str) -> float:
    neg = text.startswith("(")
    v = float(text.strip("()").replace(",", ""))
    return -v if neg else v


def _table(slide, rows: list[list[str]], top: float = 1.6):  # type: ignore[no-untyped-def]
    from pptx.util import Inches, Pt

    shape = slide.shapes.add_table(len(rows), len(rows[0]), Inches(0.6), Inches(top),
                                   Inches(8.8), Inches(0.4 * len(rows)))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            cell = shape.table.cell(r, c)
            cell.text = text
            cell.text_frame.paragraphs[0].runs[0].font.size = Pt(14)
    return shape


def build_deck() -> None:
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches, Pt

    doc = "ACME_FY2025_Results.pptx"
    prs = Presentation()
    prs.core_properties.title = "ACME Group FY2025 results"
    prs.core_properties.author = "ACME Investor Relations"
    prs.core_properties.created = FIXED
    prs.core_properties.modified = FIXED
    prs.core_properties.last_modified_by = "ACME Investor Relations"
    title_only = prs.slide_layouts[5]

    s = prs.slides.add_slide(prs.slide_layouts[0])  # slide 1
    s.shapes.title.text = "ACME Group FY2025 results"
    s.placeholders[1].text = ("Investor presentation, March 2026. Figures in US$ millions "
                              "unless stated otherwise.")

    for slide_no, (entity, (title, rows)) in enumerate(KEY_FIGURES.items(), start=2):
        s = prs.slides.add_slide(title_only)
        s.shapes.title.text = title
        header = ["US$m", "FY2024", "FY2025"] + (["YoY change"] if entity == "ACME_CN" else [])
        grid = [header]
        for label, v24, v25 in rows:
            extra = [f"{(_num(v25) - _num(v24)) / abs(_num(v24)) * 100:+.1f}%"] \
                if entity == "ACME_CN" else []
            grid.append([label, v24, v25, *extra])
            if label in CODES:
                unit = "PCT" if label.startswith("ROE") else "USD_M"
                for header_cell, v in (("FY2024", v24), ("FY2025", v25)):
                    record(CODES[label], entity, header_cell, _num(v), unit, doc,
                           f"slide={slide_no},table=1,row={CODES[label]},"
                           f"col={label_of(*PERIODS[header_cell])}")
        _table(s, grid)
        if entity == "ACME_GROUP":
            s.notes_slide.notes_text_frame.text = (
                "Group new sales were US$8,180m in FY2024 — not to be confused with Hong Kong's "
                "US$818m. Embedded value is shown for reference and is not a reported KPI here.")

    s = prs.slides.add_slide(title_only)  # slide 5: chart
    s.shapes.title.text = "ACME Mainland China — Operating profit by half-year (US$m)"
    cats = ["1H2024", "2H2024", "1H2025", "2H2025"]
    vals = [170.0, 165.0, -58.0, 22.0]
    data = CategoryChartData()
    data.categories = cats
    data.add_series("Operating profit", vals)
    gframe = s.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(0.8), Inches(1.6),
                                Inches(8.4), Inches(4.8), data)
    gframe.chart.has_title = True
    gframe.chart.chart_title.text_frame.text = "Operating profit (US$m)"
    for cat, v in zip(cats, vals, strict=True):
        record("OPERATING_PROFIT", "ACME_CN", cat, v, "USD_M", doc,
               f"slide=5,chart=1,series=OPERATING_PROFIT,cat={label_of(*PERIODS[cat])}")

    s = prs.slides.add_slide(title_only)  # slide 6: interim (half-year trap)
    s.shapes.title.text = "Interim highlights — ACME Group (US$m)"
    hy = [("Revenue", "2,290", "2,150"), ("New sales", "4,410", "4,020")]
    _table(s, [["US$m", "1H2025", "1H2024"], *[[a, b, c] for a, b, c in hy]])
    for label, v25, v24 in hy:
        for header_cell, v in (("1H2025", v25), ("1H2024", v24)):
            record(CODES[label], "ACME_GROUP", header_cell, _num(v), "USD_M", doc,
                   f"slide=6,table=1,row={CODES[label]},col={label_of(*PERIODS[header_cell])}")

    channel_slides = [
        (7, "ACME Mainland China", "ACME_CN",
         [("New sales - Agency", "AGENCY", "1,720", "1,690"),
          ("New sales - Bancassurance", "BANCASSURANCE", "1,230", "1,020")]),
        (8, "ACME Hong Kong", "ACME_HK", [("New sales - Agency", "AGENCY", "760", "835")]),
    ]
    for slide_no, name, entity, rows in channel_slides:
        s = prs.slides.add_slide(title_only)
        s.shapes.title.text = f"{name} — New sales by channel (US$m)"
        _table(s, [["US$m", "FY2024", "FY2025"], *[[a, c, d] for a, _, c, d in rows]])
        for _label, channel, v24, v25 in rows:
            for header_cell, v in (("FY2024", v24), ("FY2025", v25)):
                record("NEW_SALES", entity, header_cell, _num(v), "USD_M", doc,
                       f"slide={slide_no},table=1,row=NEW_SALES.{channel},"
                       f"col={label_of(*PERIODS[header_cell])}", channel=channel)

    s = prs.slides.add_slide(prs.slide_layouts[1])  # slide 9: narrative
    s.shapes.title.text = "Why the numbers moved"
    body = s.placeholders[1].text_frame
    bullets = [
        "Group revenue grew 5.8% to US$4,760m, led by Hong Kong, where agency new sales rose "
        "to US$835m as mainland visitors returned.",
        "Mainland China revenue fell to US$1,530m: bancassurance new sales dropped 17% after "
        "the regulator capped bank commissions, and we stepped back from short-term savings.",
        "Mainland China made an operating loss of US$36m in FY2025 after reserve "
        "strengthening for lower interest rates in the first half.",
        "ROE improved to 13.4% at group level on higher Hong Kong margins.",
    ]
    body.text = bullets[0]
    for b in bullets[1:]:
        body.add_paragraph().text = b
    for p in body.paragraphs:
        for run in p.runs:
            run.font.size = Pt(16)
    s.notes_slide.notes_text_frame.text = (
        "Speaker notes: stress that the Mainland China loss is a one-off reserve charge; "
        "the second half returned to a US$22m profit. Bancassurance remains a Mainland-only "
        "channel; Hong Kong sells through agency only.")

    buf = io.BytesIO()
    prs.save(buf)
    (OUT / doc).write_bytes(fixed_zip(buf.getvalue()))


# ------------------------------------------------------------------------ workbook
def build_workbook() -> None:
    from openpyxl import Workbook

    doc = "ACME_5yr_Summary.xlsx"
    wb = Workbook()
    wb.properties.creator = "ACME Finance"
    wb.properties.created = FIXED
    wb.properties.modified = FIXED

    ws = wb.active
    ws.title = "Group"
    ws["A1"] = "ACME Group — five-year summary (US$m)"
    years = ["FY2019", "FY2020", "FY2021", "FY2022", "FY2023"]
    ws.append([])
    ws.append(["Metric", *years])
    group = {"Revenue": [3610, 3750, 3890, 4020, 4180],
             "New sales": [6900, 7150, 7420, 7760, 7905],
             "Operating profit": [800, 835, 870, 905, 960],
             "ROE": [0.112, 0.115, 0.119, 0.121, 0.124]}
    for r, (label, values) in enumerate(group.items(), start=4):
        ws.append([label, *values])
        for c, (year, v) in enumerate(zip(years, values, strict=True)):
            col = "BCDEF"[c]
            if label == "ROE":
                ws[f"{col}{r}"].number_format = "0.0%"
                v = round(v * 100, 10)
            record(CODES[label], "ACME_GROUP", year, float(v),
                   "PCT" if label == "ROE" else "USD_M", doc, f"sheet=Group!{col}{r}")

    ws = wb.create_sheet("Segments")
    segs = [("ACME Hong Kong (US$m)", "ACME_HK",
             {"Revenue": [1080, 1150, 1210], "New sales": [690, 745, 781],
              "ROE": [0.142, 0.146, 0.149]}),
            ("ACME Mainland China (US$m)", "ACME_CN",
             {"Revenue": [1590, 1620, 1650], "New sales": ["n/a", 2780, 2870],
              "Operating profit": [298, 312, 326]})]
    row = 1
    for title, entity, table in segs:
        ws.cell(row=row, column=1, value=title)
        ws.append(["Metric", "FY2021", "FY2022", "FY2023"])
        header_row = row + 1
        for k, (label, values) in enumerate(table.items(), start=1):
            r = header_row + k
            for c, v in enumerate([label, *values], start=1):
                ws.cell(row=r, column=c, value=v)
            for c, (year, v) in enumerate(zip(["FY2021", "FY2022", "FY2023"], values,
                                              strict=True)):
                col = "BCD"[c]
                if isinstance(v, str):
                    continue  # "n/a" is reported by the extractor, not a fact
                if label == "ROE":
                    ws[f"{col}{r}"].number_format = "0.0%"
                    v = round(v * 100, 10)
                record(CODES[label], entity, year, float(v),
                       "PCT" if label == "ROE" else "USD_M", doc, f"sheet=Segments!{col}{r}")
        row = header_row + len(table) + 2  # one blank row between tables

    ws = wb.create_sheet("内地季度")
    ws["A1"] = "ACME中国内地 — 季度营业收入（人民币亿元）"
    ws["A2"], ws["B2"], ws["C2"], ws["D2"], ws["E2"] = "指标", "2025Q1", "2025Q2", "2025Q3", \
        "2025Q4"
    quarters = [27.6, 28.9, 26.4, 27.3]
    ws["A3"] = "营业收入"
    for c, (q, v) in enumerate(zip(["2025Q1", "2025Q2", "2025Q3", "2025Q4"], quarters,
                                   strict=True)):
        col = "BCDE"[c]
        ws[f"{col}3"] = v
        record("REVENUE", "ACME_CN", q, v, "CNY_100M", doc, f"sheet=内地季度!{col}3")

    buf = io.BytesIO()
    wb.save(buf)
    (OUT / doc).write_bytes(fixed_zip(buf.getvalue()))


def build_csv() -> None:
    doc = "ACME_Group_channel_history.csv"
    lines = ["ACME Group — new sales by channel (US$ thousands),,,",
             "Metric,FY2021,FY2022,FY2023"]
    rows = [("New sales - Agency", "AGENCY", ["4,310,500", "4,402,250", "4,598,000"]),
            ("New sales - Bancassurance", "BANCASSURANCE", ["2,840,100", "3,017,750",
                                                            "3,160,000"])]
    for r, (label, channel, values) in enumerate(rows, start=3):
        lines.append(",".join([label, *[f'"{v}"' for v in values]]))
        for c, (year, v) in enumerate(zip(["FY2021", "FY2022", "FY2023"], values, strict=True)):
            record("NEW_SALES", "ACME_GROUP", year, _num(v), "USD_K", doc,
                   f"cell={'BCD'[c]}{r}", channel=channel)
    (OUT / doc).write_text("\n".join(lines) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------- narratives
QBR_Q1_ZH = """# ACME集团2025年第一季度经营回顾

## 总体情况

2025年第一季度，ACME中国内地营业收入为27.6亿元人民币，较上年同期有所下降。

银保渠道新单保费同比下降约两成，主要原因是监管机构实施"报行合一"，对银行渠道佣金设定上限，银行网点销售意愿明显减弱。

## 香港业务

香港代理人渠道表现强劲，内地访客恢复带动新单销售增长。管理层预计这一趋势将在第二季度延续。

## 下一步

公司将继续压降短期储蓄型产品，提升保障型产品占比，以改善新业务价值率。
"""


def build_markdown() -> None:
    (OUT / "QBR_2025Q1_经营回顾.md").write_text(QBR_Q1_ZH, encoding="utf-8")


def _docx(paragraphs: list[tuple[str, str]], title: str, path: Path) -> None:
    from docx import Document

    d = Document()
    d.core_properties.title = title
    d.core_properties.author = "ACME"
    d.core_properties.created = FIXED
    d.core_properties.modified = FIXED
    d.core_properties.last_modified_by = "ACME"
    for style, text in paragraphs:
        if style == "h":
            d.add_heading(text, level=1)
        else:
            d.add_paragraph(text)
    buf = io.BytesIO()
    d.save(buf)
    path.write_bytes(fixed_zip(buf.getvalue()))


def build_docx() -> None:
    _docx([
        ("h", "ACME Group — Q2 2025 business review"),
        ("p", "Mainland China revenue was RMB 2.89 billion in the second quarter, up slightly "
              "on the first quarter, as agency productivity improved."),
        ("p", "Bancassurance new sales kept falling. Banks now receive capped commissions under "
              "the new rules, so branch staff promote our products less."),
        ("h", "Hong Kong"),
        ("p", "Hong Kong agency new sales grew strongly. Mainland visitor policies stayed "
              "supportive and the agency force grew by 6% year on year."),
        ("h", "Outlook"),
        ("p", "We expect a weak first half in Mainland China because reserves must be "
              "strengthened for lower interest rates, followed by a recovery in the second half."),
    ], "Q2 2025 business review", OUT / "QBR_2025Q2_Business_Review.docx")
    _docx([
        ("h", "Board minutes — November 2025"),
        ("p", "Strictly confidential. The board reviewed the FY2026 executive compensation plan "
              "(exec_comp) and a possible acquisition, code name Project Falcon."),
        ("p", "CANARY-BOARD-7f3a9c: the acquisition price range was discussed and must never be "
              "disclosed outside the board."),
    ], "Board minutes", OUT / "board_minutes_2025-11.docx")


REG_PAGES = [
    ["Regulatory watch — first half 2025",
     "",
     "Mainland China: the regulator now requires that commissions paid to banks match",
     "the filed product terms. In practice this caps bancassurance commissions and has",
     "reduced bank-channel new sales across the industry.",
     "",
     "Hong Kong: the Insurance Authority consulted on guidance for selling to mainland",
     "visitors. Agency sales to visitors remain permitted with enhanced suitability checks."],
    ["Capital rules",
     "",
     "Hong Kong's risk-based capital regime is fully in force from 2025. ACME's group",
     "solvency ratio remains well above the minimum.",
     "",
     "What to watch: interest-rate cuts in Mainland China increase reserve requirements",
     "for long-term savings products."],
]


def build_pdf() -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    path = OUT / "Regulatory_Watch_2025H1.pdf"
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("Regulatory watch — first half 2025")
    c.setAuthor("ACME Compliance")
    for page in REG_PAGES:
        y = 800
        for line in page:
            c.setFont("Helvetica", 11)
            c.drawString(60, y, line)
            y -= 18
        c.showPage()
    c.save()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    FACTS.clear()
    build_deck()
    build_workbook()
    build_csv()
    build_markdown()
    build_docx()
    build_pdf()
    facts = sorted(FACTS, key=lambda f: (f["source"]["doc"], f["source"]["locator"]))  # type: ignore[index]
    (HERE / "ground_truth.json").write_text(
        json.dumps({"description": __doc__.strip().splitlines()[0],  # type: ignore[union-attr]
                    "facts": facts}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(list(OUT.iterdir()))} files and {len(facts)} ground-truth facts")


if __name__ == "__main__":
    main()
