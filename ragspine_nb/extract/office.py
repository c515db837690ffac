"""Office files through their real extractors: python-pptx, openpyxl, python-docx.

Locators point at the exact cell or text: ``slide=2,table=1,row=REVENUE,col=FY2024``,
``slide=5,chart=1,series=OPERATING_PROFIT,cat=2025H1``, ``sheet=Summary!C4``,
``table=1,row=REVENUE,col=FY2024`` (docx), and for narrative ``slide=4``,
``slide=4,notes`` or paragraph ranges.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ragspine_nb._optional import import_optional
from ragspine_nb.extract.base import (
    READER_VERSIONS,
    Extraction,
    ExtractionError,
    ReadContext,
    Segment,
    exception_reason,
)
from ragspine_nb.extract.limits import LimitHit
from ragspine_nb.extract.plain import column_letter
from ragspine_nb.extract.screen import (
    RowScreen,
    banner_rows,
    docx_screen,
    pptx_screen,
    properties_screen,
    table_screen,
)
from ragspine_nb.extract.streaming import (
    Locate,
    TableBatch,
    TableBudget,
    iter_table_batches,
    read_tables,
)
from ragspine_nb.extract.tables import (
    TableContext,
    TableResult,
    cell_text,
    extract_table,
)
from ragspine_nb.extract.zipguard import check_package
from ragspine_nb.profile import DomainProfile
from ragspine_nb.sensitivity import ScreenText
from ragspine_nb.vocabulary import combine

__all__ = ["read_pptx", "read_xlsx", "read_docx", "cell_locator", "merge_table", "table_context",
           "paragraph_styles", "paragraph_texts", "table_rows"]


def table_context(ctx: ReadContext, version: str, titles: tuple[str, ...],
                  locate: Any, filing: bool = False) -> TableContext:
    """The :class:`TableContext` of one table of a file read with ``ctx``."""
    return TableContext(
        doc_id=ctx.doc_id, titles=tuple(t for t in titles if t), locate=locate,
        entity=ctx.entity, source_file_hash=ctx.source_file_hash, extractor_version=version,
        mapping_version=ctx.mapping_version, valid_as_of=ctx.valid_as_of, period=ctx.period,
        period_source=ctx.period_source, filing=filing, calendar=ctx.calendar)


def cell_locator(prefix: str, kind: tuple[str, str], r: int, c: int, rk: str, cl: str) -> str:
    """``prefix,row=KEY,col=LABEL``; a header cell omits the row, a row label the column."""
    parts = [prefix]
    if rk or r:
        parts.append(f"{kind[0]}={rk}" if rk else f"r={r + 1}")
    if cl or c:
        parts.append(f"{kind[1]}={cl}" if cl else f"c={c + 1}")
    return ",".join(parts)


def merge_table(out: Extraction, result: TableResult) -> None:
    """Add one table's facts, skips, unscaled amounts and vocabulary to ``out``."""
    out.facts += result.facts
    out.skipped += result.skipped
    out.unscaled += result.unscaled
    out.unscaled_figures += result.unscaled_figures
    out.undated += result.undated
    if result.vocabulary:
        out.vocabulary = combine(out.vocabulary, result.vocabulary)


# ---------------------------------------------------------------------------- pptx
def _shapes(shapes: Any) -> Iterator[Any]:
    """Shapes in reading order, descending into groups."""
    for shape in shapes:
        if getattr(shape, "shape_type", None) is not None and hasattr(shape, "shapes"):
            yield from _shapes(shape.shapes)
        else:
            yield shape


