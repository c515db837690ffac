"""The units of one table's figures: what the table, each column and each row state.

Pure steps over a laid-out table (:mod:`ragspine_nb.extract.placement`): the table's own
statement (captions in the label column, a title spanning every column, the titles
around the table), each column's (its header cells and the groups spanning it, a
``%`` sub-column), and the unit of one figure from those, its row and its cell
(:func:`ragspine_nb.extract.scale.cell_unit`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ragspine_nb.core import CHANGE_PCT_CHANNEL, is_stated_change
from ragspine_nb.extract.layout import Column
from ragspine_nb.extract.placement import Block
from ragspine_nb.extract.row_kinds import fold_quotes, split_except, without_named_terms
from ragspine_nb.extract.scale import (
    RowKind,
    Stated,
    cell_unit,
    kind_words,
    merge_stated,
    read_stated,
    row_kind,
)
from ragspine_nb.extract.sums import sum_parts
from ragspine_nb.extract.values import (
    ParsedNumber,
    cell_currency,
    parse_number,
    without_share_counts,
)
from ragspine_nb.units import SCALES
from ragspine_nb.wordset import content_words

__all__ = ["TableUnits", "table_units", "FigureUnit", "figure_unit", "borrow_currency",
           "alternates_percent"]

#: Currency codes a cell may carry ("$" alone names no one currency).
_CODES = frozenset({"USD", "HKD", "AUD", "CAD", "SGD", "TWD", "BRL", "EUR", "GBP", "CNY"})


@dataclass(frozen=True)
class TableUnits:
    """What one block of a table states: for the whole block and per column.

    ``percent_columns`` are headed as percentages ("%", "% of total"); ``mostly_percent``
    columns only have most of their figures written with "%".
    """

    table: Stated
    columns: dict[int, Stated]
    percent_columns: frozenset[int]
    mostly_percent: frozenset[int] = frozenset()
    #: rows adding up to a total written as percentages (a tax-rate reconciliation)
    percent_rows: frozenset[int] = frozenset()
    #: columns whose first cell writes a currency ("$ —" atop "Ordinary Shares"): money
    money_columns: frozenset[int] = frozenset()


def _table_texts(grid: Sequence[Sequence[str]], block: Block) -> list[str]:
    """Captions in the label column and titles spanning every column of the header.

    The numbers of shares a header line states are taken out ("Common stock: Authorized
    — 1.0 billion shares"): their "billion" is not the table's scale of share counts.
    """
    out = []
    for r in range(block.header_start, block.data_start):
        row = grid[r]
        out.append(row[0])
        filled = [x for x in row[1:] if x.strip()]
        if len(filled) == 1 and len(row) > 2:
            out.append(filled[0])
    return [without_share_counts(t) for t in out if t.strip()]  # never "1.0 billion shares"


def _headed_percent(col: Column) -> bool:
    """A column headed as percentages ("%", "% of revenue", "Percent")."""
    return read_stated(col.named).percent and col.kind != "change"


def _mostly_percent(values: list[str]) -> bool:
    return bool(values) and sum("%" in v for v in values) * 2 > len(values)


def table_units(grid: Sequence[Sequence[str]], block: Block, titles: Sequence[str]) -> TableUnits:
    """The statements of one block: the table's (nearest first) and each column's."""
    texts = [*_table_texts(grid, block), *titles]
    table = merge_stated(*(read_stated(t) for t in texts))
    columns = {}
    headed, mostly = set(), set()
    for c, col in block.columns.items():
        columns[c] = read_stated(f"{col.named} {col.unit_words}".strip())
        values = [grid[r][c] for r in range(block.data_start, block.end)
                  if parse_number(grid[r][c]).value is not None]
        if _headed_percent(col):
            headed.add(c)
        elif _mostly_percent(values):
            mostly.add(c)
    levels = [p.column for p in block.places if not is_stated_change(p.channel)]
    money = frozenset(c for c in block.columns if cell_currency(_first_cell(grid, block, c)))
    return TableUnits(table, columns, frozenset(headed), frozenset(mostly),
                      percent_parts(grid, range(block.data_start, block.end), levels), money)


def _first_cell(grid: Sequence[Sequence[str]], block: Block, c: int) -> str:
    """The column's first written cell of the block's data."""
    return next((grid[r][c].strip() for r in range(block.data_start, block.end)
                 if grid[r][c].strip()), "")


def percent_parts(grid: Sequence[Sequence[str]], rows: range, columns: Sequence[int]
                  ) -> frozenset[int]:
    """Rows whose figures add up to a total written as percentages: percentages too.

    A tax-rate reconciliation writes "%" on its first and last rows only ("Statutory
    rate 21.0%", ..., "Effective rate 13.0%"); the rows between add up to the last one in
    every column (of ``columns``, the level columns), so they are in its unit. Checked
    on the numbers: the total's every figure carries "%", no part carries a currency.

    Examples
    --------
    >>> grid = [["", "2019", "2018"], ["Statutory rate", "21.0%", "21.0%"],
    ...         ["State taxes, net", "3.7", "2.1"], ["Other", "(0.7)", "0.4"],
    ...         ["Effective rate", "24.0%", "23.5%"]]
    >>> sorted(percent_parts(grid, range(1, 5), [1, 2]))
    [1, 2, 3]

    A common-size statement (the first row "100%", the last one written with "%") is
    in percent throughout.
    """
    numbers = {r: {c: n for c in columns if c < len(grid[r])
                   and (n := parse_number(grid[r][c])).value is not None} for r in rows}
    out: set[int] = set(_common_size(numbers))
    for total, run in sum_parts([(r, {c: n.value or 0.0 for c, n in cells.items()})
                                 for r, cells in numbers.items() if cells]).items():
        parts = [n for r in run for n in numbers[r].values()]
        if all(n.percent for n in numbers[total].values()) and \
                not any(n.currency for n in parts) and not all(n.percent for n in parts):
            out.update(run)
    return frozenset(out)


def _common_size(numbers: dict[int, dict[int, ParsedNumber]]) -> frozenset[int]:
    """A common-size statement: every row a percentage of the first, written "100%".

    "Sales 100.0 %", "Gross profit 40.0", ..., "Net income 7.2 %": the first row is
    100% in every column and the last row carries "%" in every column, no row carries a
    currency; the rows between are percentages too.
    """
    filled = [r for r, cells in numbers.items() if cells]
    if len(filled) < 3:
        return frozenset()
    first, last = numbers[filled[0]], numbers[filled[-1]]
    if len(first) != len(last) or not all(n.percent and n.value == 100 for n in first.values()) \
            or not all(n.percent for n in last.values()):
        return frozenset()
    if any(n.currency for r in filled for n in numbers[r].values()):
        return frozenset()
    return frozenset(filled)


@dataclass(frozen=True)
class FigureUnit:
    """A figure's unit, its row kind, and whether its scale was stated anywhere.

    ``scale_stated`` is True for a figure no scale applies to (a percentage, a per-share
    amount, a count): only amounts and share counts can lack one.
    """

    unit: str
    kind: str
    scale_stated: bool


def _percent(units: TableUnits, c: int, kind: str, number: ParsedNumber, money: bool,
             channel: str, r: int | None = None) -> bool:
    """A percentage: the cell says so, or its column does for a row that can be one.

    A row of money, a count, a share count or a per-share amount is never made a
    percentage by its column; a column that is only mostly written with "%" makes no
    figure above 100 one.
    """
    if number.percent or channel == CHANGE_PCT_CHANNEL:
        return True
    if money or kind not in (RowKind.AMOUNT, RowKind.RATE):
        return False
    if c in units.percent_columns or r in units.percent_rows:
        return True
    return c in units.mostly_percent and abs(number.value or 0.0) <= 100


def figure_unit(units: TableUnits, block: Block, c: int, channel: str, label: str,
                section: str, row: Sequence[str], r: int | None = None) -> FigureUnit:
    """The unit of the figure in column ``c`` of ``row`` (its label and section given).

    ``r`` is the row's index in the grid (to read :attr:`TableUnits.percent_rows`).

    The row's own statement ("Revenue (in millions)") comes first, then the column's,
    the section's and the table's. A per-share, count or rate row is never scaled by
    a currency scale (:func:`ragspine_nb.extract.scale.row_kind`); a row of money takes
    no percentage from its section or table.
    """
    number = parse_number(row[c])
    numbers = [n for x in row[1:] if (n := parse_number(x)).value is not None]
    header = block.columns[c].header if c in block.columns else ""
    # "$ and shares in millions" says how both are scaled, not that a row counts shares
    says = f"{kind_words(section)} | {kind_words(header)}"
    # a row of money is money in every column, unless the column names what it holds
    # ("Number of Shares" beside "Exercise Price" in an options roll-forward)
    money = bool(number.currency) or (any(_money(n) for n in numbers)
                                      and row_kind(kind_words(header)) == RowKind.AMOUNT)
    kind = row_kind(label, says,
                    [n.value for n in numbers if n.value is not None], money)
    own = read_stated(without_named_terms(label))  # "€500 million notes": a name
    if own.currency and not own.scale:  # "Euro bonds": the bonds' currency, not the row's
        own = replace(own, currency="", money_scale=False)
    stated = merge_stated(own, units.columns.get(c, Stated()), read_stated(section), units.table)
    # "77.6 0.5 % 82.7 0.5 % …": each period's amount, then its percentage, under one
    # "Percent of Net Sales" caption: the figure written without "%" is the amount
    money = money or (not number.percent and alternates_percent(numbers))
    if money and not own.percent:
        stated = replace(stated, percent=False)
    if kind == RowKind.SHARES and stated.money_scale and stated.currency \
            and not stated.shares_scale:
        kind = RowKind.AMOUNT  # "Own shares held" in a £m balance sheet is money
    if kind == RowKind.SHARES and row_kind(label) != RowKind.SHARES and (
            units.columns.get(c, Stated()).money_scale or c in units.money_columns
            and row_kind(kind_words(header)) == RowKind.SHARES):
        # a "$M" column under a heading about shares holds money, as does a column
        # headed "Ordinary Shares" opening with "$" (an equity statement's par value)
        kind = RowKind.AMOUNT
    named = _named(label, header) if stated.except_items else frozenset()
    if kind == RowKind.AMOUNT and any(item <= named for item in stated.except_items):
        # "(Millions, except Employees)": the employees are a count; "(in thousands,
        # except revenue per membership)": "$ 8.15" an amount per unit, never scaled
        kind = RowKind.PER_SHARE if number.currency else RowKind.COUNT
    percent = _percent(units, c, kind, number, money, channel, r)
    currency = number.currency if number.currency in _CODES else ""
    unit = cell_unit(kind, stated, percent=percent, currency=currency)
    scalable = kind in (RowKind.AMOUNT, RowKind.SHARES) and unit != "PCT"
    return FigureUnit(unit, kind, bool(stated.scale or stated.shares_scale) or not scalable)


def _named(label: str, header: str) -> frozenset[str]:
    """The words naming a figure's row and column, their own "except" clauses cut."""
    return frozenset().union(*(content_words(split_except(fold_quotes(t))[0])
                               for t in (label, header)))


def alternates_percent(numbers: Sequence[ParsedNumber]) -> bool:
    """Whether a row's figures alternate an amount and a percentage, two periods or more.

    >>> alternates_percent([parse_number(x) for x in ("77.6", "0.5 %", "82.7", "0.5 %")])
    True
    >>> alternates_percent([parse_number(x) for x in ("45.2 %", "44.1", "43.0")])  # "%" once
    False
    """
    return len(numbers) >= 4 and all(n.percent == (i % 2 == 1) for i, n in enumerate(numbers))


def _money(number: ParsedNumber) -> bool:
    return bool(number.currency)


def borrow_currency(unit: str, default_unit: str) -> str:
    """A profile metric's unit: the figure's, with the metric's currency for a bare scale.

    A ratio metric (default ``PCT``) never takes a currency scale; a figure whose unit
    states nothing keeps the metric's default unit (the profile speaks for it).

    Examples
    --------
    >>> borrow_currency("M", "USD_M"), borrow_currency("", "USD_M"), borrow_currency("K", "PCT")
    ('USD_M', 'USD_M', 'PCT')
    """
    if default_unit == "PCT" or not unit:
        return default_unit or unit
    currency = default_unit.split("_", 1)[0] if "_" in default_unit else ""
    if unit in SCALES and currency:
        return f"{currency}_{unit}"
    return unit
