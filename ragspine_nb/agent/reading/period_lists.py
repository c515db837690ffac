"""Periods a question writes the way tables head their columns, read as the tables read them.

* A fiscal year spanning two calendar years ("2018/2019", "2018/19") is one fiscal
  year, the later one — as a table's header "2018/2019" is stored
  (:func:`~ragspine_nb.extract.header_periods.cell_period`) — never the two years.
* A bare year listed right after a part of a year ("Q4 2019 and 2018", "H1 2019 vs
  2018") is that same part of the year listed: the quarter is named once for both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["split_years", "listed_parts"]

Period = tuple[str, str]

_SPAN = re.compile(r"(?<![\d.,/])((?:19|20)\d\d)\s*/\s*((?:19|20)?\d\d)(?![\d%/]|[.,]\d)")
#: What may stand between a part of a year and the bare year listed after it.
_LIST_GAP = re.compile(r"\s*(?:,\s*and|,|and|&|vs\.?|versus|or)\s*")
_BARE_YEAR = re.compile(r"(?:19|20)\d\d")
_PARTS = ("QUARTER", "HY")


def split_years(text: str) -> str:
    """``text`` with each fiscal year written as two consecutive years as ``fy`` + the later.

    Examples
    --------
    >>> split_years("ebit in 2018/2019 from 2017/18")
    'ebit in fy2019 from fy2018'
    >>> split_years("the adjustments in 2017/18.")  # a full stop ends no decimal
    'the adjustments in fy2018.'
    >>> split_years("between 2015/2019")  # not one fiscal year: left as written
    'between 2015/2019'
    """
    def one(m: re.Match[str]) -> str:
        first, later = int(m.group(1)), m.group(2)
        year = int(later) if len(later) == 4 else first // 100 * 100 + int(later)
        return f"fy{year}" if year == first + 1 else m.group(0)

    return _SPAN.sub(one, text)


def listed_parts(text: str, found: Sequence[tuple[int, int, list[Period]]]) -> list[Period]:
    """The periods of each match in order, a bare year after a listed part taking its part.

    Parameters
    ----------
    text : str
        The (folded) question.
    found : sequence of (start, end, periods)
        Each period phrase's span in ``text`` and the periods it names.

    Examples
    --------
    >>> text = "operating revenues in q4 2019 and 2018"
    >>> listed_parts(text, [(22, 29, [("QUARTER", "2019Q4")]), (34, 38, [("FY", "2018")])])
    [('QUARTER', '2019Q4'), ('QUARTER', '2018Q4')]
    """
    out: list[Period] = []
    before: tuple[int, list[Period]] | None = None
    for start, end, periods in found:
        if before is not None and len(periods) == 1 and len(before[1]) == 1 \
                and before[1][0][0] in _PARTS and _BARE_YEAR.fullmatch(text[start:end]) \
                and _LIST_GAP.fullmatch(text[before[0]:start]):
            kind, label = before[1][0]
            periods = [(kind, text[start:end] + label[4:])]
        out += periods
        before = end, periods
    return out
