"""Tables whose periods run down the first column: read turned, cited as written.

A lease maturity schedule lists "2021", "2022", ..., "Thereafter" down its first column
under the headers "Operating Leases" | "Finance Leases"; a sheet may list "FY2023",
"FY2024" down column A under "Revenue" | "EBITDA". The periods are row labels and the
measures column headers. Such a table (one header row besides rows that only state
units, no period in it, most rows dated) is read turned: each measure becomes a row,
each period a column, and every locator still names the cell as it is written; a row
only stating units ("(Dollars in millions)") is read as the table's title. A row that
names no period ("Thereafter", "Total") becomes a column without one: reported, never
stored under a guessed period.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ragspine_nb.extract.layout import column_label, header_rows
from ragspine_nb.extract.scale import read_stated
from ragspine_nb.period_codes import normalize_period
from ragspine_nb.profile import DomainProfile

__all__ = ["PERIODS_DOWN", "Turned", "periods_down", "period_key", "turn",
           "turned", "turned_locate", "unit_rows"]

#: Locator of a table's cell: (row index, column index, row key, column label) → text.
Locate = Callable[[int, int, str, str], str]
#: Why a table whose periods run down its first column could not be read turned.
PERIODS_DOWN = ("periods run down the first column under more than one header row naming "
                "columns — layout not supported (put the periods in the header row)")


def period_key(profile: DomainProfile, text: str) -> tuple[str, str] | None:
    """An explicit period in a header cell (relative words are not accepted)."""
    return normalize_period(profile, text, relative=False) if text else None


def periods_down(profile: DomainProfile, grid: Sequence[Sequence[str]]) -> bool:
    """Whether the periods are row labels (a transposed table) and no column names one.

    Read as usual, such a table would store each period as a metric of its own.

    Examples
    --------
    >>> profile = DomainProfile.builtin()
    >>> periods_down(profile, [["", "Leases"], ["2021", "138"], ["2022", "135"]])
    True
    >>> periods_down(profile, [["", "2021", "2022"], ["Leases", "138", "135"]])
    False
    """
    head = header_rows(grid)
    if any(period_key(profile, x) for row in grid[:max(head, 1)] for x in row[1:]):
        return False
    dated = [period_key(profile, row[0].strip()) is not None for row in grid[head:]]
    run = dated.index(False) if False in dated else len(dated)
    # most rows dated, or a run of three or more years on top ("2021" ... "2025", then
    # "Thereafter", "Total", "Less: interest")
    return sum(dated) >= 2 and sum(dated) * 2 >= len(dated) or run >= 3


def turned(grid: Sequence[Sequence[str]]) -> list[list[str]]:
    """``grid`` with its rows as columns (short rows padded with empty cells).

    >>> turned([["", "Leases"], ["2021", "138"], ["2022"]])
    [['', '2021', '2022'], ['Leases', '138', '']]
    """
    width = max((len(row) for row in grid), default=0)
    return [[row[c] if c < len(row) else "" for row in grid] for c in range(width)]


def unit_rows(grid: Sequence[Sequence[str]]) -> tuple[int, ...]:
    """The header rows that only state units ("", "(Dollars in millions)", "").

    >>> unit_rows([["", "Leases", "Debt"], ["", "(Dollars in millions)", ""], ["2021", "1", "2"]])
    (1,)
    """
    out = []
    for r in range(header_rows(grid)):
        cells = [x for x in grid[r] if x.strip()]
        if cells and all(not column_label(x) and bool((st := read_stated(x)).scale
                                                       or st.currency) for x in cells):
            out.append(r)
    return tuple(out)


def turned_locate(locate: Locate, rows: Sequence[int] | None = None) -> Locate:
    """The locator of a turned table's cell: the cell as the document writes it.

    ``rows`` are the document's row indices of the turned table's columns, when some
    rows were set aside (rows only stating units).
    """
    def located(r: int, c: int, key: str, label: str) -> str:
        return locate(rows[c] if rows is not None and c < len(rows) else c, r, label, key)
    return located


@dataclass(frozen=True)
class Turned:
    """A table ready to be read turned: its cells, titles and locator."""

    grid: list[list[str]]
    titles: tuple[str, ...]
    locate: Locate


def turn(grid: Sequence[Sequence[str]], titles: Sequence[str], locate: Locate
         ) -> Turned | None:
    """``grid`` turned, its rows only stating units moved to ``titles`` (nearest first).

    ``None`` when more than one header row names columns: such a table is not read.

    >>> t = turn([["", "Leases"], ["", "(in millions)"], ["2021", "138"], ["2022", "135"]],
    ...          ("Note 7",), lambda r, c, key, label: f"R{r}C{c}")
    >>> t.grid, t.titles, t.locate(1, 2, "Leases", "2022")
    ([['', '2021', '2022'], ['Leases', '138', '135']], ('(in millions)', 'Note 7'), 'R3C1')
    """
    units = unit_rows(grid)
    kept = [r for r in range(len(grid)) if r not in units]
    body = [list(grid[r]) for r in kept]
    if header_rows(body) > 1:
        return None
    said = tuple(" ".join(x for x in grid[r] if x.strip()) for r in units)
    return Turned(turned(body), (*said, *titles), turned_locate(locate, kept))