def read_pptx(path: Path, profile: DomainProfile, ctx: ReadContext) -> Extraction:
    """Tables, chart series, text frames and speaker notes of a ``.pptx`` deck."""
    pptx = import_optional("pptx", extra="ingest", feature="Reading .pptx files")
    check_package(path, ctx.limits)
    try:
        prs = pptx.Presentation(str(path))
    except MemoryError:
        raise
    except Exception as exc:  # python-pptx raises several unrelated types for bad packages
        raise ExtractionError(f"cannot open the deck: {exception_reason(exc, 'the deck')}") \
            from exc
    out = Extraction(READER_VERSIONS[".pptx"], title=str(prs.core_properties.title or ""),
                     screen=pptx_screen(prs))
    for s, slide in enumerate(prs.slides, start=1):
        title_shape = slide.shapes.title
        title = title_shape.text_frame.text.strip() if title_shape is not None else ""
        title_id = title_shape.shape_id if title_shape is not None else None
        out.title = out.title or title
        texts: list[str] = []
        tables = charts = 0
        for shape in _shapes(slide.shapes):
            if getattr(shape, "has_table", False):
                tables += 1
                rows = [[cell.text for cell in row.cells] for row in shape.table.rows]
                prefix = f"slide={s},table={tables}"
                out.screen.append(table_screen(f"table {tables} of slide {s}", rows))
                out.screen += banner_rows(f"table {tables} of slide {s}", rows)

                def locate(r: int, c: int, rk: str, cl: str, p: str = prefix) -> str:
                    return cell_locator(p, ("row", "col"), r, c, rk, cl)

                merge_table(out, extract_table(profile, rows, table_context(
                    ctx, out.extractor_version, (title,), locate)))
            elif getattr(shape, "has_chart", False):
                charts += 1
                chart = shape.chart
                chart_title = (chart.chart_title.text_frame.text
                               if chart.has_title and chart.chart_title.has_text_frame else "")
                plot = chart.plots[0]
                rows = [["", *[str(c) for c in plot.categories]]]
                rows += [[series.name, *series.values] for series in plot.series]
                prefix = f"slide={s},chart={charts}"

                def locate_chart(r: int, c: int, rk: str, cl: str, p: str = prefix) -> str:
                    return cell_locator(p, ("series", "cat"), r, c, rk, cl)

                merge_table(out, extract_table(profile, rows, table_context(
                    ctx, out.extractor_version, (chart_title, title), locate_chart)))
            elif getattr(shape, "has_text_frame", False) and shape.shape_id != title_id:
                text = shape.text_frame.text.strip()
                if text:
                    texts.append(text)
        if texts:
            out.segments.append(Segment("\n".join([title, *texts]).strip(), f"slide={s}"))
        elif title:
            out.screen.append(ScreenText(f"title of slide {s}", title))
        if slide.has_notes_slide:
            notes = slide.notes_slide.notes_text_frame.text.strip()
            if notes:
                out.segments.append(Segment(notes, f"slide={s},notes"))
    return out


# ---------------------------------------------------------------------------- xlsx
def _cell_value(cell: Any) -> object:
    value = cell.value
    if isinstance(value, int | float) and not isinstance(value, bool) \
            and "%" in str(cell.number_format):
        return f"{round(value * 100, 10):g}%"
    return value


def _sheet_rows(sheet: Any) -> Iterator[tuple[object, ...]]:
    """The rows of a read-only sheet as stored, ignoring its ``<dimension>``.

    A workbook can claim any size (one cell at ``XFD1048576`` makes the dimension 17
    billion cells): rows missing from the file come back empty and each row ends at its
    own last stored cell, so only cells that exist (and the gaps inside a row) are read.
    """
    sheet.reset_dimensions()
    for row in sheet.iter_rows():
        yield tuple(_cell_value(c) for c in row)


