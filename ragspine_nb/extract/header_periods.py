"""Periods written in table headers: years, fiscal labels, halves, quarters and dates.

A header cell names a period as ``2019``, ``FY2019``, ``FY19``/``F19``, ``2018/2019`` (the
later year), ``1H2025``/``H1 2025``/``2025H1``/``first half of 2025``, ``Q4 2019``/``Q3 FY24``/
``2025Q1``/``fourth quarter 2019``, Chinese ``2025年上半年``/``2025年第一季度``, or a date
("January 3, 2020", "30 June 2019", "As of February 28, 2019"). Two years in one cell
("2019 vs 2018") are a change between periods, not a period. A header's duration words
("three months ended", "13 weeks ended", "six months ended", "nine months ended") say
whether a dated column is a quarter, a half or another part of a year: a part of a year
is never the year.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragspine_nb.lexicon import MONTH_CAPTURED, MONTH_STEMS

__all__ = ["Period", "cell_period", "unspaced_year", "header_date", "duration", "duration_words",
           "dated_period", "MULTI",
           "RANGE", "YEAR", "YEAR_RANGE"]

Period = tuple[str, str]
#: ``cell_period``'s answer for a cell naming two or more years ("2019 vs 2018").
MULTI = "multi"
#: ``cell_period``'s answer for a range of years ("2021-2022", "2023 to 2024"): a bucket
#: of a maturity table, neither a period nor a change.
RANGE = "range"
YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
YEAR_RANGE = re.compile(
    r"(?<!\d)((?:19|20)\d\d)\s*(?:-|–|—|to|through|thru)\s*((?:19|20)?\d\d)(?!\d)", re.I)

_ORDINAL = {"first": "1", "second": "2", "third": "3", "fourth": "4", "1st": "1", "2nd": "2",
            "3rd": "3", "4th": "4"}
_CN = {"一": "1", "二": "2", "三": "3", "四": "4", "1": "1", "2": "2", "3": "3", "4": "4"}
_QUARTER_NUMBERS = {**_ORDINAL, **_CN}
_HALF_NUMBERS = {"first": "1", "second": "2", "上": "1", "下": "2"}
_Y4 = r"((?:19|20)\d\d)"
_YY = r"'?(\d\d(?:\d\d)?)"
_QUARTERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"(?<![a-z0-9])q([1-4])\s*(?:fy|fiscal)?\s*{_YY}(?!\d)"), "py"),
    (re.compile(rf"(?<!\d){_Y4}\s*q([1-4])(?![0-9])"), "yp"),
    (re.compile(r"\b(first|second|third|fourth|1st|2nd|3rd|4th) quarter(?: of)?(?: fiscal)?"
                rf"(?: year)?\s*{_YY}(?!\d)"), "wy"),
    (re.compile(rf"{_Y4}年?第?([一二三四1-4])季度?"), "cn"),
)
_HALVES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"(?<![a-z0-9])([12])h\s*(?:fy)?\s*{_YY}(?!\d)"), "py"),
    (re.compile(rf"(?<![a-z0-9])h([12])\s*(?:fy)?\s*{_YY}(?!\d)"), "py"),
    (re.compile(rf"(?<!\d){_Y4}\s*h([12])(?![0-9])"), "yp"),
    (re.compile(rf"\b(first|second) half(?: of)?(?: fiscal)?(?: year)?\s*{_YY}(?!\d)"), "wy"),
    (re.compile(rf"{_Y4}年?(上|下)半年"), "cn"),
)
_SPAN = re.compile(r"(?<!\d)((?:19|20)\d\d)\s*/\s*((?:19|20)?\d\d)(?!\d)")
_FISCAL2 = re.compile(r"(?<![a-z0-9])(?:fy|f|fiscal)\s?'?(\d\d)(?!\d)")
_CHANGE_WORDS = re.compile(r"chang|varian|differen|increase|decrease|\bvs\b|\bover\b|compared")


_SPACED_YEAR = re.compile(r"\s*(?:1 9|2 0) \d \d\s*")


def unspaced_year(cell: str) -> str:
    """A letter-spaced year as a year ("2 0 1 8" → "2018", as PDFs space headers); else the cell.

    Examples
    --------
    >>> unspaced_year("2 0 1 8"), unspaced_year("2 0 1"), unspaced_year("1 2 3 4")
    ('2018', '2 0 1', '1 2 3 4')
    """
    return cell.replace(" ", "") if _SPACED_YEAR.fullmatch(cell) else cell


def _year(text: str) -> str:
    """A four-digit year from ``2019``, ``19`` or ``'19``."""
    return text if len(text) == 4 else f"20{text}"


