"""Table layout: the header block, and what each column is (period, kind, name).

A table is a grid whose first column holds the row labels. Its header block is the
leading rows with no figure other than a year: row 0 is often a caption spanning the
columns ("Years Ended September 30,"), the periods sit in row 1 or 2, group titles
("Financial assets") and sub-columns ("$ | %", "Men | Women") between them. A header
cell with gaps beside it spans the columns of its group: the groups are read from the
column span (equal groups of sub-columns, each holding one of the cells), else the cell
covers the columns to its right.

Each column is a *level* (a period's figure), a stated *change* ("2019 vs 2018", "$
change") or *change_pct* ("% change"), or *other* (no period). Its ``label`` is what the
header says besides periods, dates and units.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from ragspine_nb.extract.buckets import BOUND, NUMBER_WORDS, bucket_names
from ragspine_nb.extract.header_periods import (
    MULTI,
    YEAR,
    YEAR_RANGE,
    Period,
    cell_period,
    dated_period,
    duration,
    duration_words,
    header_date,
    unspaced_year,
)
from ragspine_nb.extract.values import parse_number
from ragspine_nb.lexicon import MONTH_CAPTURED, MONTH_NAMES, MONTH_STEMS, MONTHS, UNITED_STATES
from ragspine_nb.period_phrases import ORDINALS

__all__ = ["Column", "header_rows", "read_columns", "group_owner", "is_figure",
           "CHANGE_WORDS", "column_label", "is_percent_column", "month_day",
           "month_days", "quarter_label", "year_column"]

_CHANGE = re.compile(r"(?<![a-z])(?:chang|varian|variation|differen|increase|decrease)|\bvs\.?\b"
                     r"|\bover\b(?!\s+(?:\d{1,3}|one|two|three|five|ten)\s+(?:year|month|day))"
                     r"|\bgrowth\b|\byoy\b|同比|变动|增减", re.I)
#: Words of a change column that do not name it ("% change", "2019 vs 2018").
CHANGE_WORDS = frozenset({"change", "changes", "percent", "variance", "increase", "decrease",
                          "vs", "over", "difference", "growth", "yoy", "inc", "dec"})
#: Month stems that are no whole month name ("may" is one)
_ABBREVIATIONS = "|".join(s for s in MONTH_STEMS if s not in MONTHS)
#: Header words that carry no column meaning (dates, fiscal words, units and scales).
_NOISE = re.compile(
    rf"\b(?:{MONTH_NAMES}|{_ABBREVIATIONS}|sept|fiscal|years?|ended|ending|"
    r"end|as(?=\s+(?:of|at)\b)|of|at|for|the|in|weeks?|months?|period|millions?|thousands?|"
    r"billions?|"
    r"except|percentages|amounts?|data|usd|rmb|us|m|bn|k|note|three|six|nine|twelve)\b"
    r"|[$€£¥’'()*:,.\d]", re.I)
_RANGE = re.compile(r"(?<![\d.,/])(\d{1,3})\s*(?:[-–—]|\bto\b)\s*(\d{1,3})(?![\d.,/])", re.I)
_OVER = re.compile(r">\s*(\d{1,4})(?![\d.,/])")
_PERIOD_WORDS = re.compile(
    r"(?<![a-z0-9])q[1-4]\s*(?:fy)?\s*'?\d{2,4}|(?<!\d)(?:19|20)\d\d\s*/\s*(?:19|20)?\d\d"
    r"|(?<![a-z0-9])(?:fy|f)\s?'?(?:\d{4}|\d\d)(?!\d)|(?<![a-z0-9])[12]h\s*\d{2,4}|\bh[12]\b"
    r"|\b(?:first|second|third|fourth) (?:quarter|half)(?: of)?(?: fiscal)?(?: year)?\s*'?\d{2,4}"
    r"|(?<!\d)(?:19|20)\d\d\s*[qh][1-4]\b", re.I)
_CURRENCY_WORDS = re.compile(r"\b(?:nt|hk|dollars?)\b", re.I)
_MONTH_DAY = re.compile(rf"\b{MONTH_CAPTURED}\s*(\d{{1,2}})\b", re.I)


@dataclass(frozen=True)
class Column:
    """What one column is.

    ``period`` is None for a column without one; ``kind`` is ``level``, ``change``,
    ``change_pct`` or ``other``; ``label`` the header words naming it; ``dated`` the label
    with its month and day ("july 27"); ``full`` the label with its parenthesised notes;
    ``part`` is True for a part of a year that is not a calendar quarter or half (a
    quarter ended July 27, nine months): never the year's own figure; ``header`` all the
    header text above the column (units, scales, "%"); ``named`` only its own cells and
    the group cells spanning it.
    """

    period: Period | None
    kind: str
    label: str
    dated: str = ""
    full: str = ""
    part: bool = False
    header: str = ""
    named: str = ""
    #: other ways to write its name ("1 to 3 years" beside "1-3")
    aliases: tuple[str, ...] = ()
    #: the unit its header implies beside a twin ("M" beside "$M": "(in millions)")
    unit_words: str = ""


def is_figure(cell: str) -> bool:
    """A cell holding a number that is not a bare year (letter-spaced or not)."""
    return parse_number(cell).value is not None and \
        not YEAR.fullmatch(unspaced_year(cell).strip() or "x")


def header_rows(table: Sequence[Sequence[str]]) -> int:
    """How many leading rows form the header block (no figure but a year after column 0)."""
    for r, row in enumerate(table):
        if any(is_figure(c) for c in row[1:]):
            return r
    return len(table)


def _dated_cell(cell: str) -> bool | None:
    """Whether a sub-header cell names a period (None for an empty cell)."""
    return isinstance(cell_period(cell), tuple) if cell.strip() else None


def group_owner(row: Sequence[str], c: int, below: Sequence[str] | None = None) -> int | None:
    """The column of the header cell in ``row`` whose group covers column ``c``.

    The filled cells of a row with gaps split the columns into groups. When the columns
    split into equal groups that each hold exactly one filled cell, that cell names its
    group wherever it sits in it ("2019" over the second of "Low | High"); otherwise a
    cell covers the empty columns to its right. A group never spans a period sub-column
    and one that is not (``below``, the header row under ``row``): "Percent Change" over
    "Actual | Constant" does not name the "2019" column beside them.

    Examples
    --------
    >>> group_owner(["", "", "2019", "", "2018"], 1), group_owner(["", "2019", "", "2018", ""], 2)
    (2, 1)
    >>> group_owner(["", "", "", "% Change", ""], 1, ["", "2019", "Actual", "Constant", "2018"])
    """
    if row[c].strip():
        return c
    filled = [k for k in range(1, len(row)) if row[k].strip()]
    width = len(row) - 1
    owner = None
    if filled and width % len(filled) == 0 and width // len(filled) > 1:
        size = width // len(filled)
        groups = [[k for k in filled if 1 + i * size <= k < 1 + (i + 1) * size]
                  for i in range(len(filled))]
        if all(len(g) == 1 for g in groups):
            owner = groups[(c - 1) // size][0]
    if owner is None:
        left = [k for k in filled if k < c]
        owner = left[-1] if left else None
    if owner is not None and below is not None:
        mine, theirs = _dated_cell(below[c]), _dated_cell(below[owner])
        if mine is not None and theirs is not None and mine != theirs:
            return None
    return owner


@lru_cache(maxsize=16384)
def column_label(text: str, *, change: bool = False, notes: bool = False) -> str:
    """Header words that name a column ("as reported", "1-90", "less than 1 year").

    A change column keeps "dollars" ("Variance in Dollars"); parenthesised notes
    ("Net additions (losses)") are kept only with ``notes=True``.
    """
    bounds = [f"{w.lower()} {k} {u.lower()}{'' if k == '1' else 's'}"
              for w, n, u in BOUND.findall(text) for k in [NUMBER_WORDS.get(n.lower(), n)]]
    text = BOUND.sub(" ", text)
    ranges = bounds + [f"{a}-{b}" for a, b in YEAR_RANGE.findall(text)] + \
        [f"{a}-{b}" for a, b in _RANGE.findall(text)] + [f"{a}+" for a in _OVER.findall(text)]
    text = _OVER.sub(" ", _RANGE.sub(" ", YEAR_RANGE.sub(" ", text)))
    text = UNITED_STATES.sub("United States", text)  # "U.S.": no two single letters
    text = text if change else _CURRENCY_WORDS.sub(" ", text)
    text = text if notes else re.sub(r"\([^)]*\)", " ", text)
    text = re.sub(r"(?<=[A-Za-z])-(?=[A-Za-z])", "", text)  # "Non-USD" is one word
    text = _PERIOD_WORDS.sub(" ", text)
    words = _NOISE.sub(" ", text.replace("%", " percent ")).lower().split()
    return " ".join(dict.fromkeys([*ranges, *(w for w in words
                                               if len(w) > 1 and re.search(r"[a-z]", w))]))


_ORDINAL_QUARTER = re.compile(
    r"\b(first|second|third|fourth|1st|2nd|3rd|4th) (?:fiscal )?quarter\b|\bq([1-4])\b", re.I)


def _quarter_number(m: re.Match[str]) -> str:
    return m.group(2) or str(ORDINALS[m.group(1).lower()])


def _ordinal_quarter(text: str) -> str:
    """The quarter a header names without a year ("Third Quarter", "Q3"), else ``""``."""
    found = {_quarter_number(m) for m in _ORDINAL_QUARTER.finditer(text)}
    return found.pop() if len(found) == 1 else ""


def quarter_label(text: str) -> int | None:
    """The quarter a row label names and nothing else ("Fourth Quarter", "Q4:"), else None.

    >>> quarter_label("Fourth Quarter"), quarter_label("Q2:"), quarter_label("Fourth Quarter sales")
    (4, 2, None)
    """
    m = _ORDINAL_QUARTER.fullmatch(text.strip().rstrip(":.").strip())
    return int(_quarter_number(m)) if m else None


def month_days(text: str) -> list[str]:
    """Each month and day ``text`` names, in order ("December 31, 2019" → "dec 31")."""
    return [f"{m.group(1).lower()} {int(m.group(2))}" for m in _MONTH_DAY.finditer(text)]


def month_day(text: str) -> str:
    """The one month and day a header names ("December 31, 2019" → "dec 31"), else ``""``."""
    days = set(month_days(text))
    return days.pop() if len(days) == 1 else ""


def _dated(text: str, label: str) -> str:
    days = month_days(text)
    return " ".join([label, *days]).strip() if days else ""


def _column_period(table: Sequence[Sequence[str]], header: int, c: int
                   ) -> tuple[Period | str | None, str]:
    """The period of column ``c`` from the lowest header row naming one, and its text."""
    for r in range(header - 1, -1, -1):
        owner = group_owner(table[r], c, table[r + 1] if r + 1 < header else None)
        text = table[r][owner] if owner is not None else ""
        period = cell_period(text)
        if period is not None:
            return period, text
    return None, ""


def _titles(table: Sequence[Sequence[str]], header: int) -> set[int]:
    """Header rows holding one dated title over all the columns ("Price Range 2018")."""
    width = max((len(r) for r in table), default=0)
    out = set()
    for r in range(header):
        cells = [x for x in table[r][1:] if x.strip()]
        if width > 2 and len(cells) == 1 and isinstance(cell_period(cells[0]), tuple) \
                and not _CHANGE.search(cells[0]):
            out.add(r)
    return out


def _captions(table: Sequence[Sequence[str]], header: int) -> set[int]:
    """Header rows whose one cell spans every column ("Payments due by period").

    Such a caption names the table, not a column: its words are no column's label
    (its dates, durations and units still count).
    """
    width = max((len(r) for r in table), default=0)
    out = set()
    for r in range(header):
        filled = [k for k in range(1, len(table[r])) if table[r][k].strip()]
        below = table[r + 1] if r + 1 < header else None
        if width > 2 and len(filled) == 1 and all(
                group_owner(table[r], c, below) == filled[0] for c in range(1, width)):
            out.add(r)
    return out


def _named(table: Sequence[Sequence[str]], header: int, c: int, titles: set[int]) -> str:
    """The header text naming column ``c``: its own cells and the groups spanning it."""
    parts = []
    for r in range(header):
        if r in titles:
            continue
        owner = group_owner(table[r], c, table[r + 1] if r + 1 < header else None)
        parts.append(table[r][owner] if owner is not None else "")
    return " ".join(p for p in parts if p)


def is_percent_column(own: str, values: list[str]) -> bool:
    """A column of percentages: its own header says so, or most of its figures carry %."""
    if "%" in own or re.search(r"\bpercent", own, re.I):
        return True
    return bool(values) and sum("%" in v for v in values) * 2 > len(values)


#: A column whose header names a year or date ("Last Fiscal Year of Expiration").
_YEAR_HEADER = re.compile(r"\b(?:years?|dates?)\b", re.I)
#: A cell that writes a year, perhaps with words after it ("2039 or indefinite").
_YEAR_CELL = re.compile(r"\s*(?:19|20)\d\d(?![\d,.])(?:\s+[a-z][^\d]*)?\s*", re.I)


def year_column(header: str, cells: Sequence[str]) -> bool:
    """A column of years, not amounts: its header names a year or date, its cells are years.

    >>> year_column("Last Fiscal Year of Expiration", ["", "2039", "2039 or indefinite"])
    True
    >>> year_column("Amount", ["2039", "2,041"]), year_column("Year", ["2019", "1,250"])
    (False, False)
    """
    written = [x for x in cells if x.strip()]
    return bool(_YEAR_HEADER.search(header)) and bool(written) and \
        all(_YEAR_CELL.fullmatch(x) for x in written)


def _one_column(table: Sequence[Sequence[str]], header: int, c: int, titles: set[int],
                caption: str, captions: frozenset[int] = frozenset()) -> Column:
    period, ptext = _column_period(table, header, c)
    own = " ".join(table[r][c] for r in range(header))
    named = _named(table, header, c, titles)
    # the words naming the column: a caption over every column names none of them,
    # unless the column has no other words ("Balance at Beginning of" over "Period")
    naming = _named(table, header, c, titles | captions)
    naming = naming if column_label(naming) else named
    everything = " ".join([caption, *(" ".join(table[r][1:]) for r in titles)])
    values = [table[r][c] for r in range(header, len(table)) if is_figure(table[r][c])]
    head = f"{named} {everything}".strip()
    if period == MULTI or _CHANGE.search(named):
        years = sorted(set(YEAR.findall(f"{own} {ptext}")))
        kind = "change_pct" if is_percent_column(named, values) or any("%" in v for v in values) \
            else "change"
        return Column(("FY", years[-1]) if years else None, kind,
                      column_label(naming, change=True), header=head, named=named)
    if not isinstance(period, tuple):
        return Column(None, "other", column_label(naming), "", column_label(naming, notes=True),
                      header=head, named=named)
    label = column_label(naming)
    quarter = _ordinal_quarter(named)
    if quarter and period[0] == "FY":  # "First Quarter" under "Fiscal 2019": 2019Q1
        return Column(("QUARTER", f"{period[1]}Q{quarter}"), "level",
                      column_label(_ORDINAL_QUARTER.sub(" ", naming)), "",
                      column_label(naming, notes=True), header=head, named=named)
    part = duration(named) or duration(everything)
    date = header_date(ptext) or header_date(named)
    if part and period[0] == "FY":
        aligned = dated_period(part, date) if date else None
        if aligned is not None:
            return Column(aligned, "level", label, "", column_label(naming, notes=True),
                          header=head, named=named)
        words = duration_words(named) or duration_words(everything)
        name = " ".join(dict.fromkeys(f"{label} {words}".split()))
        return Column(period, "level", label, _dated(named, name) or name,
                      column_label(naming, notes=True), part=True, header=head, named=named)
    return Column(period, "level", label, _dated(named, label),
                  column_label(naming, notes=True), header=head, named=named)


def read_columns(table: Sequence[Sequence[str]], header: int) -> dict[int, Column]:
    """Period, kind and label of every column after the first.

    A table with one period gives it to the named columns beside it; a change column
    without a stated year belongs to the table's latest period.
    """
    width = max((len(r) for r in table), default=0)
    titles = _titles(table, header)
    caption = " ".join(table[r][0] for r in range(header) if table[r])
    captions = frozenset(_captions(table, header))
    out = {c: _one_column(table, header, c, titles, caption, captions) for c in range(1, width)}
    for c, col in out.items():
        if col.kind in ("level", "other") and (names := bucket_names(col.named)):
            out[c] = replace(col, aliases=names)
    levels = [col.period for col in out.values() if col.kind == "level" and col.period]
    if len(set(levels)) == 1:
        for c, col in out.items():
            if col.kind == "other" and col.label:
                out[c] = replace(col, period=levels[0], kind="level", dated="")
    for c, col in out.items():
        if col.kind.startswith("change") and col.period is None and levels:
            out[c] = replace(col, period=max(levels, key=lambda p: (p[1], p[0])))
    return out
