"""Lines and cells read on arrays give what the loop over characters gave, on any page.

``page_lines`` groups a page's characters into lines and runs with array operations
(:mod:`ragspine_nb.extract.pdf_runs`). The loop it replaced is kept here as the oracle:
random pages — words and figures at random gaps, rows run together without line breaks,
raised footnote marks, characters out of text order, spaces with and without boxes —
must come out the same, cell for cell and float for float.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence

import numpy as np
import pytest

from ragspine_nb.extract.pdf_layout import (
    _MARK,
    RAISED_HEIGHTS,
    Box,
    Cell,
    Line,
    _run_text,
    is_value,
    merge_period_lines,
    page_lines,
)
from ragspine_nb.extract.pdf_runs import GAP_HEIGHTS, MIN_GAP, medians


def _median(values: list[float]) -> float:
    data = sorted(values)
    mid = len(data) // 2
    return data[mid] if len(data) % 2 else (data[mid - 1] + data[mid]) / 2


def _raised(text: str, boxes: Sequence[Box], run: Sequence[int], line: Sequence[int]) -> bool:
    if not _MARK.fullmatch(_run_text(text, boxes, run)):
        return False
    letters = [i for i in line if text[i].isalnum() and i not in run] or list(line)
    baseline = statistics.median(boxes[i][1] for i in letters)
    height = statistics.median(boxes[i][3] - boxes[i][1] for i in letters)
    return height > 0 and all(boxes[i][1] >= baseline + RAISED_HEIGHTS * height for i in run)


def _cells(text: str, boxes: Sequence[Box], idx: Sequence[int]) -> tuple[Cell, ...]:
    heights = [boxes[i][3] - boxes[i][1] for i in idx if boxes[i][3] > boxes[i][1]]
    limit = max(MIN_GAP, GAP_HEIGHTS * (_median(heights) if heights else 0.0))
    runs: list[list[int]] = [[idx[0]]]
    for i in idx[1:]:
        if boxes[i][0] - boxes[runs[-1][-1]][2] > limit:
            runs.append([])
        runs[-1].append(i)
    for k in range(len(runs) - 1, 0, -1):
        if not is_value(_run_text(text, boxes, runs[k - 1])) and \
                _raised(text, boxes, runs[k], idx):
            runs[k - 1] += runs.pop(k)
    cells = (Cell(_run_text(text, boxes, run), boxes[run[0]][0], boxes[run[-1]][2])
             for run in runs)
    return tuple(c for c in cells if c.text)


def _oracle(text: str, boxes: Sequence[Box]) -> list[Line]:
    """The loop over characters ``page_lines`` ran before (release 0e2baae)."""
    lines: list[Line] = []
    current: list[int] = []
    low = high = 0.0

    def close() -> None:
        if current:
            cells = _cells(text, boxes, sorted(current, key=lambda i: boxes[i][0]))
            if cells:
                lines.append(Line(cells, _median([boxes[i][1] for i in current])))
        current.clear()

    for i, ch in enumerate(text[:len(boxes)]):
        if ch in "\r\n":
            close()
            continue
        x0, y0, x1, y1 = boxes[i]
        if x1 <= x0 or ch.isspace():
            continue
        if not current:
            low, high = y0, y1
        elif y1 < low or y0 > high:
            close()
            low, high = y0, y1
        else:
            low, high = min(low, y0), max(high, y1)
        current.append(i)
    close()
    return merge_period_lines(lines)


_WORDS = ("Net", "sales", "Total", "Revenue", "(1)", "a", "*", "2019", "2018", "1,234",
          "(56)", "$", "—", "12.5%", "December", "31,", "Fiscal", "x", "7")


def _page(rng: random.Random) -> tuple[str, list[Box]]:
    """A random page: rows of words at random gaps, some quirks of real text layers."""
    text: list[str] = []
    boxes: list[Box] = []
    y = 700.0
    for _ in range(rng.randint(1, 12)):
        size = rng.choice((7.0, 8.0, 9.5, 10.0))
        x = rng.uniform(20.0, 80.0)
        start = len(boxes)
        for w in range(rng.randint(1, 7)):
            word = rng.choice(_WORDS)
            raised = word in ("(1)", "a", "*", "7") and rng.random() < 0.5
            bottom = y + (0.6 * size if raised else rng.choice((0.0, 0.0, -0.3)))
            if w:
                text.append(" ")
                boxes.append((0.0, 0.0, 0.0, 0.0) if rng.random() < 0.9 else
                             (x, bottom, x + 2.0, bottom + size))
                x += rng.choice((2.0, 3.0, 5.0, 30.0, 80.0))
            for ch in word:
                width = rng.choice((0.0, 4.0, 4.0, 5.5)) if ch != "—" else 8.0
                text.append(ch)
                top = bottom + (size * 0.4 if ch in "—-" else size)
                low = bottom + (size * 0.3 if ch in "—-" else 0.0)
                boxes.append((x, low, x + width, top))
                x += width + rng.choice((0.0, 0.3, 0.5))
        if rng.random() < 0.1 and len(boxes) - start > 2:  # drawn out of text order
            a, b = start, len(boxes) - 1
            boxes[a], boxes[b] = boxes[b], boxes[a]
        if rng.random() < 0.8:  # else the next row runs on without a line break
            text.append("\r\n")
            boxes += [(0.0, 0.0, 0.0, 0.0)] * 2
        y -= rng.choice((12.0, 0.5, 14.0))
    return "".join(text), boxes


def test_array_lines_are_the_loops_lines_on_random_pages() -> None:
    rng = random.Random(20261207)
    pages = [_page(rng) for _ in range(400)]
    for text, boxes in pages:
        assert len(text) == len(boxes)
        want = _oracle(text, boxes)
        assert page_lines(text, boxes) == want
        assert page_lines(text, np.array(boxes)) == want
    # the pages reach every path: runs out of text order, rows without line breaks
    assert sum(len(_oracle(t, b)) for t, b in pages) > 1000


def test_a_row_run_on_without_a_line_break_is_its_own_line() -> None:
    # "Cost 4" follows "Revenue 10" in the text order with no line break, drawn lower
    def row(words: str, y: float) -> list[Box]:
        return [(0.0, 0.0, 0.0, 0.0) if ch == " " else (10.0 + 6 * i, y, 15.0 + 6 * i, y + 8)
                for i, ch in enumerate(words)]

    text, boxes = "Revenue 10Cost 4", row("Revenue 10", 100.0) + row("Cost 4", 80.0)
    lines = page_lines(text, boxes)
    assert lines == _oracle(text, boxes)
    assert [(ln.text, ln.y) for ln in lines] == [("Revenue 10", 100.0), ("Cost 4", 80.0)]


@pytest.mark.parametrize(("values", "groups", "want"), [
    ([5.0, 1.0, 3.0], [0, 0, 0], [3.0]),
    ([4.0, 1.0, 2.0, 3.0], [1, 1, 1, 1], [0.0, 2.5]),
    ([0.1, 0.2], [0, 0], [(0.1 + 0.2) / 2]),
])
def test_group_medians_are_statistics_medians(values: list[float], groups: list[int],
                                              want: list[float]) -> None:
    got = medians(np.array(values), np.array(groups), len(want)).tolist()
    assert got == want
