"""One table's rows, block by block, into facts: sections, totals, metrics and units.

Walks the blocks of a laid-out table (:func:`ragspine_nb.extract.placement.read_blocks`):
a row with a label and no figures is a section title (or a year title dating the rows
below it); an unlabelled row closing a section, or adding up the rows above it, is
their total. Each row is a profile metric (its label through the glossary) or, when the
profile lets tables bring their own vocabulary, a metric derived from its label
(:class:`ragspine_nb.extract.rows.Namer`); otherwise it is skipped and reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ragspine_nb.core import is_stated_change
from ragspine_nb.extract.fiscal_calendar import FiscalCalendar, between, due_on, row_period
from ragspine_nb.extract.header_periods import Period, cell_period
from ragspine_nb.extract.placement import TOTAL, Block, Channels, Place, period_block, row_places
from ragspine_nb.extract.row_kinds import RowKind, row_kind
from ragspine_nb.extract.rows import norm_label, repeated_labels, undated_label
from ragspine_nb.extract.scale import read_stated
from ragspine_nb.extract.sums import is_roll_forward, sum_parts
from ragspine_nb.extract.table_units import TableUnits
from ragspine_nb.extract.values import parse_number, states_figure

__all__ = ["change_row", "RowRef", "Walk", "walk_rows", "row_parts", "block_figures",
           "plain_channel"]


@dataclass(frozen=True)
class RowRef:
    """A data row to turn into facts: where it is, what it is called, where it sits."""

    r: int
    raw: str
    label: str
    section: str
    repeated: bool
    layout: Block
    units: TableUnits
    #: what the rows are, from the header's label cell ("Operating revenues"), if any
    stub: str = ""
    #: the section's total by name ("Total services") is above the row: it closed the section
    after_total: bool = False


@dataclass
class Walk:
    """What the walk collects beside the rows themselves."""

    rows: list[RowRef] = field(default_factory=list)
    sections: dict[int, str] = field(default_factory=dict)
    #: rows that add up others, checked on the figures: total row → the rows it adds up
    sums: dict[int, tuple[int, ...]] = field(default_factory=dict)


#: A cash-flow statement's section of working-capital movements ("Changes in operating
#: assets and liabilities:", "(Increase) decrease in:", "Change in working capital",
#: "营运资金的变动"): a row under it is the change of the item it names, never the item's
#: balance ("Inventories (200)" under it is no inventory of -200).
_CHANGES = re.compile(
    r"(?i)\bchanges?\s+in\s+(?:[\w'’,-]+\s+){0,4}?(?:assets|liabilities|working\s+capital)"
    r"|^\W*\(?(?:increase|decrease)\)?\s*(?:/|and|or)?\s*\(?(?:increase|decrease)\)?\s+in\b"
    r"|营运资金[^，,]{0,4}变动|经营性应[收付]项目的(?:增加|减少)")
#: A row closing a section of changes: the cash flow it adds up to, or a total.
_CLOSES_CHANGES = re.compile(r"(?i)^(?:net cash|cash (?:provided|used|generated|flows?)|"
                             r"total\b|net (?:increase|decrease))|经营活动产生的现金流量净额")


def change_row(section: str) -> bool:
    """Whether rows under ``section`` are changes of the items they name.

    Examples
    --------
    >>> [change_row(s) for s in ("Changes in operating assets and liabilities:",
    ...     "Changes in assets and liabilities, net of acquisitions", "(Increase) decrease in:",
    ...     "Change in working capital", "营运资金的变动")]
    [True, True, True, True, True]
    >>> [change_row(s) for s in ("Current assets", "Liabilities and equity",
    ...     "Changes in accounting estimates", "")]
    [False, False, False, False]
    """
    return bool(section) and bool(_CHANGES.search(section))


#: A row stating the row above as a share of something ("Percentage of revenue", "% of
#: net sales", "As a % of total").
_SHARE_ROW = re.compile(r"(?:as an? )?(?:percentage|percent|%|share) of\b", re.I)


def _blank(row: Sequence[str]) -> bool:
    return all(not c.strip() for c in row[1:])


#: Words that leave a phrase open ("More than" of a head "More than / 5 years" drawn on
#: the line under the header): no heading of the rows below.
_DANGLING = re.compile(r"(?i)\b(?:than|to|of|and|or|in|after|before|over|under|within)\s*$")


def _titles_above(grid: Sequence[Sequence[str]], block: Block
                  ) -> tuple[str, str, Period | None]:
    """The section title and the period title among the header rows, nearest first.

    "Revenue:" right above the first data is its section; a period title above it
    ("June 30, 2019" over "Finite-lived assets") dates the rows down to the next one.
    Rows above a period title are the caption's, not the rows' section.
    """
    section, raw = "", ""
    for r in range(block.data_start - 1, block.header_start - 1, -1):
        label = norm_label(grid[r][0])
        if not label or not _blank(grid[r]) or states_figure(grid[r][0]) or \
                _DANGLING.search(grid[r][0]):
            continue  # "Common stock: Authorized — 1.0 billion shares; …" titles no rows
        period = cell_period(grid[r][0])
        if isinstance(period, tuple) and not block.periods:
            return section, raw, period
        if not section:
            section, raw = label, grid[r][0]
    return section, raw, None


def _row_dates(grid: Sequence[Sequence[str]], block: Block) -> dict[int, Period]:
    """Rows of figures whose labels carry their period ("Balance at December 31, 2018").

    A note due on a date ("1.0% notes due April 27, 2023") is dated by its maturity, not
    its figures' period.
    """
    out = {}
    for r in range(block.data_start, block.end):
        period = cell_period(grid[r][0])
        if isinstance(period, tuple) and not _blank(grid[r]) and not due_on(grid[r][0]):
            out[r] = period
    return out


def _fiscal_dates(grid: Sequence[Sequence[str]], block: Block, dates: dict[int, Period],
                  calendar: FiscalCalendar
                  ) -> tuple[dict[int, Period], dict[int, Period | None]]:
    """The dated rows read in the company's fiscal calendar, and every row's period.

    A dated row is of its label's period, a movement between two balances of the span
    they cover (January 28 to July 29: the first half), one before the first balance of
    that balance's year when it closes a fiscal year (the year's movements); any other
    movement's span is not known (``None``). With no balance dated at a quarter's or
    year's end, only the dated rows are read (every row's period empty: the rows are laid
    out as without a calendar).
    """
    out: dict[int, Period | None] = {r: None for r in range(block.data_start, block.end)}
    balances = []
    for r in range(block.data_start, block.end):
        found = row_period(grid[r][0], calendar)
        if found is not None and found[1]:
            balances.append(r)  # a balance, even of nil figures, bounds the movements
        if r in dates:
            out[r] = found[0] if found else dates[r]
    read = {r: p for r, p in out.items() if p is not None}
    if not balances:
        return read, {}
    for start, end in zip(balances, balances[1:], strict=False):
        span = between(grid[start][0], grid[end][0], calendar)
        for r in range(start + 1, end):
            if r not in dates:
                out[r] = span
    first = out[balances[0]]
    if first is not None and first[0] == "FY":
        for r in range(block.data_start, balances[0]):
            out[r] = out[r] or first
    return read, out


def _dated_layouts(grid: Sequence[Sequence[str]], block: Block, channels: Channels,
                   calendar: FiscalCalendar | None = None) -> dict[int, Block]:
    """A layout per row of a table whose periods are in its row labels, not its columns.

    A dated row ("Balances at December 31, 2018") is of its own period; the movements
    between two dated rows lead to the later one ("Goodwill acquired" above the 2019
    balance is 2019's), those after the last dated row belong to it. With the company's
    fiscal ``calendar``, dates are read in it and a movement is of the span between the
    balances around it, or of no period (:func:`_fiscal_dates`).
    """
    dates = _row_dates(grid, block)
    if block.places or not dates:
        return {}
    cache: dict[Period | None, Block] = {None: replace(block, places=())}
    fiscal: dict[int, Period | None] = {}
    if calendar is not None:
        dates, fiscal = _fiscal_dates(grid, block, dates, calendar)
    if fiscal:  # a row of no known period (None) states no fact
        for known in filter(None, dict.fromkeys(fiscal.values())):
            cache[known] = period_block(block, known, channels)
        return {r: cache[p] for r, p in fiscal.items()}
    out = {}
    previous: Period | None = None
    for r in range(block.data_start, block.end):
        period = dates.get(r) or next((dates[k] for k in sorted(dates) if k > r), previous)
        previous = dates.get(r, previous)
        if period is not None:
            out[r] = cache.setdefault(period, period_block(block, period, channels))
    return out


def _stub(grid: Sequence[Sequence[str]], block: Block) -> str:
    """What the rows are, from the label cell of the header ("Contractual Obligations").

    A caption stating units ("(In thousands)") or a period is not what the rows are.
    """
    for r in range(block.data_start - 1, block.header_start - 1, -1):
        cell = grid[r][0]
        if norm_label(cell) and not _blank(grid[r]) and not read_stated(cell) \
                and cell_period(cell) is None:
            return norm_label(cell)
    return ""


def _total_section(section: str, since: int, run: tuple[int, ...] | None, stub: str) -> str:
    """The section qualifying a total row: its own, or what the rows are for a grand total.

    A total adding up rows above its section's heading (checked on the figures) is the
    table's grand total, not the section's.
    """
    if not section or (run and min(run) < since):
        return stub
    return section


def _units_heading(headings: Sequence[str]) -> str:
    """The headings that speak for a row's units.

    The nearest heading, when it says what the figures are ("Participating shares:");
    else the whole run above the rows ("Earnings per share:" over "Continuing
    operations:").
    """
    nearest = headings[-1] if headings else ""
    if row_kind("", nearest) != RowKind.AMOUNT:
        return nearest
    return " | ".join(h for h in headings if h)


def _walk_block(grid: Sequence[Sequence[str]], block: Block, sums: dict[int, tuple[int, ...]],
                channels: Channels, units: TableUnits, out: Walk,
                calendar: FiscalCalendar | None = None) -> None:
    section, raw_section, first = _titles_above(grid, block)
    stub, since = _stub(grid, block), block.data_start
    dated = _dated_layouts(grid, block, channels, calendar)
    labels = [undated_label(grid[r][0]) if r in dated else norm_label(grid[r][0])
              for r in range(block.data_start, block.end)]
    again = _restated(grid, block, labels)
    repeated = _segment_repeats(grid, block, [
        "" if r in again else label for r, label in zip(range(block.data_start, block.end),
                                                        labels, strict=True)])
    layout = block
    if first is not None and not block.periods:  # "2019" above the data
        layout = period_block(block, first, channels)
    headings, run = [raw_section], False  # the run of headings over the rows
    closed = False  # the section's total by name is above: the rows are no longer in it
    for r, label in zip(range(block.data_start, block.end), labels, strict=True):
        if r in again:
            continue  # the same row stated again: one row
        row = grid[r]
        layout = dated.get(r, layout)
        has_figures = bool(row_places(row, layout))
        if not label and (r in sums or section and has_figures):
            label = "total"  # an unlabelled row closing a section or adding up rows above
        if not label:
            continue
        if _blank(row):
            if states_figure(row[0]) or _DANGLING.search(row[0]):
                continue  # a note stating a count, a head's first words: no heading
            period = cell_period(row[0])
            if isinstance(period, tuple) and not block.periods:
                layout, section, raw_section = period_block(block, period, channels), "", ""
            else:
                section, raw_section = label, row[0]
            headings, run, since = ([*headings, row[0]] if run else [row[0]]), True, r
            closed = False
            continue
        run = False
        if change_row(section) and (r in sums or label == "total"
                                    or _CLOSES_CHANGES.match(label)):
            section, raw_section = "", ""  # the changes end where their cash flow is added up
        out.sections[r] = _units_heading(headings)
        own = _total_section(section, since, sums.get(r), stub) if label == "total" \
            else section
        above = out.rows[-1] if out.rows and out.rows[-1].r == r - 1 else None
        if above is not None and _SHARE_ROW.match(label) and not _SHARE_ROW.match(above.label):
            # "Percentage of revenue" right under "Product": Product's percentage, named by it
            out.rows.append(RowRef(r, row[0], label, above.label, True, layout, units, stub))
            continue
        out.rows.append(RowRef(r, row[0] or "Total", label, own,
                               repeated[r - block.data_start], layout, units, stub,
                               after_total=closed))
        # "Total services" closes "Services:": "Total revenue" after it is no service
        closed = closed or closes(label, section)


def closes(label: str, section: str) -> bool:
    """Whether a row's label is its section's total by name ("Total services").

    >>> closes("total services", "services"), closes("services total", "services")
    (True, True)
    >>> closes("total", "services"), closes("total license and subscription", "revenue")
    (False, False)
    """
    words = label.split()
    return bool(section) and len(words) > 1 and "total" in (words[0], words[-1]) and \
        " ".join(w for w in words if w != "total") == section


def _restated(grid: Sequence[Sequence[str]], block: Block, labels: Sequence[str]) -> set[int]:
    """Rows stating again a row above them: the same label, the very same figures.

    "TOTAL REVENUES" closes revenues by product and again revenues by channel: the one
    total, stated twice (it was named "Revenues by: Total revenues", a row of its own,
    and the second time by the wrapped label above it). Under year titles ("2019" …
    "2018" over the rows) each year's rows are apart.
    """
    seen: set[tuple[str, tuple[str, ...]]] = set()
    again: set[int] = set()
    for r, label in zip(range(block.data_start, block.end), labels, strict=True):
        if not block.periods and _blank(grid[r]) and isinstance(cell_period(grid[r][0]), tuple):
            seen.clear()  # another year's rows
            continue
        cells = tuple(c.strip() for c in grid[r][1:])
        if not label or not any(states_figure(c) for c in cells):
            continue
        if (label, cells) in seen:
            again.add(r)
        seen.add((label, cells))
    return again


def _segment_repeats(grid: Sequence[Sequence[str]], block: Block, labels: Sequence[str]
                     ) -> list[bool]:
    """Whether each row's label repeats among the rows under its own period title.

    Under year titles ("2019" ... "2018" over the rows) the same label under each year
    is one metric; twice under one year (under two sections) it is two. A heading with
    no figures is no row: "Cash provided (used) by investing activities:" over the rows
    its total of that name closes is the section's title, not a second row.
    """
    rows = range(block.data_start, block.end)
    cuts = [i for i, r in enumerate(rows) if not block.periods and _blank(grid[r])
            and isinstance(cell_period(grid[r][0]), tuple)]
    out = [False] * len(labels)
    for lo, hi in zip([0, *cuts], [*cuts, len(labels)], strict=True):
        twice = repeated_labels(label for i, label in enumerate(labels[lo:hi], lo)
                                if not _blank(grid[rows[i]]))
        out[lo:hi] = [label in twice for label in labels[lo:hi]]
    return out


def block_figures(grid: Sequence[Sequence[str]], block: Block
                  ) -> list[tuple[int, dict[Place, float]]]:
    """The figures of a block's rows in its level columns (changes do not add up)."""
    places = [p for p in block.places if not is_stated_change(p.channel)]
    out = []
    for r in range(block.data_start, block.end):
        values = {p: v for p in places
                  if (v := parse_number(grid[r][p.column]).value) is not None}
        if values:
            out.append((r, values))
    return out


def walk_rows(grid: Sequence[Sequence[str]], blocks: Sequence[Block], channels: Channels,
              units: Callable[[Block], TableUnits],
              calendar: FiscalCalendar | None = None) -> Walk:
    """Every data row of every block, with its label, section and layout.

    Rows dated in their labels are read in the company's fiscal ``calendar``, when known.
    """
    sums = {r: run for block in blocks
            for r, run in sum_parts(block_figures(grid, block)).items()}
    out = Walk(sums=sums)
    for block in blocks:
        _walk_block(grid, block, sums, channels, units(block), out, calendar)
    return out


def row_parts(grid: Sequence[Sequence[str]], blocks: Sequence[Block],
              figures: dict[int, dict[tuple[Period, str], float]]) -> dict[int, tuple[int, ...]]:
    """Which rows are the sums of which, checked on the figures, roll-forwards left out."""
    out: dict[int, tuple[int, ...]] = {}
    for block in blocks:
        rows = [(r, figures[r]) for r in range(block.data_start, block.end) if r in figures]
        for total, run in sum_parts(rows).items():
            if not is_roll_forward(grid[total][0], [grid[r][0] for r in run]):
                out[total] = run
    return out


def plain_channel(channel: str, default: str) -> str:
    """The placement's TOTAL is the profile's default channel."""
    return default if channel == TOTAL else channel