def _part(text: str, patterns: tuple[tuple[re.Pattern[str], str], ...], kind: str,
          mark: str, numbers: dict[str, str]) -> Period | None:
    """A quarter or a half named by the first of ``patterns`` that matches ``text``.

    Shapes: ``py`` (part number, year), ``yp`` (year, part number), ``wy`` (ordinal word,
    year) and ``cn`` (year, Chinese part); ``numbers`` reads the words.
    """
    for pattern, shape in patterns:
        if m := pattern.search(text):
            a, b = m.group(1), m.group(2)
            if shape == "py":
                return kind, f"{_year(b)}{mark}{a}"
            if shape == "yp":
                return kind, f"{a}{mark}{b}"
            if shape == "wy":
                return kind, f"{_year(b)}{mark}{numbers[a]}"
            return kind, f"{a}{mark}{numbers[b]}"
    return None


@lru_cache(maxsize=8192)
def cell_period(text: str) -> Period | str | None:
    """A header cell's period; :data:`MULTI` for a span or change of years; else None.

    Kept per text: a filing repeats its headers on every table.

    Examples
    --------
    >>> [cell_period(t) for t in ("2019", "FY19", "F19", "2018/2019", "Q4 2019", "1H2025",
    ...                           "As of February 28, 2019", "2019 vs 2018", "Total")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('FY', '2019'), ('FY', '2019'), ('FY', '2019'), ('FY', '2019'), ('QUARTER', '2019Q4'),
     ('HY', '2025H1'), ('FY', '2019'), 'multi', None]
    >>> cell_period("Q3 FY24"), cell_period("2025年上半年"), cell_period("third quarter 2019")
    (('QUARTER', '2024Q3'), ('HY', '2025H1'), ('QUARTER', '2019Q3'))
    >>> cell_period("2021-2022"), cell_period("2019 - 2018 change")
    ('range', 'multi')
    """
    folded = " ".join(text.casefold().replace("\u2019", "'").split())
    if not folded:
        return None
    found = _part(folded, _QUARTERS, "QUARTER", "Q", _QUARTER_NUMBERS) or \
        _part(folded, _HALVES, "HY", "H", _HALF_NUMBERS)
    if found:
        return found
    if m := _SPAN.search(folded):  # fiscal "2018/2019" or "2018/19" = the later year
        later = m.group(2)
        return "FY", later if len(later) == 4 else m.group(1)[:2] + later
    years = set(YEAR.findall(folded))
    if len(years) > 1:
        return RANGE if YEAR_RANGE.search(folded) and not _CHANGE_WORDS.search(folded) \
            else MULTI
    if years:
        return "FY", years.pop()
    if m := _FISCAL2.search(folded):
        return "FY", f"20{m.group(1)}"
    return None


_MONTH = MONTH_CAPTURED
_DATES = (re.compile(rf"\b{_MONTH}\s+(\d{{1,2}}),?\s+((?:19|20)\d\d)\b"),   # June 30, 2019
          re.compile(rf"\b(\d{{1,2}})\s+{_MONTH},?\s+((?:19|20)\d\d)\b"))   # 30 June 2019


