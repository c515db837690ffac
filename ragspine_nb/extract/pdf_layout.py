r"""Lines and cells of a PDF page from its characters' boxes (pure functions, no PDF library).

A PDF has no table structure, only characters at positions. A page's text (in the
reader's order, lines ended by ``\r\n``) and one box per character become
:class:`Line` s of :class:`Cell` s: characters of one line separated by a gap wider than
a word space start a new cell, so a row label and each figure of a statement row are
cells of their own ("Net income including noncontrolling interest | $ 5,363 | $ 4,869").
:mod:`ragspine_nb.extract.pdf_tables` reads tables from these lines.
"""

from __future__ import annotations

import operator
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine_nb.extract.values import states_figure
from ragspine_nb.lexicon import MONTHS

__all__ = ["Box", "Cell", "Line", "page_lines", "merge_period_lines", "is_value",
           "is_period_cell", "MIN_GAP", "SAME_BASELINE"]

#: One character's box: left, bottom, right, top (PDF points, y grows upwards).
Box = tuple[float, float, float, float]

#: A gap between characters at least this wide (points) may start a new cell; the gap
#: must also be wider than :data:`GAP_HEIGHTS` times the line's character height.
MIN_GAP = 4.0
GAP_HEIGHTS = 0.6
#: A gap this many character heights wide between two characters is a space.
WORD_GAP = 0.15
#: A mark whose characters all sit this many character heights above the line's
#: baseline is raised (a footnote mark), not a cell of its own.
RAISED_HEIGHTS = 0.5
_MARK = re.compile(r"[(\[]?(?:\d{1,2}|[a-z]|\*{1,3}|[†‡§])[)\]]?")

_VALUE = re.compile(r"^[(\[]?\s*[-−–]?\s*[$€£¥]?\s*[(]?\s*[-−–]?\d[\d,]*(?:\.\d+)?\s*%?\s*[)\]]?"
                    r"\s*%?$|^[(]?\s*\.\d+\s*%?\s*[)]?$")
_DASH = re.compile(r"^[$€£¥]?\s*[—–−-]+\s*%?$")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
#: December first: the order the alternation was written in (a fiscal year ends there most)
_MONTHS_DECEMBER_FIRST = "|".join(MONTHS[-1:] + MONTHS[:-1])
_PERIOD_WORDS = re.compile(
    r"(?i)\b(?:fiscal|fy|year|years|quarter|quarters|months|weeks|ended|ending|as of|"
    rf"{_MONTHS_DECEMBER_FIRST}|q[1-4]|h[12])\b")


@dataclass(frozen=True)
class Cell:
    """Text that sits together on one line, with its left and right edge."""

    text: str
    x0: float
    x1: float

    @property
    def center(self) -> float:
        """The middle of the cell."""
        return (self.x0 + self.x1) / 2


@dataclass(frozen=True)
class Line:
    """One line of a page: its cells left to right and its baseline (points)."""

    cells: tuple[Cell, ...]
    y: float

    @property
    def text(self) -> str:
        """The line's text, cells joined by one space."""
        return " ".join(c.text for c in self.cells)


def is_value(text: str) -> bool:
    """Whether a cell is a figure: ``1,488``, ``(370)``, ``$ 5,363``, ``12.5%``, ``—``.

    A year is a figure here too; :func:`is_period_cell` tells header years apart.

    Examples
    --------
    >>> [is_value(t) for t in ("1,488", "(370)", "$ 5,363", "12.5 %", "—", "$", "Total")]
    [True, True, True, True, True, False, False]
    """
    t = text.strip()
    return bool(_VALUE.match(t) or _DASH.match(t))


def is_period_cell(text: str) -> bool:
    """Whether a cell names a period: ``2018``, ``December 31, 2018``, ``Fiscal 2024``.

    >>> [is_period_cell(t) for t in ("2018", "Fiscal 2024", "Years ended December 31",
    ...                              "1,488", "Total")]
    [True, True, True, False, False]

    A line that states a count at a date is a row, not a header:

    >>> is_period_cell("Shares outstanding - December 31, 2022: 549,245,105")
    False
    """
    t = text.strip()
    if _YEAR.fullmatch(t):
        return True
    return bool(_PERIOD_WORDS.search(t)) and len(t) <= 60 and not states_figure(t)


def _median(values: list[float]) -> float:
    """:func:`statistics.median`, the same value, without its checks (a page's hot loop).

    >>> _median([3.0, 1.0, 2.0]), _median([4.0, 1.0, 2.0, 3.0])
    (2.0, 2.5)
    """
    data = sorted(values)
    n = len(data)
    mid = n // 2
    return data[mid] if n % 2 else (data[mid - 1] + data[mid]) / 2


def _gap_limit(boxes: Sequence[Box]) -> float:
    heights = [b[3] - b[1] for b in boxes if b[3] > b[1]]
    height = _median(heights) if heights else 0.0
    return max(MIN_GAP, GAP_HEIGHTS * height)


def _run_text(text: str, boxes: Sequence[Box], run: Sequence[int]) -> str:
    """A cell's text: its span of the page text, or its characters with a space at each gap.

    The characters are used where the text order runs elsewhere between them.
    """
    if all(map(operator.lt, run, run[1:])):
        return " ".join(text[run[0]:run[-1] + 1].split())
    out = [text[run[0]]]
    for a, b in zip(run, run[1:], strict=False):
        height = max(boxes[a][3] - boxes[a][1], boxes[b][3] - boxes[b][1])
        out.append((" " if boxes[b][0] - boxes[a][2] > WORD_GAP * height else "") + text[b])
    return "".join(out)


