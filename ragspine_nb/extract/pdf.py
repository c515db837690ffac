"""PDF pages through pypdfium2: statement tables into facts, text into page-aware paragraphs.

Locators: a table cell ``page=60,table=1,row=<label>,col=<header>``; narrative
``page=N,para=a-b``. Each page's characters and their boxes become lines and cells
(:mod:`~ragspine_nb.extract.pdf_layout`), tables are read from those lines
(:mod:`~ragspine_nb.extract.pdf_tables`) and go through the one table pipeline
(:func:`~ragspine_nb.extract.tables.extract_table`) with the lines above them as titles
("Consolidated Statement of Cash Flows", "(Millions)"). Character boxes are read only on
pages whose text has a line ending in two figures. The page text is reflowed into
paragraphs (a line wrapped at the right margin joins the next), so a chunk quotes whole
sentences. Pages with no text layer are listed in the report; there is no OCR.
Sensitivity markings are read from each page's text layer by their layout and from the
annotations (:mod:`~ragspine_nb.extract.pdf_marks`); the classifier searches the page
text itself for keywords only, since a text layer may break a row into one word per line.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ragspine_nb._optional import import_optional
from ragspine_nb.extract.base import (
    READER_VERSIONS,
    Extraction,
    ExtractionError,
    ReadContext,
    Segment,
)
from ragspine_nb.extract.fiscal_calendar import stated_calendar
from ragspine_nb.extract.office import cell_locator, merge_table, table_context
from ragspine_nb.extract.pdf_layout import Line, is_value, page_lines
from ragspine_nb.extract.pdf_marks import annotation_screen, page_markings
from ragspine_nb.extract.pdf_statements import prefer_statements, statement_kind
from ragspine_nb.extract.pdf_tables import MAX_LABEL_CHARS, PdfTable, page_tables
from ragspine_nb.extract.scale import SCALE_CAPTION
from ragspine_nb.extract.tables import TableResult, extract_table
from ragspine_nb.profile import DomainProfile
from ragspine_nb.sensitivity import ScreenText

__all__ = ["read_pdf", "reflow", "pages_without_text", "char_boxes"]

#: A line ending in two figures: the page may hold a table (its boxes are read).
_TABLE_HINT = re.compile(r"\d[\d,.]*\)?\s*%?\s+\(?[$€£¥]?\s*\(?\d[\d,.]*\)?\s*%?\s*$", re.M)
_END = re.compile(r"[.!?:;。！？；]['\")”’]*$")
_BULLET = re.compile(r"^\s*(?:[•·▪◦‣●\-–—*]|\(?\d{1,2}[.)]|\([a-z]\))\s")
_SCALE_WORD = re.compile(r"(?i)\b(?:thousands|millions|billions)\b")
#: Baselines above a table's header searched for its caption (a stacked header's lines).
_CAPTION_REACH = 8
#: One table of a page: its locator prefix, its titles and its cells.
_Grid = tuple[str, tuple[str, ...], list[list[str]]]


def _properties(meta: dict[str, Any]) -> list[ScreenText]:
    """Title, subject and keywords of the PDF's document information, as screen text."""
    values = (str(meta.get(k) or "").strip() for k in ("Title", "Subject", "Keywords"))
    text = "\n".join(v for v in values if v)
    return [ScreenText("document properties", text)] if text else []


