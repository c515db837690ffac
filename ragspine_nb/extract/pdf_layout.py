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
from functools import lru_cache

import numpy as np

from ragspine_nb.extract.pdf_runs import MIN_GAP, page_runs
from ragspine_nb.extract.values import states_figure
from ragspine_nb.lexicon import MONTHS

__all__ = ["Box", "Cell", "Line", "page_lines", "merge_period_lines", "is_value",
           "is_period_cell", "MIN_GAP", "SAME_BASELINE"]

#: One character's box: left, bottom, right, top (PDF points, y grows upwards).
Box = tuple[float, float, float, float]

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


@lru_cache(maxsize=16384)
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


@lru_cache(maxsize=16384)
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


class _Boxes:
    """A page's box array read as boxes (tuples of floats), one character at a time."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array

    def __getitem__(self, i: int) -> Box:
        x0, y0, x1, y1 = self.array[i].tolist()
        return (x0, y0, x1, y1)


def _run_text(text: str, boxes: _Boxes | Sequence[Box], run: Sequence[int]) -> str:
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


def _raised_mark(texts: Sequence[str], boxes: np.ndarray, text: str, k: int,
                 runs: Sequence[Sequence[int]], line: Sequence[int]) -> bool:
    """A footnote mark raised above the line ("Under the Plan ⁽¹⁾"): never a figure.

    Run ``k``'s text is a mark ("(1)", "2", "a", "*"), the run before it no figure, and
    every character's bottom sits above the line's baseline by at least
    :data:`RAISED_HEIGHTS` of its character height; a figure of a row sits on the
    baseline.
    """
    if not _MARK.fullmatch(texts[k]) or is_value(texts[k - 1]):
        return False
    run = runs[k]
    letters = [i for i in line if text[i].isalnum() and i not in run] or list(line)
    rows = boxes[letters]
    baseline = statistics.median(rows[:, 1].tolist())  # leader dots are low
    height = statistics.median((rows[:, 3] - rows[:, 1]).tolist())
    return height > 0 and all(y >= baseline + RAISED_HEIGHTS * height
                              for y in boxes[run, 1].tolist())


def _marked_cells(text: str, boxes: _Boxes, runs: list[list[int]], texts: list[str]
                  ) -> tuple[Cell, ...]:
    """A line's cells where a run may be a raised footnote mark: it joins the run before.

    A label's mark stays with the label's text; a figure's is no mark.
    """
    line = [i for run in runs for i in run]
    for k in range(len(runs) - 1, 0, -1):
        if _raised_mark(texts, boxes.array, text, k, runs, line):
            runs[k - 1] += runs.pop(k)
            texts.pop(k)
            texts[k - 1] = _run_text(text, boxes, runs[k - 1])
    return tuple(Cell(t, boxes[run[0]][0], boxes[run[-1]][2])
                 for t, run in zip(texts, runs, strict=True) if t)


def page_lines(text: str, boxes: Sequence[Box] | np.ndarray) -> list[Line]:
    r"""The lines of a page: ``text[i]`` is drawn in ``boxes[i]`` (pdfium's text order).

    Characters of one line separated by a gap wider than a word space start a new cell
    (:func:`~ragspine_nb.extract.pdf_runs.page_runs`). ``boxes`` may be the page's
    ``(n, 4)`` array of left, bottom, right, top.

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
    runs = page_runs(text, boxes)
    view, order = _Boxes(runs.boxes), runs.order.tolist()
    starts, ends = runs.starts.tolist(), runs.ends.tolist()
    first, last = runs.order[runs.starts], runs.order[runs.ends - 1]
    left, right = runs.boxes[first, 0].tolist(), runs.boxes[last, 2].tolist()
    texts = [" ".join(text[a:b + 1].split()) if mono
             else _run_text(text, view, order[s:e])
             for a, b, s, e, mono in zip(first.tolist(), last.tolist(), starts, ends,
                                         runs.monotone.tolist(), strict=True)]
    line_of = runs.run_line.tolist()
    bounds = np.flatnonzero(np.diff(runs.run_line, prepend=-1)).tolist() + [len(texts)]
    lines: list[Line] = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        if any(_MARK.fullmatch(t) for t in texts[a + 1:b]):
            cells = _marked_cells(text, view, [order[s:e] for s, e in zip(
                starts[a:b], ends[a:b], strict=True)], texts[a:b])
        else:
            cells = tuple(Cell(texts[j], left[j], right[j]) for j in range(a, b) if texts[j])
        if cells:
            lines.append(Line(cells, float(runs.line_y[line_of[a]])))
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