def _raised_mark(text: str, boxes: Sequence[Box], run: Sequence[int], line: Sequence[int]
                 ) -> bool:
    """A footnote mark raised above the line ("Under the Plan ⁽¹⁾"): never a figure.

    Its text is a mark ("(1)", "2", "a", "*") and every character's bottom sits above
    the line's baseline by at least :data:`RAISED_HEIGHTS` of its character height; a
    figure of a row sits on the baseline.
    """
    if not _MARK.fullmatch(_run_text(text, boxes, run)):
        return False
    letters = [i for i in line if text[i].isalnum() and i not in run] or list(line)
    baseline = statistics.median(boxes[i][1] for i in letters)  # leader dots are low
    height = statistics.median(boxes[i][3] - boxes[i][1] for i in letters)
    return height > 0 and all(boxes[i][1] >= baseline + RAISED_HEIGHTS * height for i in run)


def _cells(text: str, boxes: Sequence[Box], idx: Sequence[int]) -> tuple[Cell, ...]:
    """The cells of one line from its visible characters' indexes (left to right).

    A raised footnote mark after a cell stays with that cell's text.
    """
    limit = _gap_limit([boxes[i] for i in idx])
    runs: list[list[int]] = [[idx[0]]]
    for i in idx[1:]:
        if boxes[i][0] - boxes[runs[-1][-1]][2] > limit:
            runs.append([])
        runs[-1].append(i)
    for k in range(len(runs) - 1, 0, -1):
        if not is_value(_run_text(text, boxes, runs[k - 1])) and \
                _raised_mark(text, boxes, runs[k], idx):  # a label's mark, not a figure's
            runs[k - 1] += runs.pop(k)
    cells = (Cell(_run_text(text, boxes, run), boxes[run[0]][0], boxes[run[-1]][2])
             for run in runs)
    return tuple(c for c in cells if c.text)


def page_lines(text: str, boxes: Sequence[Box]) -> list[Line]:
    r"""The lines of a page: ``text[i]`` is drawn in ``boxes[i]`` (pdfium's text order).

    Examples
    --------
    >>> text = "Revenue  1,200 900\r\n"
    >>> boxes = [(10.0 + 5 * i, 100.0, 14.0 + 5 * i, 107.0) for i in range(9)]
    >>> boxes += [(200.0 + 5 * i, 100.0, 204.0 + 5 * i, 107.0) for i in range(5)]
    >>> boxes += [(250.0, 100.0, 254.0, 107.0)]
    >>> boxes += [(300.0 + 5 * i, 100.0, 304.0 + 5 * i, 107.0) for i in range(3)]
    >>> boxes += [(0.0, 0.0, 0.0, 0.0)] * 2
    >>> [c.text for c in page_lines(text, boxes)[0].cells]
    ['Revenue', '1,200', '900']
    """
    lines: list[Line] = []
    current: list[int] = []
    left = [b[0] for b in boxes]
    low = high = 0.0  # the band (bottom, top) of the current line's characters

    def close() -> None:
        if current:
            cells = _cells(text, boxes, sorted(current, key=left.__getitem__))
            if cells:
                lines.append(Line(cells, _median([boxes[i][1] for i in current])))
        current.clear()

    for i, ch in enumerate(text[:len(boxes)]):
        if ch == "\r" or ch == "\n":
            close()
            continue
        x0, y0, x1, y1 = boxes[i]
        if x1 <= x0 or ch.isspace():
            continue
        if not current:
            low, high = y0, y1
        elif y1 < low or y0 > high:
            # wholly above or below the line's band: on another line (a page whose text
            # runs its rows together without line breaks); a dash drawn mid-height or a
            # raised footnote mark overlaps its line's band
            close()
            low, high = y0, y1
        else:
            if y0 < low:
                low = y0
            if y1 > high:
                high = y1
        current.append(i)
    close()
    return merge_period_lines(lines)


#: Baselines closer than this (points) are one line.
SAME_BASELINE = 1.5


def merge_period_lines(lines: Sequence[Line]) -> list[Line]:
    """Header lines of periods drawn column by column, put back side by side.

    A statement may draw its column headers one column at a time ("December 1," over
    "2017", then "December 2," over "2016"): the text order gives four lines where the
    page shows two. Lines of period cells only on one baseline, their cells apart, are
    merged (left to right) where the first of them stands; any other line is kept as
    it is.

    >>> a = Line((Cell("December 1,", 430, 473),), 680.9)
    >>> b = Line((Cell("2017", 444, 460),), 672.9)
    >>> c = Line((Cell("December 2,", 504, 547),), 680.9)
    >>> d = Line((Cell("2016", 518, 534),), 672.9)
    >>> [ln.text for ln in merge_period_lines([a, b, c, d])]
    ['December 1, December 2,', '2017 2016']
    """
    out: list[Line] = []
    headers: list[int] = []  # where in ``out`` the lines of period cells only are
    for line in lines:
        if not all(is_period_cell(c.text) for c in line.cells):
            out.append(line)
            continue
        host = next((k for k in headers if abs(out[k].y - line.y) <= SAME_BASELINE
                     and _apart(out[k].cells, line.cells)), None)
        if host is None:
            headers.append(len(out))
            out.append(line)
        else:
            merged = tuple(sorted((*out[host].cells, *line.cells), key=lambda c: c.x0))
            out[host] = Line(merged, out[host].y)
    return out


def _apart(a: Sequence[Cell], b: Sequence[Cell]) -> bool:
    """Whether no cell of ``a`` overlaps a cell of ``b`` horizontally."""
    return all(x.x1 < y.x0 or y.x1 < x.x0 for x in a for y in b)
