"""Figures a report states for years after its own: scheduled, never that year's level.

An annual report covers one fiscal year. A column of a later year in its tables is a
schedule or an expectation — payments due ("Cash Payments Due During the Year Ending May
31, 2022"), debt maturities, the amortization or benefit payments expected — never what
that year's balance or result was: NIKE's 2021 10-K lists 286 (million) of long-term
debt due in fiscal 2022, while its long-term debt was 9,413. Filed as the level of the
later year such a figure answers "What was the long-term debt in fiscal 2022?" with a
payment, and in a folder it contradicts the later report that states the real level.

So the plain figure of a fiscal year after the one the document reports (its cover's
year, or the calendar year its fiscal year ends in, whichever is later) is filed under
the channel ``C_SCHEDULED`` ("scheduled", "due in"), asked for as such; what a column's
header names it (a channel of its own, such as "cash payments due during") stays as
read. A document whose fiscal year is not stated (no cover page, no year in its name)
keeps its figures as read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ragspine_nb.core import Fact
from ragspine_nb.profile import ChannelSpec

__all__ = ["SCHEDULED", "SCHEDULED_CHANNEL", "last_reported_year", "scheduled_facts"]

#: The channel of a later year's plain figure (a channel its column's header names stays).
SCHEDULED = "C_SCHEDULED"
#: How a question names it.
SCHEDULED_CHANNEL = ChannelSpec(SCHEDULED, ("scheduled", "due in"))
_ISO_YEAR = re.compile(r"^(\d{4})-\d\d-\d\d$")


def last_reported_year(period: tuple[str, str] | None, fiscal_year_end: str) -> int | None:
    """The last fiscal-year label a document's own figures can carry (``None``: unknown).

    A fiscal year ending early in a calendar year may be labelled by the year before
    (Foot Locker's fiscal 2022 ended January 28, 2023, and its balance sheet's column is
    dated 2023), so the later of the label and the year its end falls in bounds the
    document's own columns; with no end stated, the label does (a file named ``FY2021``
    labels its columns as its name does).

    Examples
    --------
    >>> last_reported_year(("FY", "2021"), "2021-05-31")
    2021
    >>> last_reported_year(("FY", "2022"), "2023-01-28")  # a year ending in January
    2023
    >>> last_reported_year(("FY", "2018"), "")  # the year's end not stated
    2018
    >>> last_reported_year(("QUARTER", "2023Q2"), "2023-06-30") is None
    True
    """
    if period is None or period[0] != "FY" or not period[1].isdigit():
        return None
    m = _ISO_YEAR.match(fiscal_year_end)
    return max(int(period[1]), int(m.group(1))) if m else int(period[1])


def scheduled_facts(facts: Sequence[Fact], period: tuple[str, str] | None,
                    fiscal_year_end: str) -> tuple[list[Fact], int]:
    """``facts`` with every later year's plain figure filed as scheduled.

    Returns the facts and how many plain figures of later years were filed so.

    Examples
    --------
    >>> def fact(channel, year, value):
    ...     col = f"FY{year}" + ("" if channel == "TOTAL" else f".{channel}")
    ...     return Fact("LONG_TERM_DEBT", "NIKE", "UNSPECIFIED", channel, "FY", year,
    ...                 value, "M", "10-K.pdf", f"page=48,table=1,row=LONG_TERM_DEBT,col={col}")
    >>> read = [fact("TOTAL", "2021", 9413.0), fact("TOTAL", "2022", 286.0),
    ...         fact("C_CASH_PAYMENTS_DUE_DURING", "2022", 286.0), fact("TOTAL", "2023", 786.0)]
    >>> kept, moved = scheduled_facts(read, ("FY", "2021"), "2021-05-31")
    >>> [(f.channel, f.period, f.value) for f in kept], moved
    ([('TOTAL', '2021', 9413.0), ('C_SCHEDULED', '2022', 286.0), \
('C_CASH_PAYMENTS_DUE_DURING', '2022', 286.0), ('C_SCHEDULED', '2023', 786.0)], 2)
    >>> kept[-1].source_locator
    'page=48,table=1,row=LONG_TERM_DEBT,col=FY2023'
    >>> scheduled_facts(read, None, "")[0] == read
    True
    """
    last = last_reported_year(period, fiscal_year_end)
    if last is None:
        return list(facts), 0

    out: list[Fact] = []
    moved = 0
    for f in facts:
        if f.channel == "TOTAL" and f.period_type == "FY" and f.period.isdigit() \
                and int(f.period) > last:
            moved += 1
            f = replace(f, channel=SCHEDULED)  # the same cell: its locator is kept
        out.append(f)
    return out, moved