def reflow(text: str) -> str:
    r"""A page's lines as paragraphs: a line wrapped near the right margin joins the next.

    A line ends its paragraph when it is short (under 60% of the page's longest line:
    a heading, a table row, a paragraph's last line) or ends a sentence before reaching
    90% of it; a bullet starts a new one.

    Examples
    --------
    >>> page = ("Results of Operations\n"
    ...         "Sales rose in every business group this year, led by demand in\n"
    ...         "Health Care. Margins held.\n"
    ...         "Net sales $ 32,765 $ 31,657")
    >>> print(reflow(page))
    Results of Operations
    Sales rose in every business group this year, led by demand in Health Care. Margins held.
    Net sales $ 32,765 $ 31,657
    """
    lines = [" ".join(line.split()) for line in text.replace("\r", "\n").split("\n")]
    lines = [line for line in lines if line]
    if not lines:
        return ""
    longest = max(len(line) for line in lines)
    out: list[str] = [lines[0]]
    for prev, line in zip(lines, lines[1:], strict=False):
        ends = len(prev) < 0.6 * longest or (_END.search(prev) and len(prev) < 0.9 * longest)
        if ends or _BULLET.match(line):
            out.append(line)
        else:
            out[-1] = f"{out[-1]} {line}"
    return "\n".join(out)


def pages_without_text(empty: list[int], total: int) -> str:
    """The report line for pages with no text layer: ``"pages 3, 4 of 10 have ..."``."""
    shown = ", ".join(str(n) for n in empty[:20]) + (" …" if len(empty) > 20 else "")
    return (f"{len(empty)} of {total} pages have no text layer (scanned?): page(s) {shown}; "
            "they were not read (no OCR is installed)")


def _open(pdfium: Any, path: Path) -> Any:
    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise ExtractionError("password-protected PDF; remove the password and ingest "
                                  "again") from exc
        raise ExtractionError(f"cannot read the PDF: {exc}") from exc


def char_boxes(textpage: Any, text: str) -> np.ndarray:
    """Each character's box as an ``(n, 4)`` array: left, bottom, right, top; a space's is 0.

    The values of pypdfium2's ``PdfTextPage.get_charbox``, written by pdfium's own
    function straight into the array (the wrapper's four new doubles and argument
    conversions per character were a quarter of the time: 7.1 s against 9.4 s for the
    10.1 million characters of the 29 FinanceBench dev filings; no tuple is made per
    character either). A space or a line break places nothing: it keeps an empty box, as
    pdfium gives a generated one.
    """
    call = _char_box_call()
    count = textpage.count_chars()
    boxes = np.zeros((count, 4))
    at = boxes.ctypes.data
    handle = ctypes.cast(textpage.raw, ctypes.c_void_p).value
    for i, ch in enumerate(text[:count]):
        if not ch.isspace():
            left = at + 32 * i
            if not call(handle, i, left, left + 16, left + 8, left + 24):
                raise ExtractionError(f"cannot read the PDF: no box for character {i}")
    return boxes


@cache
def _char_box_call() -> Any:
    """``FPDFText_GetCharBox(text_page, index, *left, *right, *bottom, *top) -> int``.

    Made once, with its argument types, so that addresses pass as plain integers without
    the binding's conversions per call.
    """
    pdfium = import_optional("pypdfium2", extra="ingest", feature="Reading .pdf files")
    pointer = ctypes.c_void_p
    return ctypes.CFUNCTYPE(ctypes.c_int, pointer, ctypes.c_int, pointer, pointer, pointer,
                            pointer)(ctypes.cast(pdfium.raw.FPDFText_GetCharBox,
                                                 pointer).value or 0)


def _grids(out: Extraction, textpage: Any, text: str, n: int, pages: int) -> list[_Grid]:
    """The page's tables as ``(locator prefix, titles, grid)``.

    Character boxes are read only when a line of the page ends in figures, and only for
    the characters that are drawn (a space or a line break places nothing: it gets an
    empty box, as pdfium gives a generated one).
    """
    if not _TABLE_HINT.search(text):
        return []
    boxes = char_boxes(textpage, text)
    found = []
    lines = page_lines(text, boxes)
    for k, (table, grid) in enumerate(page_tables(lines, pages), start=1):
        out.screen.append(ScreenText(f"table {k} of page {n}",  # a row is no marking
                                     "\n".join(" ".join(row) for row in grid), markings=False))
        found.append((f"page={n},table={k}", _with_caption(table, lines), grid))
    return found


