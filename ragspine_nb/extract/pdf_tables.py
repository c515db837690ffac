"""Tables of a PDF page from its lines (pure functions over :mod:`.pdf_layout` lines).

A statement table is a run of lines that end in figures ("Depreciation and amortization
1,488 1,544 1,474"), with section lines between them ("Cash Flows from Investing
Activities"), header lines above ("(Millions) 2018 2017 2016", "Years ended December 31")
and title lines above those ("Consolidated Statement of Cash Flows"). The steps:

1. :func:`merge_marks` — a lone ``$`` joins the figure after it, a lone ``%`` or ``)`` the
   figure before it.
2. :func:`find_runs` — the runs of figure lines, each with its header and title lines.
3. :func:`value_columns` — the figures' columns by their right edges (figures are right
   aligned); a column most rows leave empty is a footnote mark, read with the label.
4. :func:`table_grid` — header rows (each header cell over the column it centres on, a
   spanning one in its first column; stacked and capped heads as :mod:`.pdf_heads`
   reads them), then one row per label: a label wrapped over two
   lines is joined, a figure line with no label completes the label above it.
5. :func:`page_references` — a table of contents or a page footer ("Notes to Consolidated
   Financial Statements 60", "2023 FORM 10-K 73") is no table of figures.

The grid goes through the one table pipeline (:func:`~ragspine_nb.extract.tables.
extract_table`) like a spreadsheet's cells.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine_nb.extract.pdf_heads import (
    MAX_CAP_LINES,
    capped,
    caps,
    group_line,
    head_block,
    header_rows,
    named_block,
    names_columns,
    stacked_heads,
    top_down,
)
from ragspine_nb.extract.pdf_layout import Cell, Line, is_period_cell, is_value
from ragspine_nb.extract.rows import shown_label
from ragspine_nb.extract.scale import SCALE_CAPTION

__all__ = ["PdfTable", "merge_marks", "find_runs", "value_columns", "table_grid",
           "page_references", "page_tables", "COLUMN_GAP", "MAX_HEADER_LINES", "MAX_TITLE_LINES"]

#: Right edges further apart than this (points) are different columns.
COLUMN_GAP = 12.0
#: Lines above a table's first figure line read as its header / its titles.
MAX_HEADER_LINES = 4
MAX_TITLE_LINES = 3
#: A line longer than this (characters) with no figure is prose: it ends a table.
MAX_LABEL_CHARS = 110
_CURRENCY = re.compile(r"^[$€£¥]$")
#: a column's "not applicable" / "not meaningful" in place of a figure
_NOT_APPLICABLE = re.compile(r"(?i)n/?a|nm|n\.m\.?")
_OPEN_END = re.compile(r"(?i)(?:\b(?:to|of|and|or|for|from|in|on|by|with|the)|[,&])\s*$")
_LAST_SENTENCE = re.compile(r"(?<=[.;:])\s+")
_PAGE_NUMBER = re.compile(r"^\d{1,4}$")


@dataclass(frozen=True)
class PdfTable:
    """One table of a page: its titles (nearest first), header lines and body lines."""

    titles: tuple[str, ...]
    header: tuple[Line, ...]
    body: tuple[Line, ...]


def merge_marks(line: Line) -> Line:
    """``$`` joined to the figure after it, ``%`` / ``)`` to the figure before it.

    Dot leaders drawn apart from their label are no cell.

    >>> line = Line((Cell("Sales", 0, 20), Cell("........", 22, 38), Cell("$", 40, 44),
    ...              Cell("5,363", 60, 80), Cell("12.5", 100, 110), Cell("%", 111, 115)), 0.0)
    >>> [c.text for c in merge_marks(line).cells]
    ['Sales', '$ 5,363', '12.5 %']
    """
    out: list[Cell] = []
    pending: Cell | None = None
    for cell in line.cells:
        if not shown_label(cell.text) and len(line.cells) > 1:
            continue  # dot leaders drawn apart from their label ("Backlog  ........  75")
        if pending is not None and is_value(cell.text):
            cell = Cell(f"{pending.text} {cell.text}", pending.x0, cell.x1)
            pending = None
        elif pending is not None:
            out.append(pending)
            pending = None
        if _CURRENCY.match(cell.text):
            pending = cell
        elif cell.text in ("%", ")") and out and is_value(out[-1].text):
            out[-1] = Cell(f"{out[-1].text} {cell.text}".replace(" )", ")"), out[-1].x0, cell.x1)
        else:
            out.append(cell)
    if pending is not None:
        out.append(pending)
    return Line(tuple(out), line.y)


def _in_column(text: str) -> bool:
    """A figure, or a column's "n/a" in its place (never a piece of the row's label)."""
    return is_value(text) or bool(_NOT_APPLICABLE.fullmatch(text))


def _figures(line: Line) -> list[Cell]:
    """The figures of a line: value cells after its first cell (or all, with no label)."""
    cells = line.cells
    first = 0 if is_value(cells[0].text) else 1
    return [c for c in cells[first:] if _in_column(c.text)]


def _is_row(line: Line) -> bool:
    """A body line: figures after a label, or figures alone (a wrapped label's values).

    The label may be drawn in pieces wider apart than a word gap ("Deferred  revenue
    balance(s)"): every text cell comes before the first figure.
    """
    figures = _figures(line)
    if not any(is_value(c.text) for c in figures) or all(is_period_cell(c.text)
                                                         for c in figures):
        return False
    first = next(k for k, c in enumerate(line.cells) if k and _in_column(c.text)) \
        if not is_value(line.cells[0].text) else 0
    return len(figures) == len(line.cells) - first


def _is_label(line: Line) -> bool:
    """A section or wrapped-label line inside a table: one short text cell, no sentence."""
    text = line.cells[0].text
    return len(line.cells) == 1 and not is_value(text) and len(text) <= MAX_LABEL_CHARS \
        and not text.endswith(".")


def _body_row(lines: Sequence[Line], i: int) -> bool:
    """A figure line; figures alone only complete the label line above them.

    (A page number under a sentence is no row.)
    """
    line = lines[i]
    if not _is_row(line):
        return False
    return _figures(line) != list(line.cells) or (i > 0 and _is_label(lines[i - 1]))


def _is_header(line: Line) -> bool:
    """A header line: short cells naming periods, or a unit caption alone.

    A caption may lead a period line or stand alone ("(Millions)", "(Dollars in
    thousands, except per share data)").
    """
    if len(line.cells) == 1 and SCALE_CAPTION.match(line.cells[0].text):
        return True
    cells = line.cells[1:] if len(line.cells) > 1 else line.cells
    return len(line.text) <= 2 * MAX_LABEL_CHARS and \
        any(is_period_cell(c.text) for c in cells) and not _is_row(line)


def _heads(lines: Sequence[Line], start: int, body: Sequence[Line], left: float
           ) -> tuple[int, Line | None]:
    """Where the header's stacked column names begin above ``start``, and those names.

    (``start`` and ``None`` when the lines above the body are no column names: see
    :mod:`.pdf_heads`.)
    """
    k = head_block(lines, start, _is_header)
    if k == start:  # no period line above: the names alone, when they name every column
        k = named_block(lines, start, body[0].y if body else 0.0)
    if k == start:
        return start, None
    heads = stacked_heads(lines[k:start])
    return (k, heads) if names_columns(heads, value_columns(body), left) else (start, None)


def _above(lines: Sequence[Line], start: int, body: Sequence[Line]
           ) -> tuple[tuple[Line, ...], tuple[str, ...]]:
    """Header lines right above ``start`` (top down) and title lines above them."""
    left = _left(body)
    heads_at, heads = _heads(lines, start, body, left)
    h = heads_at
    while h > 0 and heads_at - h < MAX_HEADER_LINES and _is_header(lines[h - 1]):
        h -= 1
    header = top_down(lines[h:heads_at])
    c = h
    while header and c > 0 and h - c < MAX_CAP_LINES and caps(lines[c - 1], header[0], left):
        c -= 1
    if c < h:  # the first words of the top line's column heads, drawn above it
        header, h = (capped(lines[c:h], header[0]), *header[1:]), c
    elif header and h > 0 and group_line(lines[h - 1], header[0], left):
        header, h = (lines[h - 1], *header), h - 1  # the groups of the top line's columns
    titles: list[str] = []
    t = h
    while t > 0 and len(titles) < MAX_TITLE_LINES:
        line = lines[t - 1]
        if _is_row(line) or len(line.text) > MAX_LABEL_CHARS:
            break
        titles.append(line.text)
        t -= 1
    above = lines[t - 1].text if t > 0 else ""
    if titles and t > 0 and not _is_row(lines[t - 1]) and (
            titles[-1][:1].islower() or above.count("(") > above.count(")")):
        # "liabilities were comprised of the following:" ends a sentence of the prose line
        # above ("… Deferred tax assets and"), "Yen):" closes its parenthesis ("… as
        # follows (in millions, except"): the title is that sentence whole
        titles[-1] = f"{_LAST_SENTENCE.split(above)[-1]} {titles[-1]}"
    return (*header, *([heads] if heads else [])), tuple(titles)


def find_runs(lines: Sequence[Line]) -> list[PdfTable]:
    """The tables of a page: runs of figure lines (section lines may sit between them).

    A run ends at prose (a long line with no figure), at two label lines in a row that
    no figure line follows, or at a new header line.
    """
    tables: list[PdfTable] = []
    i = 0
    while i < len(lines):
        if not _body_row(lines, i):
            i += 1
            continue
        start = k = i
        while k > 0 and i - k < 3 and _is_label(lines[k - 1]) and not _is_header(lines[k - 1]):
            k -= 1
        if k < i and k > 0 and _is_header(lines[k - 1]):
            start = k  # section lines right under the header ("Assets", "Current assets")
        end = i
        j = i + 1
        while j < len(lines):
            if _body_row(lines, j):
                end = j
            elif not _is_label(lines[j]) or _is_header(lines[j]) or j - end > 2:
                break
            j += 1
        header, titles = _above(lines, start, lines[start:end + 1])
        tables.append(PdfTable(titles, header, tuple(lines[start:end + 1])))
        i = end + 1
    return tables


def value_columns(body: Sequence[Line]) -> list[float]:
    """The right edges of the body's figure columns, left to right.

    A column that fewer than a fifth of the figure lines use (and one line at least
    when there are few) is no column: a footnote mark beside a label, a stray figure.
    """
    edges = sorted(c.x1 for line in body for c in _figures(line))
    if not edges:
        return []
    groups: list[list[float]] = [[edges[0]]]
    for x in edges[1:]:
        if x - groups[-1][-1] > COLUMN_GAP:
            groups.append([])
        groups[-1].append(x)
    rows = sum(1 for line in body if _figures(line))
    keep = max(1.0, rows / 5)
    return [statistics.median(g) for g in groups if len(g) >= keep]


def _left(body: Sequence[Line]) -> float:
    """Where the figures begin: a header cell ending left of it is the unit caption."""
    figure_x0 = [c.x0 for line in body for c in _figures(line)]
    return min(figure_x0) - COLUMN_GAP if figure_x0 else 0.0


def _column_of(cell: Cell, columns: Sequence[float]) -> int | None:
    best = min(range(len(columns)), key=lambda k: abs(columns[k] - cell.x1))
    return best if abs(columns[best] - cell.x1) <= COLUMN_GAP else None


def _row_cells(line: Line, columns: Sequence[float]) -> list[str]:
    row = [""] * (len(columns) + 1)
    label: list[str] = []
    for cell in line.cells:
        k = _column_of(cell, columns) if _in_column(cell.text) else None
        if k is None or row[k + 1]:
            label.append(cell.text)
        else:
            row[k + 1] = cell.text
    row[0] = " ".join(label)
    return row


def _joins(prev: list[str], row: list[str]) -> bool:
    """Whether ``row`` continues the label-only row ``prev`` (a label wrapped in two).

    It does when it starts in lower case, or when ``prev`` breaks off after a word that
    needs one more ("Sales through Direct to" / "Consumer").
    """
    if any(prev[1:]):
        return False
    if not row[0]:
        return True  # figures alone under a label: that label's figures
    return row[0][:1].islower() or bool(_OPEN_END.search(prev[0]))


def _captions_joined(header: list[list[str]]) -> list[list[str]]:
    """Header rows holding only a caption, joined into the first row over the columns.

    A caption ("(Millions)", "December 31, 2017") alone on a row is no row label.
    """
    captions = [row[0] for row in header if not any(row[1:])]
    rows = [row for row in header if any(row[1:])]
    if not captions:
        return header
    if not rows:
        return [[" ".join(captions), *header[0][1:]]]
    rows[0] = [" ".join([*captions, rows[0][0]]).strip(), *rows[0][1:]]
    return rows


def table_grid(table: PdfTable) -> list[list[str]]:
    """The table's cells: header rows, then one row per label (see the module docstring).

    The table's lines are read as :func:`merge_marks` leaves them (:func:`find_runs`
    is given merged lines).

    >>> header = Line((Cell("(Millions)", 10, 50), Cell("2018", 190, 210),
    ...                Cell("2017", 260, 280)), 700.0)
    >>> body = (Line((Cell("Sales", 10, 40), Cell("1,200", 200, 220),
    ...               Cell("(900)", 270, 292)), 690.0),
    ...         Line((Cell("Proceeds from sale of businesses, net", 10, 150),), 680.0),
    ...         Line((Cell("of cash sold", 10, 60),), 672.0),
    ...         Line((Cell("846", 205, 220), Cell("1,065", 265, 290)), 664.0))
    >>> table_grid(PdfTable(("Statement of Cash Flows",), (header,), body))
    ... # doctest: +NORMALIZE_WHITESPACE
    [['(Millions)', '2018', '2017'], ['Sales', '1,200', '(900)'],
     ['Proceeds from sale of businesses, net of cash sold', '846', '1,065']]
    """
    body = table.body
    columns = value_columns(body)
    if not columns:
        return []
    left = _left(body)
    grid = _captions_joined(header_rows(table.header, columns, left))
    rows: list[list[str]] = []
    for line in body:
        row = _row_cells(line, columns)
        if rows and _joins(rows[-1], row):
            rows[-1] = [" ".join(x for x in (rows[-1][0], row[0]) if x), *row[1:]]
        else:
            rows.append(row)
    return grid + rows


def page_references(grid: Sequence[Sequence[str]], pages: int) -> bool:
    """Whether the grid's one figure column holds page numbers: a contents list or a footer.

    Every figure is a whole number without separators, none beyond the document's
    ``pages``, in ascending order, and no cell over the column names a period (a year
    is beyond the pages of any filing).

    >>> page_references([["Report of Independent Auditors", "53"],
    ...                  ["Notes to Consolidated Financial Statements", "60"]], 160)
    True
    >>> page_references([["2023 FORM 10-K", "73"]], 160)
    True
    >>> page_references([["", "2018"], ["Stores", "53"]], 160)
    False
    >>> page_references([["Trademarks", "8"], ["Other", "5"]], 160)
    False
    >>> page_references([["1. Financial Statements:", "Page No."], ["Balance Sheets", "46"]], 160)
    True
    """
    if not grid or len(grid[0]) != 2:
        return False
    # a column head naming the pages ("Page No.") holds no figure
    first = next((k for k, row in enumerate(grid) if any(ch.isdigit() for ch in row[1])), 0)
    figures = [row[1] for row in grid[first:] if row[1]]
    if not figures or not all(_PAGE_NUMBER.match(f) for f in figures):
        return False
    numbers = [int(f) for f in figures]
    return numbers == sorted(numbers) and numbers[-1] <= pages


def page_tables(lines: Sequence[Line], pages: int = 0
                ) -> list[tuple[PdfTable, list[list[str]]]]:
    """Every table of a page with its grid (tables whose grid is empty are left out).

    With the document's number of ``pages``, tables of page numbers
    (:func:`page_references`) are left out too.
    """
    found: list[tuple[PdfTable, list[list[str]]]] = []
    for table in find_runs([merge_marks(line) for line in lines]):
        grid = table_grid(table)
        if not grid or len(grid[0]) < 2 or (pages and page_references(grid, pages)):
            continue
        if not table.header and found and found[-1][0].header and \
                len(found[-1][1][0]) == len(grid[0]):
            # the page's table goes on under section lines ("Equity"): its header holds
            prev, prev_grid = found[-1]
            table = PdfTable(table.titles, prev.header, table.body)
            grid = prev_grid[:len(prev.header)] + grid
        found.append((table, grid))
    return found
