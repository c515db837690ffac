"""Office files through their real extractors: python-pptx, openpyxl, python-docx.

Locators point at the exact cell or text: ``slide=2,table=1,row=REVENUE,col=FY2024``,
``slide=5,chart=1,series=OPERATING_PROFIT,cat=2025H1``, ``sheet=Summary!C4``,
``table=1,row=REVENUE,col=FY2024`` (docx), and for narrative ``slide=4``,
``slide=4,notes`` or paragraph ranges.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ragspine_nb._optional import import_optional
from ragspine_nb.extract.base import (
    READER_VERSIONS,
    Extraction,
    ExtractionError,
    ReadContext,
    Segment,
)
from ragspine_nb.extract.plain import column_letter
from ragspine_nb.extract.screen import (
    RowScreen,
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
from ragspine_nb.profile import DomainProfile
from ragspine_nb.sensitivity import ScreenText
from ragspine_nb.vocabulary import combine

__all__ = ["read_pptx", "read_xlsx", "read_docx", "cell_locator", "merge_table", "table_context"]


def table_context(ctx: ReadContext, version: str, titles: tuple[str, ...],
                  locate: Any, tax_components: bool = False) -> TableContext:
    """The :class:`TableContext` of one table of a file read with ``ctx``."""
    return TableContext(
        doc_id=ctx.doc_id, titles=tuple(t for t in titles if t), locate=locate,
        entity=ctx.entity, source_file_hash=ctx.source_file_hash, extractor_version=version,
        mapping_version=ctx.mapping_version, valid_as_of=ctx.valid_as_of, period=ctx.period,
        period_source=ctx.period_source, tax_components=tax_components)


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
    try:
        prs = pptx.Presentation(str(path))
    except Exception as exc:  # python-pptx raises several unrelated types for bad packages
        raise ExtractionError(f"cannot open the deck: {exc}") from exc
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
    try:
        wb = openpyxl.load_workbook(str(path), data_only=True, read_only=True)
    except Exception as exc:  # openpyxl raises KeyError/InvalidFileException/... on bad files
        raise ExtractionError(f"cannot open the workbook: {exc}") from exc
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
        raise ExtractionError(f"cannot read sheet {name!r}: {type(exc).__name__}: {exc}") \
            from exc


# ---------------------------------------------------------------------------- docx
def read_docx(path: Path, profile: DomainProfile, ctx: ReadContext) -> Extraction:
    """Paragraphs (one narrative segment, ``para=a-b``) and tables of a ``.docx``."""
    docx = import_optional("docx", extra="ingest", feature="Reading .docx files")
    try:
        document = docx.Document(str(path))
    except Exception as exc:  # python-docx raises PackageNotFoundError, KeyError, ...
        raise ExtractionError(f"cannot open the document: {exc}") from exc
    paragraphs = [p.text.replace("\n", " ").strip() for p in document.paragraphs]
    paragraphs = [p for p in paragraphs if p]
    heading = next((p.text.strip() for p in document.paragraphs
                    if p.style is not None and str(p.style.name).startswith(("Heading", "Title"))
                    and p.text.strip()), "")
    out = Extraction(READER_VERSIONS[".docx"], title=str(document.core_properties.title or heading),
                     screen=docx_screen(document))
    if paragraphs:
        out.segments.append(Segment("\n".join(paragraphs)))
    for t, table in enumerate(document.tables, start=1):
        rows = [[cell_text(cell.text) for cell in row.cells] for row in table.rows]
        prefix = f"table={t}"

        def locate(r: int, c: int, rk: str, cl: str, p: str = prefix) -> str:
            return cell_locator(p, ("row", "col"), r, c, rk, cl)

        merge_table(out, extract_table(profile, rows, table_context(ctx, out.extractor_version,
                                                          (out.title,), locate)))
    return out
