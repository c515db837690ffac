"""Small real report files for tests, written with the same libraries users' tools use."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def make_pptx(path: Path, slides: list[dict[str, Any]]) -> Path:
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    prs = Presentation()
    for spec in slides:
        slide = prs.slides.add_slide(prs.slide_layouts[5])
        slide.shapes.title.text = spec.get("title", "")
        if "table" in spec:
            rows = spec["table"]
            shape = slide.shapes.add_table(len(rows), len(rows[0]), Inches(0.5), Inches(1.5),
                                           Inches(8), Inches(3))
            for r, row in enumerate(rows):
                for c, text in enumerate(row):
                    shape.table.cell(r, c).text = text
        if "chart" in spec:
            cats, series = spec["chart"]
            data = CategoryChartData()
            data.categories = cats
            for name, values in series:
                data.add_series(name, values)
            slide.shapes.add_chart(XL_CHART_TYPE.LINE, Inches(0.5), Inches(1.5), Inches(8),
                                   Inches(4), data)
        if "text" in spec:
            box = slide.shapes.add_textbox(Inches(0.5), Inches(5.5), Inches(8), Inches(1))
            box.text_frame.text = spec["text"]
        if "notes" in spec:
            slide.notes_slide.notes_text_frame.text = spec["notes"]
    prs.save(str(path))
    return path


def make_xlsx(path: Path, sheets: dict[str, list[list[Any]]],
              percent_cells: tuple[str, ...] = ()) -> Path:
    from openpyxl import Workbook

    wb = Workbook()
    wb.remove(wb.active)
    for name, grid in sheets.items():
        ws = wb.create_sheet(name)
        for row in grid:
            ws.append(row)
        for ref in percent_cells:
            sheet, cell = ref.split("!")
            if sheet == name:
                ws[cell].number_format = "0.0%"
    wb.save(str(path))
    return path


def make_docx(path: Path, paragraphs: list[str], table: list[list[str]] | None = None) -> Path:
    from docx import Document

    d = Document()
    for p in paragraphs:
        d.add_paragraph(p)
    if table:
        t = d.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, text in enumerate(row):
                t.cell(r, c).text = text
    d.save(str(path))
    return path


def make_pdf(path: Path, pages: list[list[str]], password: str | None = None) -> Path:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    for lines in pages:
        y = 800
        for line in lines:
            c.drawString(60, y, line)
            y -= 16
        c.showPage()
    c.save()
    if password:
        from pypdf import PdfReader, PdfWriter

        writer = PdfWriter(clone_from=PdfReader(str(path)))
        writer.encrypt(user_password=password, owner_password=password)
        with path.open("wb") as fh:
            writer.write(fh)
    return path
