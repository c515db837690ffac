r"""A page's drawn characters as lines and runs, computed on arrays (pure, no PDF library).

pdfium gives a page's text in reading order (lines ended by ``\r\n``) and one box per
character. A *line* is the drawn characters between two line ends, split where a
character lies wholly above or below the band of those before it (a page whose text runs
its rows together); a *run* is a line's characters left to right up to a gap wider than
the line's gap limit: a cell's text. :mod:`~ragspine_nb.extract.pdf_layout` makes cells
and lines of these runs.

The rules are those of a loop over the characters, written as array operations so that
a page of 3,000 characters costs a few dozen numpy calls instead of a Python step per
character; the floats compared and the medians taken are the same ones, in the same
order (a line whose characters share no common vertical band is walked character by
character, as before).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

__all__ = ["PageRuns", "page_runs", "medians", "MIN_GAP", "GAP_HEIGHTS"]

#: A gap between characters at least this wide (points) may start a new cell; the gap
#: must also be wider than :data:`GAP_HEIGHTS` times the line's character height.
MIN_GAP = 4.0
GAP_HEIGHTS = 0.6


@cache
def _spaces() -> np.ndarray:
    """The code points :meth:`str.isspace` calls whitespace (none lies above U+3000)."""
    return np.array([c for c in range(0x3001) if chr(c).isspace()], dtype=np.uint32)


@dataclass(frozen=True)
class PageRuns:
    """A page's runs: ``order[starts[j]:ends[j]]`` are run ``j``'s character indexes.

    ``order`` holds the drawn characters line by line, each line left to right (ties in
    text order); ``run_line[j]`` is run ``j``'s line; ``monotone[j]`` whether its
    characters come in text order; ``line_y`` each line's baseline (the median bottom of
    its characters). ``boxes`` is the page's ``(n, 4)`` array: left, bottom, right, top.
    """

    boxes: np.ndarray
    order: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    run_line: np.ndarray
    monotone: np.ndarray
    line_y: np.ndarray


def medians(values: np.ndarray, groups: np.ndarray, n: int) -> np.ndarray:
    """The median of ``values`` in each of ``n`` groups (0.0 for a group with none).

    The middle value, or the mean of the two middle values, as :func:`statistics.median`.

    >>> medians(np.array([3.0, 1.0, 2.0, 4.0, 1.0]), np.array([0, 0, 0, 2, 2]), 3).tolist()
    [2.0, 0.0, 2.5]
    """
    if not len(values):
        return np.zeros(n)
    order = np.lexsort((values, groups))
    data = values[order]
    counts = np.bincount(groups, minlength=n)
    mid = np.cumsum(counts) - counts + counts // 2
    high = data[np.minimum(mid, len(data) - 1)]
    low = data[np.clip(mid - 1, 0, len(data) - 1)]
    out = np.where(counts % 2 == 1, high, (low + high) / 2)
    out[counts == 0] = 0.0
    return out  # type: ignore[no-any-return]


def _walk_bands(bottom: list[float], top: list[float], starts: np.ndarray) -> None:
    """Mark in ``starts`` each character wholly above or below the band of its line so far.

    One text line's characters, in text order (``starts[0]`` is already set).
    """
    low, high = bottom[0], top[0]
    for k in range(1, len(bottom)):
        y0, y1 = bottom[k], top[k]
        if y1 < low or y0 > high:
            starts[k] = True
            low, high = y0, y1
        else:
            if y0 < low:
                low = y0
            if y1 > high:
                high = y1


def _lines(codes: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""The drawn characters' indexes and each one's line number.

    A character is drawn when its box has a width and it is no whitespace; a line end
    (``\r`` or ``\n``) ends a line. A text line whose characters all share one vertical
    band is one line; any other is walked character by character.
    """
    x0, y0, x1, y1 = boxes.T
    drawn = np.flatnonzero(~(x1 <= x0) & ~np.isin(codes, _spaces()))
    if not len(drawn):
        return drawn, drawn
    text_line = np.cumsum((codes == 13) | (codes == 10))[drawn]
    starts = np.empty(len(drawn), dtype=bool)
    starts[0] = True
    starts[1:] = text_line[1:] != text_line[:-1]
    first = np.flatnonzero(starts)
    shared = np.maximum.reduceat(y0[drawn], first) <= np.minimum.reduceat(y1[drawn], first)
    ends = np.append(first[1:], len(drawn))
    for a, b in zip(first[~shared].tolist(), ends[~shared].tolist(), strict=True):
        chars = drawn[a:b]
        _walk_bands(y0[chars].tolist(), y1[chars].tolist(), starts[a:b])
    return drawn, np.cumsum(starts) - 1


def page_runs(text: str, boxes: Sequence[tuple[float, float, float, float]] | np.ndarray
              ) -> PageRuns:
    r"""The runs of a page: ``text[i]`` is drawn in ``boxes[i]`` (pdfium's text order).

    >>> text = "Sales  7\r\n"  # "Sales", a gap of 20 points, "7"; the line end has no box
    >>> boxes = [(10.0 + 5 * i, 100.0, 14.0 + 5 * i, 107.0) for i in range(5)]
    >>> boxes += [(0.0, 0.0, 0.0, 0.0)] * 2 + [(50.0, 100.0, 54.0, 107.0)]
    >>> boxes += [(0.0, 0.0, 0.0, 0.0)] * 2
    >>> runs = page_runs(text, boxes)
    >>> runs.order.tolist(), runs.starts.tolist(), runs.ends.tolist(), runs.line_y.tolist()
    ([0, 1, 2, 3, 4, 7], [0, 5], [5, 6], [100.0])
    """
    array = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    n = min(len(text), len(array))
    array = array[:n]
    codes = np.frombuffer(text[:n].encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    drawn, line = _lines(codes, array)
    lines = int(line[-1]) + 1 if len(line) else 0
    x0, y0, x1, y1 = array.T
    sort = np.lexsort((x0[drawn], line))
    order, line = drawn[sort], line[sort]
    height = y1[order] - y0[order]
    tall = y1[order] > y0[order]
    limit = np.maximum(MIN_GAP, GAP_HEIGHTS * medians(height[tall], line[tall], lines))
    new = np.ones(len(order), dtype=bool)
    new[1:] = (line[1:] != line[:-1]) | (x0[order[1:]] - x1[order[:-1]] > limit[line[1:]])
    starts = np.flatnonzero(new)
    back = np.zeros(len(order), dtype=np.int64)
    back[1:] = order[1:] < order[:-1]
    back[starts] = 0
    monotone = np.add.reduceat(back, starts) == 0 if len(starts) else np.zeros(0, dtype=bool)
    return PageRuns(array, order, starts, np.append(starts[1:], len(order)).astype(np.int64),
                    line[starts], monotone, medians(y0[order], line, lines))
