"""Columns a question names by the date their header states.

A quarterly table heads its columns "Quarters Ended | July 27, 2019 | April 27, 2019";
an allocation table "As of August 1, 2019 | As of December 31, 2019". Their channels are
named from the header ("quarters jul 27"), so "the quarter ended July 27, 2019" or
"the revised total liabilities as of December 31, 2019" name a column by its date, not a
period of ours (a quarter ending mid-month is none). :func:`dated_columns` finds the one
column whose name states each date the question writes (pure reading of the folded
question and the columns' names; the year stays the question's period).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ragspine_nb.extract.layout import month_days
from ragspine_nb.period_phrases import MONTH

__all__ = ["DatedColumns", "dated_columns", "question_dates"]

_DATE = re.compile(
    rf"(?<![a-z])(?P<m>{MONTH})\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?!\d)"
    r"(?:,?\s+(?P<y>(?:19|20)\d\d))?"
    rf"|(?<!\d)(?P<d2>\d{{1,2}})\s+(?P<m2>{MONTH})(?:,?\s+(?P<y2>(?:19|20)\d\d))?")


@dataclass(frozen=True)
class DatedColumns:
    """The columns named by their dates, in the question's order, and the years written."""

    codes: tuple[str, ...] = ()
    #: the years the dates write ("july 27, 2019" → "2019"), in order, once each
    years: tuple[str, ...] = ()


def question_dates(text: str) -> list[tuple[str, str]]:
    """``(month day, year)`` of each date a folded question writes, as headers name them.

    Examples
    --------
    >>> question_dates("the quarter ended july 27, 2019 and 26 january")
    [('jul 27', '2019'), ('jan 26', '')]
    """
    out = []
    for m in _DATE.finditer(text):
        first = bool(m.group("m"))
        month, day = (m.group("m"), m.group("d")) if first else (m.group("m2"), m.group("d2"))
        if 1 <= int(day) <= 31:
            out.append((f"{month[:3]} {int(day)}", (m.group("y") if first else m.group("y2"))
                        or ""))
    return out


def dated_columns(text: str, columns: Mapping[str, Sequence[str]]) -> DatedColumns:
    """The one column whose name states each date ``text`` writes; none if any is unclear.

    Examples
    --------
    >>> cols = {"C_JUL": ("quarters jul 27",), "C_APR": ("quarters apr 27",)}
    >>> dated_columns("revenue for the quarter ended july 27, 2019?", cols)
    DatedColumns(codes=('C_JUL',), years=('2019',))
    >>> dated_columns("revenue at december 31, 2019?", cols).codes
    ()
    """
    dates = question_dates(text)
    if not dates:
        return DatedColumns()
    by_date = {code: {d for n in names for d in month_days(n)} for code, names in columns.items()}
    codes = []
    for day, _ in dates:
        found = [c for c, days in by_date.items() if day in days]
        if len(found) != 1:
            return DatedColumns()
        codes.append(found[0])
    if len(set(codes)) != len(codes):
        return DatedColumns()
    return DatedColumns(tuple(codes), tuple(dict.fromkeys(y for _, y in dates if y)))
