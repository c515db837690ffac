"""Where a table's figures go: each column's (period, channel), block by block.

A period held by one level column is that period's ``TOTAL``; several columns of one
period (amount | %, "As reported" | "Adjusted", "Men" | "Women") become channels named by
their header words, so no lookup by period alone picks one of them silently. A stated
percentage change goes to :data:`~ragspine_nb.core.CHANGE_PCT_CHANNEL` under its later
period, a stated absolute change to ``CHANGE``; when a period has several, the plain one
takes the channel and the named ones ("Variance in Dollars", "constant currency") get
channels of their own (``CHANGE_VARIANCE_DOLLARS``, ``CHANGE_PCT_CONSTANT_CURRENCY``). A part
of a year (a quarter ended on a date that is no calendar quarter's end, nine months) is
named by its date or words and is never the year's ``TOTAL``. A table can restart its
header inside ("Fiscal 2018" under the "Fiscal 2019" rows): each restart is a block.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ragspine_nb.core import CHANGE_CHANNEL, CHANGE_PCT_CHANNEL
from ragspine_nb.extract.column_moves import MOVEMENT, movement_columns
from ragspine_nb.extract.column_twins import tell_twins_apart
from ragspine_nb.extract.fiscal_calendar import FiscalCalendar, in_calendar
from ragspine_nb.extract.header_periods import Period, cell_period
from ragspine_nb.extract.layout import (
    CHANGE_WORDS,
    Column,
    header_rows,
    is_figure,
    month_day,
    read_columns,
    year_column,
)
from ragspine_nb.extract.values import parse_number

__all__ = ["Place", "Block", "Channels", "read_blocks", "row_places", "channel_code",
           "period_block", "TOTAL", "TOTAL_COLUMN", "NIL_MARKS"]

TOTAL = "TOTAL"
#: Channel code → its names, in order of discovery.
Channels = dict[str, list[str]]


@dataclass(frozen=True)
class Place:
    """Where one column's figures go."""

    column: int
    period: Period
    channel: str


@dataclass(frozen=True)
class Block:
    """Rows under one header: ``header_start`` ≤ header < ``data_start`` ≤ data < ``end``."""

    header_start: int
    data_start: int
    end: int
    places: tuple[Place, ...]
    level_cols: dict[int, Period | None]
    partial: bool
    periods: frozenset[Period]
    columns: dict[int, Column]
    #: the columns name no period: the table's default period dates them
    defaulted: bool = False


def channel_code(label: str) -> str:
    """``"as reported"`` → ``C_AS_REPORTED``."""
    return "C_" + re.sub(r"[^A-Z0-9]+", "_", label.upper()).strip("_")


#: The channel of a column headed "Total" (the row's total for the period).
TOTAL_COLUMN = channel_code("Total")
#: What a report prints for nil in a row of figures.
NIL_MARKS = frozenset({"-", "—", "–"})


def _add(channels: Channels, code: str, *names: str) -> None:
    known = channels.setdefault(code, [])
    known += [n for n in names if n and n not in known]


def _name_words(label: str) -> str:
    """A change column's label without the words every change column has."""
    return " ".join(w for w in label.split() if w not in CHANGE_WORDS)


def _change_places(cols: dict[int, Column], channels: Channels, kind: str, plain: str
                   ) -> list[Place]:
    """Stated change columns of ``kind`` by period.

    A period's only one, or its one plain one ("% change" beside "% change constant
    currency"), goes to ``plain``; a named one to ``plain`` + its name
    (``CHANGE_VARIANCE_DOLLARS``), asked for by that name.
    """
    found = [(c, col.period) for c, col in cols.items()
             if col.kind == kind and col.period is not None]
    out = []
    for c, period in found:
        if period is None:
            continue
        same = [k for k, p in found if p == period]
        named = _name_words(cols[c].label)
        plains = [k for k in same if not _name_words(cols[k].label)]
        written = " ".join(cols[c].named.lower().split())
        if len(same) == 1 or plains == [c]:
            out.append(Place(c, period, plain))
            _add(channels, plain, *([cols[c].label, written] if named else []))
        elif named and not plains.count(c):
            code = plain + channel_code(named)[1:]
            if code not in channels:
                _add(channels, code, cols[c].label, named, written)
                out.append(Place(c, period, code))
    return out


