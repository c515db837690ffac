"""A PDF table's column heads as filings draw them: stacked, capped, out of order, centred.

An earnings release's reconciliation puts a period over a group of columns and names
each column under it in words stacked over several lines::

              Twelve Months Ended June 30, 2022     Twelve Months Ended June 30, 2023
                                Net     EPS                           Net     EPS
                                      (Diluted                              (Diluted
    ($ million)   EBITDA  EBIT Income  cents)        EBITDA  EBIT  Income    cents)
    Net income attributable      805  805   805  52.9   1,048 1,048  1,048  70.5

pdfium's text order gives those words as a dozen lines of one or two words each, on
baselines a few points apart and out of order. Such lines, between a period header
line and the table's first figure line, are the columns' names: the words that overlap
one another horizontally are one column's name, read top down
(:func:`stacked_heads`), and the table has two header rows, the periods and the
names — as a spreadsheet with the same two rows gives. Without them the words were read
as the table's titles and the table had no header: no figure of it was stored.

The other header rules of the same page reading: header lines are read top down, one
line per baseline (:func:`top_down`); a group's first words drawn above the header's
top line ("Property, Plant and" / "Equipment - net" over "as of December 31,") are put
before that head (:func:`caps`, :func:`capped`); a head over two or more cells of the
line under it heads that group from its first column (:func:`header_rows`); a line of
group names over the years, each centred over its middle year, groups the years nearest it
(:func:`group_line`); names right above the figures with no period line above them are
the table's own heads when they name every column (:func:`named_block`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ragspine_nb.extract.pdf_layout import SAME_BASELINE, Cell, Line, is_value
from ragspine_nb.units import stated_scale

__all__ = ["head_words", "head_block", "named_block", "stacked_heads", "names_columns",
           "top_down", "caps", "capped", "header_rows", "group_line", "centred_groups",
           "NEAR_HEAD",
           "MAX_HEAD_WORD_LINES", "MAX_HEAD_CHARS", "MAX_CAP_LINES", "MAX_CAP_RISE",
           "MAX_CAP_SPILL", "MAX_NAMES_RISE"]

#: Lines of stacked column-head words read at most (pdfium may give one per word).
MAX_HEAD_WORD_LINES = 24
#: Lines of a column head's words read above the header's top line at most (pdfium may
#: give one per cell), and how far above it they may stand (points: three lines or so).
MAX_CAP_LINES = 9
MAX_CAP_RISE = 36.0
#: How far above the first figure line (points) column names with no period line stand:
#: four lines or so.
MAX_NAMES_RISE = 48.0
#: How far (points) words over a year may reach past it and still qualify it.
MAX_CAP_SPILL = 3.0
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
#: A group head this close (points) to a cell of the line under it stands over it too.
NEAR_HEAD = 4.0
#: A column head's piece on one line is short: a longer cell is a title or prose.
MAX_HEAD_CHARS = 24


def head_words(line: Line) -> bool:
    """Whether a line holds only pieces of column heads: short cells, no figure.

    >>> head_words(Line((Cell("($ million)", 39, 76), Cell("EBITDA", 228, 257)), 741.0))
    True
    >>> head_words(Line((Cell("Net sales", 39, 70), Cell("1,048", 410, 429)), 727.0))
    False
    >>> head_words(Line((Cell("Reconciliation of non-GAAP measures", 39, 220),), 790.0))
    False
    """
    return all(len(c.text) <= MAX_HEAD_CHARS and not is_value(c.text) for c in line.cells)


def head_block(lines: Sequence[Line], start: int, is_header: Callable[[Line], bool]) -> int:
    """Where the stacked head words above ``lines[start]`` begin (``start`` when none).

    The words count only when a header line stating a year or the unit (``is_header``
    and a year, or a caption alone) stands right above them: a few short lines under a
    title are no column heads, and "Second Quarter  Quarter" with no year is a piece of
    the names ("Total Stores at Beginning of Second Quarter").
    """
    def dated(line: Line) -> bool:
        return is_header(line) and (bool(_YEAR.search(line.text)) or len(line.cells) == 1)

    k = _words_above(lines, start, lambda line: not dated(line))
    return k if k < start and k > 0 and dated(lines[k - 1]) else start


def named_block(lines: Sequence[Line], start: int, top: float) -> int:
    """Where the head words right above ``lines[start]`` begin, with no period line above.

    Only lines of head words within :data:`MAX_NAMES_RISE` points of the first figure
    line (at ``top``) count; the caller keeps them only when they name every figure column.
    """
    return _words_above(lines, start, lambda line: 0 < line.y - top <= MAX_NAMES_RISE)


def _words_above(lines: Sequence[Line], start: int, keep: Callable[[Line], bool]) -> int:
    """Where the run of head-word lines right above ``lines[start]`` that ``keep`` begins."""
    k = start
    while k > 0 and start - k < MAX_HEAD_WORD_LINES and head_words(lines[k - 1]) \
            and keep(lines[k - 1]):
        k -= 1
    return k


def stacked_heads(lines: Sequence[Line]) -> Line:
    """The stacked words of ``lines`` as one line: one cell per column name, top down.

    >>> lines = [Line((Cell("($ million)", 39, 76), Cell("EBITDA", 228, 257)), 741.0),
    ...          Line((Cell("Net", 322, 334),), 749.0), Line((Cell("Income", 314, 341),), 741.0),
    ...          Line((Cell("EPS", 363, 378),), 765.0), Line((Cell("(Diluted", 356, 385),), 756.0),
    ...          Line((Cell("cents)", 356, 385),), 741.0)]
    >>> [c.text for c in stacked_heads(lines).cells]
    ['($ million)', 'EBITDA', 'Net Income', 'EPS (Diluted cents)']
    """
    words: list[tuple[float, Cell]] = []
    captions: list[tuple[float, Cell]] = []
    for line in lines:
        for cell in line.cells:
            (captions if _caption(cell.text) else words).append((line.y, cell))
    words.sort(key=lambda w: (-w[0], w[1].x0))
    stacks: list[list[Cell]] = []
    for _, cell in words:
        home = next((s for s in stacks if any(_overlap(cell, c) for c in s)), None)
        if home is None:
            stacks.append([cell])
        else:
            home.append(cell)
    cells = [Cell(" ".join(c.text for c in s), min(c.x0 for c in s), max(c.x1 for c in s))
             for s in stacks]
    # "(in thousands)" drawn among the names is the table's unit, not a column's name: the
    # caption, left of every column
    cells += [Cell(c.text, -2.0, -1.0) for _, c in captions]
    return Line(tuple(sorted(cells, key=lambda c: c.x0)), min(line.y for line in lines))


def _caption(text: str) -> bool:
    """A unit caption in parentheses ("(in thousands)", "($ in millions)")."""
    t = text.strip()
    return t.startswith("(") and t.endswith(")") and bool(stated_scale(t))


def names_columns(heads: Line, columns: Sequence[float], left: float) -> bool:
    """Whether the stacked heads name the figure columns one to one, in order.

    Cells left of the figures (``x1 <= left``) are the unit caption; every other cell
    must be nearest its own column's right edge (``columns``, left to right): as many
    names as columns. Short lines under a heading that happen to sit over the table are
    no column names.

    >>> heads = Line((Cell("($ million)", 39, 76), Cell("EBITDA", 228, 257),
    ...               Cell("Net Income", 314, 341)), 741.0)
    >>> names_columns(heads, [258.0, 344.0], 227.0), names_columns(heads, [258.0], 227.0)
    (True, False)
    """
    names = [c for c in heads.cells if c.x1 > left]
    if len(names) != len(columns) or not names:
        return False
    return all(min(range(len(columns)), key=lambda n: abs(columns[n] - c.x1)) == k
               for k, c in enumerate(names))


def top_down(lines: Sequence[Line]) -> tuple[Line, ...]:
    """Header lines as the page shows them: top first, one line per baseline.

    pdfium's text order may give a header's cells out of order ("In Millions  Fiscal
    2020", then "Fiscal 2020 vs. 2019" above them, then "Percentage Change  Fiscal 2019"
    beside the first): cells on one baseline that do not overlap are one line, and the
    lines are read top down, so each column's head reads as printed.

    >>> a = Line((Cell("In Millions", 36, 82), Cell("Fiscal 2020", 225, 272)), 497.0)
    >>> b = Line((Cell("Fiscal 2020 vs. 2019", 293, 376),), 508.0)
    >>> c = Line((Cell("Percentage Change", 294, 376), Cell("Fiscal 2019", 398, 445)), 497.0)
    >>> [ln.text for ln in top_down([a, b, c])]
    ['Fiscal 2020 vs. 2019', 'In Millions Fiscal 2020 Percentage Change Fiscal 2019']
    """
    out: list[Line] = []
    for line in lines:
        host = next((k for k, o in enumerate(out) if abs(o.y - line.y) <= SAME_BASELINE
                     and not any(_overlap(x, y) for x in o.cells for y in line.cells)), None)
        if host is None:
            out.append(line)
        else:
            cells = tuple(sorted((*out[host].cells, *line.cells), key=lambda c: c.x0))
            out[host] = Line(cells, out[host].y)
    return tuple(sorted(out, key=lambda ln: -ln.y))


def caps(line: Line, top: Line, left: float) -> bool:
    """Whether ``line`` holds the first words of ``top``'s column heads, drawn above it.

    "Property, Plant and" / "Equipment - net" over "as of December 31,": every cell is
    a short piece over the figures (right of ``left``) that overlaps one cell of the
    header's top line. A title at the margin or across the page is no such piece.

    >>> top = Line((Cell("Employees as of December 31,", 294, 379),
    ...             Cell("as of December 31,", 486, 538)), 699.0)
    >>> caps(Line((Cell("Equipment - net", 489, 535),), 706.0), top, 280.0)
    True
    >>> caps(Line((Cell("Geographic Area", 57, 204),), 732.0), top, 280.0)
    False

    Words over a year qualify it only when they are no wider than it, give or take
    :data:`MAX_CAP_SPILL` ("After" over "2023"); wider, they are the table's title
    ("Financial History" centred over "2016" of five years), or the name of a group of
    years centred over its middle one (:func:`group_line`).

    >>> caps(Line((Cell("Financial History", 392, 451),), 684.0),
    ...      Line((Cell("2017", 343, 358), Cell("2016", 413, 429)), 669.0), 240.0)
    False
    """
    return head_words(line) and 0 < line.y - top.y <= MAX_CAP_RISE and all(
        c.x0 > left and len(under := [t for t in top.cells if _overlap(c, t)]) == 1
        and (not _YEAR.fullmatch(under[0].text.strip()) or _within(c, under[0], MAX_CAP_SPILL))
        for c in line.cells)


def capped(above: Sequence[Line], top: Line) -> Line:
    """``top`` with the words of the lines ``above`` it put before its cells' text.

    >>> top = Line((Cell("Capital Spending", 407, 455), Cell("as of December 31,", 486, 538)),
    ...            699.0)
    >>> above = [Line((Cell("Property, Plant and", 484, 540),), 714.0),
    ...          Line((Cell("Equipment - net", 489, 535),), 706.0)]
    >>> [c.text for c in capped(above, top).cells]
    ['Capital Spending', 'Property, Plant and Equipment - net as of December 31,']
    """
    words = sorted(((line.y, c) for line in above for c in line.cells), key=lambda w: -w[0])
    cells = []
    for t in top.cells:
        mine = [c for _, c in words if _overlap(c, t)]
        cells.append(Cell(" ".join([*(c.text for c in mine), t.text]),
                          min([t.x0, *(c.x0 for c in mine)]), max([t.x1, *(c.x1 for c in mine)])))
    return Line(tuple(cells), top.y)


def _cell_columns(line: Line, columns: Sequence[float], left: float) -> list[int]:
    """Each header cell's place in the grid row: 0 for the caption, else its column + 1.

    A line naming every column one to one (:func:`names_columns`) heads them in order.
    """
    if names_columns(line, columns, left):
        order = iter(range(1, len(columns) + 1))
        return [next(order) if cell.x1 > left else 0 for cell in line.cells]
    width = [columns[k] - (columns[k - 1] if k else left) for k in range(len(columns))]
    centers = [columns[k] - width[k] / 3 for k in range(len(columns))]
    places = []
    for cell in line.cells:
        covered = [k for k, c in enumerate(centers) if cell.x0 - 2 <= c <= cell.x1 + 2]
        k = covered[0] if len(covered) > 1 else \
            min(range(len(columns)), key=lambda n: abs(centers[n] - cell.center))
        places.append(0 if cell.x1 < left + 1 else k + 1)
    return places


def header_rows(header: Sequence[Line], columns: Sequence[float], left: float
                 ) -> list[list[str]]:
    """The header lines over the columns; a caption is left of every column.

    A cell over two or more cells of the line under it (or within :data:`NEAR_HEAD` points
    of them) heads a group of columns: it goes over the first of them ("Fiscal Year"
    drawn a little right of the middle of "2019  2018" is the 2019 column's head, not the
    2018's alone); a cell over one cell of the line under it heads that cell's column.
    Where a line names two groups or more over more cells, the cells under it are split
    into groups, each centred under its head (:func:`centred_groups`: "Net Sales" and
    "Operating Income", each over the middle year of three, head three years each).
    """
    places = [_cell_columns(line, columns, left) for line in header]
    for i in range(len(header) - 2, -1, -1):  # bottom up: a line's places settle its heads'
        starts = _group_starts(header[i], places[i], header[i + 1], places[i + 1])
        places[i] = [starts.get(n, k) for n, k in enumerate(places[i])]
    rows = []
    for line, where in zip(header, places, strict=True):
        row = [""] * (len(columns) + 1)
        for cell, k in zip(line.cells, where, strict=True):
            row[k] = f"{row[k]} {cell.text}".strip()
        rows.append(row)
    return rows


def _group_starts(line: Line, places: Sequence[int], below: Line,
                  below_places: Sequence[int]) -> dict[int, int]:
    """Where each group head of ``line`` starts (cell index → grid place), by the line below."""
    heads = [n for n, k in enumerate(places) if k]
    cells = [n for n, k in enumerate(below_places) if k]
    if len(heads) >= 2 and len(cells) > len(heads):  # each head centred over its group
        groups = centred_groups([line.cells[h] for h in heads],
                                [below.cells[n] for n in cells])
        return {h: below_places[cells[first]] for h, first in zip(heads, groups, strict=True)}
    starts: dict[int, int] = {}
    for n in heads:
        cell = line.cells[n]
        near = [m for m, c in enumerate(below.cells) if _near(cell, c)]
        if len(near) == 1 and not _within(below.cells[near[0]], cell, NEAR_HEAD):
            continue  # over a wider cell (a caption across the table): no head of it
        first = min((below_places[m] for m in near), default=0)
        if first:  # over one cell or more: the first one's column, as drawn
            starts[n] = first
    return starts


def centred_groups(heads: Sequence[Cell], cells: Sequence[Cell]) -> list[int]:
    """Where each head's group of ``cells`` starts (heads and cells left to right).

    Every cell is in one group; a cell a head stands over (within :data:`NEAR_HEAD`) is
    in that head's group; among the splits left, the one whose groups' middles lie
    nearest the heads' centres: a head is centred over its group, whatever its width
    ("Fiscal 2015" over one column, "Fiscal 2016" over four, "Fiscal 2017" over three).

    >>> cells = [Cell("", x, x + 20) for x in (190, 224, 277, 331, 379, 443, 497, 545)]
    >>> centred_groups([Cell("", 185, 215), Cell("", 285, 315), Cell("", 500, 530)], cells)
    [0, 1, 5]
    """
    n, k = len(cells), len(heads)
    over = [[m for m, c in enumerate(cells) if _near(h, c)] for h in heads]
    # splits[j][b]: the cheapest split of cells[:b] into the first j groups (cost, starts)
    splits: list[dict[int, tuple[float, tuple[int, ...]]]] = [{0: (0.0, ())}]
    for j, head in enumerate(heads):
        splits.append({})
        low, high = min(over[j], default=n), max(over[j], default=-1)
        for a, (cost, starts) in splits[j].items():
            if a > low:  # a cell the head stands over would fall in the group before
                continue
            for b in range(max(a + 1, high + 1), n - (k - j - 1) + 1):
                total = cost + abs((cells[a].x0 + cells[b - 1].x1) / 2 - head.center)
                if b not in splits[j + 1] or total < splits[j + 1][b][0]:
                    splits[j + 1][b] = (total, (*starts, a))
    found = splits[k].get(n)
    return list(found[1]) if found else list(range(k))


def group_line(line: Line, top: Line, left: float) -> bool:
    """Whether ``line`` names groups of the header's top line's columns, drawn above it.

    "Net Sales   Operating Income" over "2016 2015 2014 2016 2015 2014": two short heads
    or more, all over the figures, each over a head of the top line, fewer than it has
    (asked where no :func:`caps` line stands over the top line).

    >>> top = Line((Cell("2016", 235, 248), Cell("2015", 285, 298), Cell("2014", 336, 349),
    ...             Cell("2016", 387, 400), Cell("2015", 437, 450)), 706.0)
    >>> group_line(Line((Cell("Net Sales", 279, 304), Cell("Operating Income", 418, 469)),
    ...                 715.0), top, 210.0)
    True
    >>> group_line(Line((Cell("Business Segment Information", 81, 183),), 732.0), top, 210.0)
    False
    """
    return head_words(line) and len(line.cells) >= 2 and len(top.cells) > len(line.cells) \
        and 0 < line.y - top.y <= MAX_CAP_RISE and all(
            c.x0 > left and any(_overlap(c, t) for t in top.cells) for c in line.cells)


def _within(inner: Cell, outer: Cell, slack: float) -> bool:
    """Whether ``inner`` lies within ``outer``, give or take ``slack`` points a side."""
    return outer.x0 - slack <= inner.x0 and inner.x1 <= outer.x1 + slack


def _near(a: Cell, b: Cell) -> bool:
    """Whether two cells overlap, or come within :data:`NEAR_HEAD` points of it."""
    return a.x0 - NEAR_HEAD < b.x1 and b.x0 < a.x1 + NEAR_HEAD


def _overlap(a: Cell, b: Cell) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1
