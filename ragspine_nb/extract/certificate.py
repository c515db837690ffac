"""Number certificates: a figure's source shown as the reader would find it in the file.

From a fact's document and locator, :func:`certificate` renders where the figure stands:

- ``.xlsx`` (``sheet=NAME!B4``) and ``.csv`` (``cell=B4``): the cell in its neighbourhood
  (three rows and columns around it, with row numbers and column letters), highlighted;
- ``.pptx`` (``slide=S,table=T,…``): the table on its slide, the cells holding the figure
  highlighted;
- ``.pdf`` (``page=N,…``): the page region around the figure, rendered with pypdfium2, each
  place the figure's text appears on the page boxed in red.

The HTML is self-contained (an image is a ``data:`` URL) and kept under ``max_bytes``.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragspine_nb._optional import import_optional
from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.errors import RagspineError

__all__ = ["Certificate", "certificate", "number_texts"]

_A1 = re.compile(r"^([A-Za-z]{1,3})(\d+)$")
_AROUND = 3
_HIT = "background:#fff3b0;outline:2px solid #cf222e;font-weight:600"
_CELL = "border:1px solid #d0d7de;padding:2px 6px;text-align:right;white-space:nowrap"
_HEAD = _CELL + ";background:#f6f8fa;color:#59636e;font-weight:400"


@dataclass(frozen=True)
class Certificate(CardReprMixin):
    """Where one figure stands in its source file, as self-contained HTML."""

    doc: str
    locator: str
    kind: str  #: "cell" (a sheet's neighbourhood), "table" (a slide's table) or "page"
    hits: int  #: how many places are highlighted (0: the figure was not found there)
    html: str

    def _display_html(self) -> str:
        return self.html


def number_texts(value: float) -> list[str]:
    """How ``value`` may be written in a report, the likeliest first.

    With and without thousands separators, at the scales a table may use (units,
    thousands, millions), with decimals when it has them.

    >>> number_texts(1577.0)[:3]
    ['1,577', '1577', '1,577,000']
    """
    out: list[str] = []
    for scale in (1, 1e3, 1e-3, 1e6, 1e-6):
        v = abs(value) * scale
        if v < 0.01 or v > 1e13:
            continue
        forms = ([f"{round(v):,}", f"{round(v)}"] if abs(v - round(v)) < 1e-6 else
                 [f"{v:,.1f}", f"{v:,.2f}"])
        out += [f for f in forms if f not in out]
    return out


def _parse(locator: str) -> dict[str, str]:
    """``page=3,table=1,row=X`` -> ``{"page": "3", ...}``; ``sheet=S!B4`` keeps its sheet."""
    parts: dict[str, str] = {}
    for item in locator.split(","):
        key, _, val = item.partition("=")
        parts.setdefault(key.strip(), val.strip())
    return parts


def _a1(ref: str) -> tuple[int, int]:
    """``"B4"`` -> (row 4, column 2), both 1-based."""
    m = _A1.match(ref)
    if not m:
        raise RagspineError(f"not a cell reference: {ref!r} (expected a letter and a row, e.g. B4)")
    col = 0
    for ch in m.group(1).upper():
        col = col * 26 + ord(ch) - 64
    return int(m.group(2)), col


def _letters(col: int) -> str:
    out = ""
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


def _grid_html(caption: str, rows: list[list[Any]], hit: set[tuple[int, int]],
               row_names: list[str] | None = None, col_names: list[str] | None = None) -> str:
    head = ""
    if col_names:
        head = "<tr><th style='" + _HEAD + "'></th>" + "".join(
            f"<th style='{_HEAD}'>{html.escape(c)}</th>" for c in col_names) + "</tr>"
    body = ""
    for r, row in enumerate(rows):
        name = (f"<th style='{_HEAD}'>{html.escape(row_names[r])}</th>" if row_names else "")
        body += "<tr>" + name + "".join(
            f"<td style='{_CELL}{';' + _HIT if (r, c) in hit else ''}'>"
            f"{html.escape('' if v is None else str(v))}</td>" for c, v in enumerate(row)) + "</tr>"
    return (f"<figure class='rs-certificate' style='margin:4px 0'><figcaption style='font-size:"
            f"12px;color:#59636e'>{html.escape(caption)}</figcaption><table style='border-"
            f"collapse:collapse;font-size:12px'>{head}{body}</table></figure>")


def _neighbourhood(doc: str, locator: str, grid: list[list[Any]], row: int, col: int
                   ) -> Certificate:
    """Rows and columns around (``row``, ``col``) of a 1-based ``grid``."""
    r0, c0 = max(1, row - _AROUND), max(1, col - _AROUND)
    rows = [[(grid[r - 1][c - 1] if r <= len(grid) and c <= len(grid[r - 1]) else None)
             for c in range(c0, col + _AROUND + 1)] for r in range(r0, row + _AROUND + 1)
            if r <= len(grid)]
    found = row <= len(grid) and col <= len(grid[row - 1])
    return Certificate(doc, locator, "cell", int(found), _grid_html(
        f"{doc} · {locator}", rows, {(row - r0, col - c0)} if found else set(),
        [str(r) for r in range(r0, r0 + len(rows))],
        [_letters(c) for c in range(c0, col + _AROUND + 1)]))


def _xlsx(path: Path, doc: str, locator: str) -> Certificate:
    openpyxl = import_optional("openpyxl", extra="ingest", feature="Certificates of .xlsx figures")
    sheet, _, ref = _parse(locator).get("sheet", "").rpartition("!")
    row, col = _a1(ref)
    wb = openpyxl.load_workbook(str(path), read_only=True, data_only=True)
    try:
        if sheet not in wb.sheetnames:
            raise RagspineError(f"{doc} has no sheet {sheet!r}; its sheets: {wb.sheetnames}")
        grid = [list(r) for r in wb[sheet].iter_rows(min_row=1, max_row=row + _AROUND,
                                                      max_col=col + _AROUND, values_only=True)]
    finally:
        wb.close()
    return _neighbourhood(doc, locator, grid, row, col)


def _csv(path: Path, doc: str, locator: str) -> Certificate:
    row, col = _a1(_parse(locator).get("cell", ""))
    with path.open(encoding="utf-8-sig", newline="") as fh:
        grid = [r for _, r in zip(range(row + _AROUND), csv.reader(fh), strict=False)]
    return _neighbourhood(doc, locator, grid, row, col)


def _pptx(path: Path, doc: str, locator: str, value: float | None) -> Certificate:
    pptx = import_optional("pptx", extra="ingest", feature="Certificates of .pptx figures")
    from ragspine_nb.extract.office import _shapes

    parts = _parse(locator)
    slide_no, table_no = int(parts.get("slide", "0")), int(parts.get("table", "0"))
    slides = list(pptx.Presentation(str(path)).slides)
    if not 1 <= slide_no <= len(slides):
        raise RagspineError(f"{doc} has {len(slides)} slides; the locator names slide {slide_no}")
    tables = [s for s in _shapes(slides[slide_no - 1].shapes) if getattr(s, "has_table", False)]
    if not 1 <= table_no <= len(tables):
        raise RagspineError(f"slide {slide_no} of {doc} has {len(tables)} tables; the locator "
                            f"names table {table_no}")
    rows = [[c.text for c in r.cells] for r in tables[table_no - 1].table.rows]
    texts = set(number_texts(value)) if value is not None else set()
    hit = {(r, c) for r, row in enumerate(rows) for c, v in enumerate(row)
           if v.strip().strip("()$€£¥%").replace("US", "").strip() in texts}
    return Certificate(doc, locator, "table", len(hit), _grid_html(
        f"{doc} · slide {slide_no}, table {table_no}", rows, hit))


def _pdf(path: Path, doc: str, locator: str, value: float | None, max_bytes: int
         ) -> Certificate:
    pdfium = import_optional("pypdfium2", extra="ingest", feature="Certificates of PDF figures")
    import_optional("PIL", extra="notebook", feature="Certificates of PDF figures")
    from PIL import ImageDraw

    page_no = int(_parse(locator).get("page", "0"))
    pdf = pdfium.PdfDocument(str(path))
    try:
        if not 1 <= page_no <= len(pdf):
            raise RagspineError(f"{doc} has {len(pdf)} pages; the locator names page {page_no}")
        page = pdf[page_no - 1]
        width, height = page.get_size()
        textpage = page.get_textpage()
        boxes = []
        for text in (number_texts(value) if value is not None else []):
            searcher = textpage.search(text, match_whole_word=True)
            while (found := searcher.get_next()) is not None:
                start, count = found
                chars = [textpage.get_charbox(i) for i in range(start, start + count)]
                boxes.append((min(b[0] for b in chars), min(b[1] for b in chars),
                              max(b[2] for b in chars), max(b[3] for b in chars)))
            if boxes:
                break  # the most likely writing found: the others would be coincidences
        scale = 1.5
        image = page.render(scale=scale).to_pil().convert("RGB")
    finally:
        pdf.close()
    draw = ImageDraw.Draw(image)
    for left, bottom, right, top in boxes:
        draw.rectangle((left * scale - 3, (height - top) * scale - 3, right * scale + 3,
                        (height - bottom) * scale + 3), outline=(207, 34, 46), width=3)
    if boxes:  # the region around the hits: the rows above and below, the page's width
        top = max(0.0, (height - max(b[3] for b in boxes) - 90) * scale)
        bottom = min(height * scale, (height - min(b[1] for b in boxes) + 90) * scale)
        image = image.crop((0, int(top), int(width * scale), int(bottom)))
    data = _encode(image, max_bytes)
    what = (f"{len(boxes)} place(s) on page {page_no} where the figure is written, boxed"
            if boxes else f"page {page_no} (the figure's text was not found on it)")
    return Certificate(doc, locator, "page", len(boxes), (
        f"<figure class='rs-certificate' style='margin:4px 0'><figcaption style='font-size:12px;"
        f"color:#59636e'>{html.escape(f'{doc} · {locator}: {what}')}</figcaption>"
        f"<img alt='{html.escape(doc)} page {page_no}' style='max-width:100%;border:1px solid "
        f"#d0d7de' src='data:{data}'></figure>"))


def _encode(image: Any, max_bytes: int) -> str:
    """A PNG (or, if that is too big, a smaller JPEG) as ``mime;base64,…``."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    mime = "image/png"
    while len(buf.getvalue()) * 4 // 3 > max_bytes and image.width > 200:
        image = image.resize((image.width * 3 // 4, image.height * 3 // 4))
        buf = io.BytesIO()
        image.save(buf, format="JPEG", quality=70)
        mime = "image/jpeg"
    return f"{mime};base64,{base64.b64encode(buf.getvalue()).decode('ascii')}"


def certificate(path: str | Path, locator: str, value: float | None = None, *,
                doc: str | None = None, max_bytes: int = 400_000) -> Certificate:
    """The source of one figure in ``path`` at ``locator``, rendered as HTML.

    ``value`` (the fact's value) finds the figure in a slide's table or on a PDF page;
    a sheet's locator names its cell.

    Raises
    ------
    RagspineError
        The file type has no certificate, or the locator names nothing in the file.
    """
    file = Path(path)
    name = doc or file.name
    suffix = file.suffix.lower()
    if suffix == ".xlsx":
        return _xlsx(file, name, locator)
    if suffix == ".csv":
        return _csv(file, name, locator)
    if suffix == ".pptx":
        return _pptx(file, name, locator, value)
    if suffix == ".pdf":
        return _pdf(file, name, locator, value, max_bytes)
    raise RagspineError(f"no certificate for {suffix or 'a file without a suffix'} files; "
                        "certificates cover .xlsx, .csv, .pptx and .pdf")