def _single(c: int, col: Column, period: Period, channels: Channels
            ) -> tuple[list[Place], list[Place]]:
    """A period's only column: its TOTAL (and its header words), or a part of a year."""
    if col.part:
        _add(channels, channel_code(col.dated), col.dated)
        return [Place(c, period, channel_code(col.dated))], []
    aliases = [Place(c, period, channel_code(col.label))] if col.label else []
    return [Place(c, period, TOTAL)], aliases


def _balance_day(levels: dict[int, Column], per_period: dict[Period, list[int]]) -> str:
    """The month and day every period held by one column is dated ("dec 31"), if one."""
    days = {month_day(levels[cs[0]].named) for cs in per_period.values()
            if len(cs) == 1 and not levels[cs[0]].part}
    return days.pop() if len(days) == 1 else ""


def _level_places(levels: dict[int, Column], channels: Channels
                  ) -> tuple[list[Place], list[Place]]:
    """Level columns by period: TOTAL, or channels named by their header words.

    Of several columns of one period, the one dated as the table's other periods are
    ("December 31, 2018" beside "January 1, 2018", under "December 31, 2019") is also the
    period's figure.
    """
    per_period: dict[Period, list[int]] = {}
    for c, col in levels.items():
        per_period.setdefault(col.period or ("FY", ""), []).append(c)
    out: list[Place] = []
    aliases: list[Place] = []
    day = _balance_day(levels, per_period)
    for period, cs in per_period.items():
        if len(cs) == 1:
            one, alias = _single(cs[0], levels[cs[0]], period, channels)
            out += one
            aliases += alias
            continue
        labels = [levels[c].label for c in cs]
        partial = any(levels[c].part for c in cs)
        if (partial or len(set(labels)) < len(cs)) and any(levels[c].dated for c in cs):
            # quarters ended "July 27", "April 27"; balances "as of August 1" and "as of
            # December 31" of one year beside an undated "Adjustments"
            labels = [levels[c].dated or levels[c].label for c in cs]
        # a period's columns dated apart ("Estimated at June 30, 2019", "Final as of
        # December 31, 2019") are also named by their dates ("estimated jun 30")
        apart = len({month_day(levels[c].named) for c in cs}) > 1
        for c, label in zip(cs, labels, strict=True):
            if label and labels.count(label) == 1:
                out.append(Place(c, period, channel_code(label)))
                _add(channels, channel_code(label), label, levels[c].full,
                     levels[c].dated if apart else "")
            elif not label and labels.count("") == 1 and not partial:
                out.append(Place(c, period, TOTAL))  # the plain figure beside named ones
        if "" not in labels and labels.count("total") == 1:
            # "Total" beside segments, buckets or quarters: the period's figure
            aliases.append(Place(cs[labels.index("total")], period, TOTAL))
        elif day and not partial and not any(p.period == period and p.channel == TOTAL
                                             for p in out):
            same = [c for c in cs if month_day(levels[c].named) == day]
            aliases += [Place(same[0], period, TOTAL)] if len(same) == 1 else []
    return out, aliases


def _layout(cols: dict[int, Column], default: Period | None, channels: Channels,
            span: tuple[int, int, int], periods: frozenset[Period] | None = None) -> Block:
    """The block of rows ``span`` laid out by ``cols``; its channels join ``channels``."""
    levels = {c: col for c, col in cols.items() if col.kind == "level"}
    defaulted = not levels and default is not None
    if not levels and default:
        levels = {c: replace(col, period=default, kind="level")
                  for c, col in cols.items() if col.kind == "other"}
    for col in cols.values():
        if col.kind in ("level", "other") and col.label:
            _add(channels, channel_code(col.label), col.label, col.full, *col.aliases)
    places, aliases = _level_places(levels, channels)
    for c, col in cols.items():  # a roll-forward's movements: channels of their own
        if col.kind == MOVEMENT and col.period is not None:
            places.append(Place(c, col.period, channel_code(col.label)))
            _add(channels, channel_code(col.label), col.label, col.full)
    places += _change_places(cols, channels, "change_pct", CHANGE_PCT_CHANNEL)
    places += _change_places(cols, channels, "change", CHANGE_CHANNEL)
    found = tuple(places + aliases)
    return Block(*span, found, {c: col.period for c, col in levels.items()},
                 any(col.part for col in levels.values()),
                 periods if periods is not None else frozenset(p.period for p in found), cols,
                 defaulted and bool(found))