def read_xlsx(path: Path, profile: DomainProfile, ctx: ReadContext) -> Extraction:
    """Every table block of every sheet (cached values; percent formats become ``%``).

    Sheets are streamed in openpyxl's read-only mode; the per-document limits of
    ``ctx.limits`` apply. Locators are ``sheet=<name>!<A1>``.
    """
    openpyxl = import_optional("openpyxl", extra="ingest", feature="Reading .xlsx files")
    check_package(path, ctx.limits)
    try:
        with _no_dimension_scan():
            wb = openpyxl.load_workbook(str(path), data_only=True, read_only=True)
    except MemoryError:
        raise
    except Exception as exc:  # openpyxl raises KeyError/InvalidFileException/... on bad files
        raise ExtractionError(
            f"cannot open the workbook: {exception_reason(exc, 'the workbook')}") from exc
    out = Extraction(READER_VERSIONS[".xlsx"], title=str(wb.properties.title or path.stem),
                     screen=properties_screen(wb.properties))
    budget = TableBudget(ctx.limits)
    cells = RowScreen(profile, "cells")
    try:
        for sheet in wb.worksheets:
            out.screen.append(ScreenText("sheet name", str(sheet.title)))
            _read_sheet(sheet, profile, ctx, out.extractor_version, budget, cells)
            if budget.stopped:
                break
    finally:
        wb.close()
    out.facts, out.skipped, out.limit_hits = budget.facts, budget.skipped, budget.finish()
    out.vocabulary, out.unscaled = budget.vocabulary, budget.unscaled
    out.unscaled_figures, out.undated = budget.unscaled_figures, budget.undated
    out.screen += cells.found
    return out


@contextlib.contextmanager
def _no_dimension_scan() -> Iterator[None]:
    """Open read-only sheets without looking for their ``<dimension>``.

    openpyxl looks for it when it opens a sheet and, in a sheet that has none, parses
    the whole sheet to find that out (keeping an emptied element per row: 30 million rows
    took minutes and gigabytes before a cell was read). The readers never use the
    dimension (:func:`_sheet_rows` resets it), so the sheets are opened without it.
    """
    excel: Any = importlib.import_module("openpyxl.reader.excel")
    original = excel.ReadOnlyWorksheet
    excel.ReadOnlyWorksheet = type("ReadOnlyWorksheet", (original,),
                                   {"_get_size": lambda self: None})
    try:
        yield
    finally:
        excel.ReadOnlyWorksheet = original


def _read_sheet(sheet: Any, profile: DomainProfile, ctx: ReadContext, version: str,
                budget: TableBudget, cells: RowScreen) -> None:
    name = str(sheet.title)

    def cell(r: int, c: int) -> str:
        return f"sheet={name}!{column_letter(c)}{r + 1}"

    def context(batch: TableBatch, locate: Locate) -> TableContext:
        return table_context(ctx, version, (*batch.titles, name), locate)

    rows = budget.counted(cells.tap(_sheet_rows(sheet), f"sheet {name}"), lambda r: cell(r, 0))
    try:
        read_tables(profile, iter_table_batches(rows), cell, context, budget)
    except MemoryError:
        raise
    except Exception as exc:  # the sheet's XML is parsed lazily, while it is read
        raise ExtractionError(f"cannot read sheet {name!r}: {type(exc).__name__}: "
                              f"{exception_reason(exc, 'the sheet')}") from exc


# ---------------------------------------------------------------------------- docx
def read_docx(path: Path, profile: DomainProfile, ctx: ReadContext) -> Extraction:
    """Paragraphs (one narrative segment, ``para=a-b``) and tables of a ``.docx``.

    Linear in the document: paragraph styles are resolved from one table of the styles
    part, and table cells (merged ones included) from the row above, never by the
    per-paragraph and per-cell searches of python-docx. Table cells count against
    ``max_cells_per_doc``.
    """
    docx = import_optional("docx", extra="ingest", feature="Reading .docx files")
    check_package(path, ctx.limits)
    try:
        document = docx.Document(str(path))
    except MemoryError:
        raise
    except Exception as exc:  # python-docx raises PackageNotFoundError, KeyError, ...
        raise ExtractionError(
            f"cannot open the document: {exception_reason(exc, 'the document')}") from exc
    style_name = paragraph_styles(document.styles.element)
    paragraphs: list[str] = []
    heading = ""
    text_of = paragraph_texts()
    for p in document.element.body.p_lst:
        text = text_of(p)
        line = text.replace("\n", " ").strip()
        if line:
            paragraphs.append(line)
            if not heading and style_name(p.style).startswith(("Heading", "Title")):
                heading = text.strip()
    out = Extraction(READER_VERSIONS[".docx"], title=str(document.core_properties.title or heading),
                     screen=docx_screen(document))
    if paragraphs:
        out.segments.append(Segment("\n".join(paragraphs)))
    cells = 0
    for t, table in enumerate(document.tables, start=1):
        rows, cells = table_rows(table, cells, ctx.limits.max_cells_per_doc)
        if rows is None:
            out.limit_hits.append(LimitHit(
                "max_cells_per_doc", ctx.limits.max_cells_per_doc, f"table={t}",
                "this table and the tables after it were not read"))
            break
        prefix = f"table={t}"

        def locate(r: int, c: int, rk: str, cl: str, p: str = prefix) -> str:
            return cell_locator(p, ("row", "col"), r, c, rk, cl)

        merge_table(out, extract_table(profile, rows, table_context(ctx, out.extractor_version,
                                                          (out.title,), locate)))
    return out