def _with_caption(table: PdfTable, lines: list[Line]) -> tuple[str, ...]:
    """The table's titles, and the scale caption above its header if they state no scale.

    A statement's title block ends with its scale ("CONSOLIDATED STATEMENTS OF
    STOCKHOLDERS' EQUITY" / "(in thousands, except share data)"); a header stacked over
    several lines ("Accumulated" / "Other" / "Comprehensive" / "Income (Loss)") keeps it
    beyond the titles read, and every amount stayed unscaled. Baselines above the header
    are searched nearest first, up to a line of figures or of prose.
    """
    if any(_SCALE_WORD.search(t) for t in table.titles):
        return table.titles
    top = min([h.y for h in table.header if isinstance(h, Line)] or [table.body[0].y])
    above = sorted((line for line in lines if line.y > top + 1.0), key=lambda line: line.y)
    baselines: list[float] = []
    for line in above:
        if not baselines or line.y - baselines[-1] > 1.0:
            baselines.append(line.y)
        if len(baselines) > _CAPTION_REACH or len(line.text) > MAX_LABEL_CHARS or any(
                is_value(c.text) for c in line.cells[1:]):
            break
        if len(line.cells) == 1 and SCALE_CAPTION.match(line.text.strip()):
            return (*table.titles, line.text.strip())
    return table.titles


def _tables(out: Extraction, grids: list[_Grid], profile: DomainProfile,
            ctx: ReadContext) -> list[tuple[str, TableResult]]:
    """Each table as ``(statement kind, result)``, read once the whole document is known."""
    found = []
    for prefix, titles, grid in grids:
        def locate(r: int, c: int, rk: str, cl: str, p: str = prefix) -> str:
            return cell_locator(p, ("row", "col"), r, c, rk, cl)

        # a filing: deferred tax components are no line items
        result = extract_table(profile, grid, table_context(
            ctx, out.extractor_version, titles, locate, filing=True))
        found.append((statement_kind(titles), result))
    return found


def _merge_tables(out: Extraction, tables: list[tuple[str, TableResult]]) -> None:
    """All tables into ``out``: a primary statement's facts win over other tables'."""
    facts, skipped = prefer_statements([(kind, r.facts) for kind, r in tables])
    for _, result in tables:
        merge_table(out, replace(result, facts=[]))
    out.facts += facts
    out.skipped += skipped


def read_pdf(path: Path, profile: DomainProfile, ctx: ReadContext) -> Extraction:
    """Tables into facts and one narrative segment per page that has text.

    Pages without a text layer are named in a warning.
    """
    pdfium = import_optional("pypdfium2", extra="ingest", feature="Reading .pdf files")
    doc = _open(pdfium, path)
    try:
        meta = doc.get_metadata_dict()
        out = Extraction(READER_VERSIONS[".pdf"], title=str(meta.get("Title") or path.stem),
                         screen=_properties(meta))
        empty: list[int] = []
        grids: list[_Grid] = []
        total = len(doc)
        for n in range(1, total + 1):
            page = doc[n - 1]
            textpage = page.get_textpage()
            try:
                out.screen += annotation_screen(pdfium.raw, page, n)
                text = textpage.get_text_range()
                if not text.strip():
                    empty.append(n)
                    continue
                marks = page_markings(textpage, text, page.get_width())
                if marks:
                    out.screen.append(ScreenText(f"page {n}", "\n".join(marks)))
                grids += _grids(out, textpage, text, n, total)
                out.segments.append(Segment(reflow(text), f"page={n}"))
            finally:
                textpage.close()
                page.close()
    except pdfium.PdfiumError as exc:
        raise ExtractionError(f"cannot read the PDF: {exc}") from exc
    finally:
        doc.close()
    # the fiscal calendar the filing states (anywhere in it) dates its columns
    out.calendar = ctx.calendar or stated_calendar(" ".join(
        " ".join(s.text.split()) for s in out.segments))
    _merge_tables(out, _tables(out, grids, profile, replace(ctx, calendar=out.calendar)))
    if empty:
        out.warnings.append(pages_without_text(empty, total))
    return out