def period_block(block: Block, period: Period, channels: Channels) -> Block:
    """Rows under a year title ("2019" above rows, quarters across): that year's block."""
    cols = {c: replace(col, period=period, kind="level")
            for c, col in block.columns.items() if col.kind == "other"}
    return _layout(cols, None, channels, (block.header_start, block.data_start, block.end),
                   frozenset({period}))


def _is_reheader(row: Sequence[str]) -> bool:
    """A row inside the data that names periods and holds no figures starts a new block."""
    cells = row[1:]
    if any(re.search(r"\d+/\d+/\d+", c) for c in cells):  # dates in data ("30/7/2021")
        return False
    return any(isinstance(cell_period(c), tuple) for c in cells) and \
        not any(is_figure(c) for c in cells)


def _starts(table: Sequence[Sequence[str]], header: int) -> list[tuple[int, int]]:
    starts = [(0, header)]
    r = header + 1
    while r < len(table):
        sub = header_rows(table[r:]) if _is_reheader(table[r]) else 0
        if 0 < sub < len(table) - r:
            starts.append((r, r + sub))
            r += sub
        r += 1
    return starts


def read_blocks(table: Sequence[Sequence[str]], default: Period | None,
                channels: Channels, calendar: FiscalCalendar | None = None) -> list[Block]:
    """The table's blocks; ``default`` dates a table whose columns name no period.

    ``calendar`` (the company's fiscal calendar, when its document states one) dates the
    columns headed by a date.
    """
    starts = _starts(table, header_rows(table))
    out = []
    for i, (hs, ds) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(table)
        read = tell_twins_apart(table[hs:], ds - hs,
                                in_calendar(read_columns(table[hs:], ds - hs), calendar))
        # a column of years ("Last Fiscal Year of Expiration") holds dates, never amounts
        cols = movement_columns({c: col for c, col in read.items()
                                 if not _empty_column(table, c, hs, end) and not year_column(
                                     col.named, [table[r][c] for r in range(ds, end)])})
        # year titles over the rows ("2019:" ... "2018:") or dated rows ("Balance at
        # June 30, 2018") date them; else the default
        dated = any(_dated_row(table[r], r >= ds) for r in range(hs, end))
        out.append(_layout(cols, None if dated else default, channels, (hs, ds, end)))
    return out


def _dated_row(row: Sequence[str], data: bool) -> bool:
    """A year title (a period label and nothing else) or a data row whose label names one."""
    if not isinstance(cell_period(row[0]), tuple):
        return False
    return all(not x.strip() for x in row[1:]) or data and any(_number(x) for x in row[1:])


def _empty_column(table: Sequence[Sequence[str]], c: int, start: int, end: int) -> bool:
    """A column with no cell at all in rows ``start:end`` (its header only spans it).

    A restarted header ("FY 2019 (%) | FY 2018 (%) | | ") leaves the columns after its
    last cell empty; they hold no figures and are no sub-columns of the cell beside them.
    """
    return all(c >= len(table[r]) or not table[r][c].strip() for r in range(start, end))


def row_places(row: Sequence[str], block: Block) -> list[Place]:
    """Where a row's figures go; a row's only figure for a period is also that period's.

    A dash beside the row's figures is nil: it is placed too.
    """
    numbers = {c: _number(row[c]) for c in {p.column for p in block.places} | set(block.level_cols)}
    some = any(numbers[p.column] for p in block.places)
    figures = [p for p in block.places
               if numbers[p.column] or (some and row[p.column].strip() in NIL_MARKS)]
    plain = {p.period for p in block.places if p.channel == TOTAL}
    # in the columns' order (a set's order changes with the process's hash seed)
    for period in dict.fromkeys(p.period for p in figures if p.period not in plain):
        # (a period with its own plain column: a dash there is not another column's)
        mine = [c for c, p in block.level_cols.items() if p == period and numbers[c]]
        if len(mine) != 1:  # ... else its "Total" column's, the row's total for the period
            mine = [p.column for p in figures if p.period == period
                    and p.channel == TOTAL_COLUMN and numbers[p.column]]
        if len(mine) == 1 and not block.partial and \
                Place(mine[0], period, TOTAL) not in figures:
            figures.append(Place(mine[0], period, TOTAL))
    return figures


def _number(cell: str) -> bool:
    """Any number, a year-like figure included (a data row may hold "2019" as a figure)."""
    return parse_number(cell).value is not None
