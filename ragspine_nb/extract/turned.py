"""Tables whose periods run down the first column: read turned, cited as written.

A lease maturity schedule lists "2021", "2022", ..., "Thereafter" down its first column
under the headers "Operating Leases" | "Finance Leases"; a sheet may list "FY2023",
"FY2024" down column A under "Revenue" | "EBITDA". The periods are row labels and the
measures column headers. Such a table (one header row, no period in it, most rows
dated) is read turned: each measure becomes a row, each period a column, and every
locator still names the cell as it is written. A row that names no period
("Thereafter", "Total") becomes a column without one: reported, never stored under a
guessed period.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ragspine_nb.extract.layout import header_rows
from ragspine_nb.glossary import normalize_period
from ragspine_nb.profile import DomainProfile

__all__ = ["PERIODS_DOWN", "as_written", "periods_down", "period_key", "turned", "turned_locate"]

#: Locator of a table's cell: (row index, column index, row key, column label) → text.
Locate = Callable[[int, int, str, str], str]
#: Why a table whose periods run down its first column could not be read turned.
PERIODS_DOWN = ("periods run down the first column under more than one header row — "
                "layout not supported (put the periods in the header row)")


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
    dated = [row for row in grid[head:] if period_key(profile, row[0].strip())]
    return len(dated) >= 2 and len(dated) * 2 >= len(grid) - head


def turned(grid: Sequence[Sequence[str]]) -> list[list[str]]:
    """``grid`` with its rows as columns (short rows padded with empty cells).

    >>> turned([["", "Leases"], ["2021", "138"], ["2022"]])
    [['', '2021', '2022'], ['Leases', '138', '']]
    """
    width = max((len(row) for row in grid), default=0)
    return [[row[c] if c < len(row) else "" for row in grid] for c in range(width)]


def turned_locate(locate: Locate) -> Locate:
    """The locator of a turned table's cell: the cell as the document writes it."""
    def located(r: int, c: int, key: str, label: str) -> str:
        return locate(c, r, label, key)
    return located


def as_written(reason: str) -> str:
    """A skip reason of a turned table in the words of the table as written.

    >>> as_written("column header 'Thereafter' is not a period; column skipped")
    "row label 'Thereafter' is not a period; row skipped"
    """
    return reason.replace("column header", "row label").replace("column skipped",
                                                                "row skipped")