def paragraph_styles(styles: Any) -> Callable[[str | None], str]:
    """Paragraph style id → the style's name, resolved as python-docx resolves it, in O(1).

    The first style with an id is that id's; an id naming no paragraph style (or none
    given) is the document's default paragraph style (the last one marked default).
    ``Paragraph.style`` gives the same names but scans every style twice per paragraph.
    """
    from docx.enum.style import WD_STYLE_TYPE
    from docx.styles import BabelFish

    first: dict[str, Any] = {}
    default = ""
    for style in styles.style_lst:
        first.setdefault(style.styleId, style)
        if style.type == WD_STYLE_TYPE.PARAGRAPH and style.default:
            default = _style_ui_name(style, BabelFish)
    names = {sid: _style_ui_name(style, BabelFish) for sid, style in first.items()
             if style.type == WD_STYLE_TYPE.PARAGRAPH}

    def name(style_id: str | None) -> str:
        return names.get(style_id, default) if style_id is not None else default

    return name


def paragraph_texts() -> Callable[[Any], str]:
    """The text of a ``w:p`` element, as python-docx's ``Paragraph.text`` gives it.

    The same runs, hyperlinks and run parts (text, tabs, breaks...), found with XPath
    expressions compiled once: python-docx compiles two per paragraph.
    """
    from lxml import etree  # type: ignore[import-untyped]

    ns = {"w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main"}
    parts = etree.XPath("w:r | w:hyperlink", namespaces=ns)
    runs = etree.XPath("w:r", namespaces=ns)
    inner = etree.XPath("w:br | w:cr | w:noBreakHyphen | w:ptab | w:t | w:tab", namespaces=ns)
    hyperlink = f"{{{ns['w']}}}hyperlink"

    def run_text(r: Any) -> str:
        return "".join(str(e) for e in inner(r))

    def text(p: Any) -> str:
        return "".join("".join(map(run_text, runs(e))) if e.tag == hyperlink else run_text(e)
                       for e in parts(p))

    return text


def _style_ui_name(style: Any, babel: Any) -> str:
    return str(babel.internal2ui(style.name_val)) if style.name_val is not None else ""


def table_rows(table: Any, cells: int, max_cells: int
               ) -> tuple[list[list[str]] | None, int]:
    """The cell texts of a python-docx table by row, and the cells read so far.

    Each row lists its cells as python-docx's ``row.cells`` does (a cell spanning
    columns repeated, a vertically merged cell taking the text of the one above) in
    one pass: a merged cell is found in the row above by its grid offset. A span is
    cut at the table's grid width. ``None`` when ``cells`` would pass ``max_cells``.
    """
    text_of = paragraph_texts()
    tbl = table._tbl
    grid = tbl.tblGrid
    width = max(len(grid.gridCol_lst) if grid is not None else 0, 1)
    rows: list[list[str]] = []
    above: dict[int, str] = {}
    for tr in tbl.tr_lst:
        here: dict[int, str] = {}
        row: list[str] = []
        offset = tr.grid_before
        for tc in tr.tc_lst:
            span = max(1, min(tc.grid_span, width - offset))
            text = above.get(offset, "") if tc.vMerge == "continue" \
                else cell_text("\n".join(text_of(p) for p in tc.p_lst))
            here[offset] = text
            row += [text] * span
            offset += span
        cells += max(len(row), 1)
        if cells > max_cells:
            return None, cells
        rows.append(row)
        above = here
    return rows, cells
