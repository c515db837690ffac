"""Quarters listed down the first column under their year: dated, then read turned.

A 10-K's stock price table lists "Fourth Quarter", "Third Quarter", ... under a row
"2019:" and again under "2018:", with the measures ("High" | "Low") as column headers;
another states its one year in a caption over the measures ("Common Stock Price Range
2018"). Each quarter row is that year's quarter: :func:`quarter_rows` writes the year
into its label ("Q4 2019"), sets the year rows aside and moves the caption stating the
year to the titles, so the table reads turned (quarters as periods) and every cell is
still cited where the document writes it. A quarter row with no year above it and no one
year in the caption is no period: the table is left as it is (never a guessed year).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine_nb.extract.layout import quarter_label
from ragspine_nb.extract.turned import Locate

__all__ = ["QuarterRows", "quarter_rows"]

_YEAR_ROW = re.compile(r"(?:fiscal\s+(?:year\s+)?)?(?P<y>(?:19|20)\d\d)\s*[:.]?", re.I)
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


@dataclass(frozen=True)
class QuarterRows:
    """A table's grid with its quarters dated.

    ``rows`` are the document's row indices of the grid's rows; ``titles`` the header
    rows moved out (the caption stating the year), nearest first.
    """

    grid: list[list[str]]
    rows: tuple[int, ...]
    titles: tuple[str, ...]

    def located(self, locate: Locate) -> Locate:
        """The locator of a cell of :attr:`grid`: the cell where the document writes it."""
        def at(r: int, c: int, key: str, label: str) -> str:
            return locate(self.rows[r], c, key, label)
        return at


def _year_row(row: Sequence[str]) -> str | None:
    m = _YEAR_ROW.fullmatch(row[0].strip())
    return m.group("y") if m and not any(x.strip() for x in row[1:]) else None


def _caption_year(head: Sequence[Sequence[str]]) -> str | None:
    """The one year the header rows above the measures write, if exactly one."""
    years = {y for row in head[:-1] for x in row for y in _YEAR.findall(x)}
    return years.pop() if len(years) == 1 else None


def quarter_rows(grid: Sequence[Sequence[str]]) -> QuarterRows | None:
    """``grid`` with each quarter row labelled with its year, or None (not such a table).

    Examples
    --------
    >>> q = quarter_rows([["", "High", "Low"], ["2019:", "", ""],
    ...                   ["Fourth Quarter", "$11.44", "$9.47"],
    ...                   ["Third Quarter", "$14.96", "$10.26"]])
    >>> [row[0] for row in q.grid], q.rows
    (['', 'Q4 2019', 'Q3 2019'], (0, 2, 3))
    >>> quarter_rows([["", "2019", "2018"], ["First quarter", "1", "2"],
    ...               ["Second quarter", "3", "4"]]) is None  # the years are columns
    True
    """
    quarters = [quarter_label(row[0]) for row in grid]
    starts = [r for r, row in enumerate(grid) if quarters[r] or _year_row(row)]
    if not starts or sum(1 for n in quarters if n) < 2:
        return None
    head = grid[:starts[0]]
    if not head or any(_YEAR.search(x) for x in head[-1][1:]):
        return None
    year = _caption_year(head)
    out, rows = [list(head[-1])], [starts[0] - 1]
    for r in range(starts[0], len(grid)):
        row = grid[r]
        if stated := _year_row(row):
            year = stated
            continue
        n = quarters[r]
        if n is not None and year is None:
            return None
        out.append([f"Q{n} {year}", *row[1:]] if n is not None else list(row))
        rows.append(r)
    titles = tuple(" ".join(x for x in row if x.strip()) for row in reversed(head[:-1]))
    return QuarterRows(out, tuple(rows), tuple(t for t in titles if t))