def header_date(text: str) -> tuple[int, int, int] | None:
    """``(year, month, day)`` of the first date written in a header cell, else None.

    Examples
    --------
    >>> header_date("As of February 28, 2019"), header_date("30 June 2019")
    ((2019, 2, 28), (2019, 6, 30))
    """
    folded = text.casefold()
    for i, pattern in enumerate(_DATES):
        if m := pattern.search(folded):
            month, day = (m.group(1), m.group(2)) if i == 0 else (m.group(2), m.group(1))
            return int(m.group(3)), MONTH_STEMS.index(month[:3]) + 1, int(day)
    return None


_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
            "fourteen": 14, "sixteen": 16, "twenty-six": 26, "fifty-two": 52,
            "fifty-three": 53}
_SPAN_OF = re.compile(r"\b(\d{1,2}|[a-z]+(?:-[a-z]+)?)[- ](weeks?|months?|quarters)\b")
_WORDS = (("Q", re.compile(r"\bquarters?\b|季度")),
          ("H", re.compile(r"\bhalf[- ]year\b|\bhalf\b|半年")),
          ("P", re.compile(r"\byear[- ]to[- ]date\b|\bytd\b|前三季度")))


def _span(number: int, unit: str) -> str:
    """``Q``/``H`` for a quarter's or half's length, ``""`` for a year, else ``P``."""
    if unit == "quarters":  # "trailing four quarters": a year
        return {2: "H", 4: ""}.get(number, "P")
    if unit.startswith("month"):
        return {3: "Q", 6: "H", 12: ""}.get(number, "P")
    return {13: "Q", 26: "H", 52: "", 53: ""}.get(number, "P")


def duration_words(text: str) -> str:
    """The words naming a part of a year ("nine months", "12 weeks", "quarter"), else ``""``."""
    folded = text.casefold()
    if m := _SPAN_OF.search(folded):
        return m.group(0)
    return next((m.group(0) for _, pattern in _WORDS if (m := pattern.search(folded))), "")


def duration(text: str) -> str:
    """``"Q"``, ``"H"`` or ``"P"`` (another part of a year) when header words say so.

    Examples
    --------
    >>> [duration(t) for t in ("Three Months Ended", "13 weeks ended", "Six months",
    ...                        "Nine Months Ended", "12 Weeks Ended", "Year Ended", "Quarter")]
    ['Q', 'Q', 'H', 'P', 'P', '', 'Q']
    >>> duration("Trailing Four Quarters Ended May 31"), duration("two quarters")
    ('', 'H')
    """
    folded = text.casefold()
    for m in _SPAN_OF.finditer(folded):
        word = m.group(1)
        number = int(word) if word.isdigit() else _NUMBERS.get(word)
        if number:
            return _span(number, m.group(2))
    return next((code for code, pattern in _WORDS if pattern.search(folded)), "")


def dated_period(kind: str, date: tuple[int, int, int]) -> Period | None:
    """The quarter or half that ends on ``date``, when it ends within a week of a calendar one.

    A quarter ended January 3, 2020 is 2019Q4; one ended July 27, 2019 is no calendar
    quarter (``None``: the caller keeps it apart, named by its date).

    Examples
    --------
    >>> dated_period("Q", (2020, 1, 3)), dated_period("H", (2019, 6, 30))
    (('QUARTER', '2019Q4'), ('HY', '2019H1'))
    >>> dated_period("Q", (2019, 7, 27)) is None
    True
    """
    year, month, day = date
    if day <= 7:  # a few days into the next month: the month before ended it
        month, year = (12, year - 1) if month == 1 else (month - 1, year)
    elif day < 24:
        return None
    if month % 3:
        return None
    if kind == "Q":
        return "QUARTER", f"{year}Q{month // 3}"
    if kind == "H" and month in (6, 12):
        return "HY", f"{year}H{month // 6}"
    return None
