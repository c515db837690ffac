"""Periods written as phrases: "first half of 2025", "Q3 FY24", "the year ended December 31, 2019".

:data:`PHRASE` finds them in folded text (one span each, so "first half of 2025" is
never read as a bare "first half" plus the year 2025, and "Q3 FY24" never as the fiscal
year 2024); :func:`phrase_periods` reads one. The conventions are those of table
headers: a fiscal year is named by the year it ends in; a period "ended" on a date is the
quarter or half whose calendar end is that date (or up to a week after it, for 52/53-week
calendars); nine months are no period of ours, so a phrase naming them reads as no period
— never as the year in it.
"""

from __future__ import annotations

import re
from calendar import monthrange
from datetime import date, timedelta

from ragspine_nb.lexicon import MONTH, MONTH_STEMS
from ragspine_nb.number_words import count_word

__all__ = ["PHRASE", "QUESTION_PERIOD", "MONTH", "ORDINALS", "phrase_periods", "ended_period",
           "names_only_a_period", "EVERY_YEAR", "LATEST_YEARS", "latest_years", "fiscal_quarter",
           "without_periods"]

Period = tuple[str, str]

_Y4 = r"(?:19|20)\d\d"
_YEAR = rf"(?:{_Y4}|'?\d\d)(?![\d%])"
_FISCAL = r"(?:fiscal(?: year)?|fy)"
#: a date; a month alone ("ended july 2023") is its last day
_DATE = (rf"(?:{MONTH} \d{{1,2}},? {_Y4}|\d{{1,2}} {MONTH},? {_Y4}|{_Y4}年\d{{1,2}}月\d{{1,2}}日"
         rf"|{MONTH},? {_Y4})")
_MORE = rf"(?:(?:,? and|,) (?:{_DATE}|{_Y4}(?![\d%])))*"
_SPAN = (r"(?:three|3|six|6|nine|9|twelve|12)[- ]months?|quarters?|half[- ]years?"
         r"|(?:fiscal )?years?|1[23] weeks|2[56] weeks|39 weeks|5[23] weeks")
_CN_SPAN = r"(?:年度|财年|会计年度|十二个月|六个月|半年度?|三个月|季度|九个月)"
_ORD = r"(?:first|second|third|fourth|1st|2nd|3rd|4th)"
#: The number an ordinal names ("third" → 3, "三" → 3) in a quarter or half.
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3,
            "4th": 4, "一": 1, "二": 2, "三": 3, "四": 4, "1": 1, "2": 2, "3": 3, "4": 4}

#: (pattern with named groups, what it names); ``PHRASE`` is their union.
_PATTERNS: tuple[tuple[str, str], ...] = (
    (rf"(?:the )?(?P<span>{_SPAN}) (?:period )?end(?:ed|ing)(?: on)? (?P<date>{_DATE})"
     rf"(?P<more>{_MORE})", "ended"),
    (rf"截至(?P<date>{_DATE})止?(?P<span>{_CN_SPAN})", "ended"),
    (rf"(?:the )?(?P<n>{_ORD}) (?P<kind>half|quarter)(?: of)?(?: the)?(?: {_FISCAL})? ?"
     rf"(?P<y>{_YEAR})", "part"),
    (rf"(?:{_FISCAL} ?)?(?P<y>{_Y4}) (?P<n>{_ORD}) (?P<kind>half|quarter)", "part"),
    (rf"(?P<kind>[hq])(?P<n>[1-4]) ?(?:of )?{_FISCAL} ?(?P<y>{_YEAR})", "part"),
    (rf"{_FISCAL} ?(?P<y>{_YEAR}) ?(?P<kind>[hq])(?P<n>[1-4])(?![a-z0-9])", "part"),
    (rf"(?P<y>{_Y4})(?:财年|年度?)第?(?P<n>[一二三四1-4])(?P<kind>季度)", "part"),
    (rf"{_FISCAL} (?P<y>{_YEAR})|(?P<y2>{_Y4}) (?:{_FISCAL}(?:[- ]end)?|year[- ]end)",
     "year"),
)
_COMPILED = tuple((re.compile(p), kind) for p, kind in _PATTERNS)
#: One period phrase (apply to folded text: NFKC, lower case, single spaces).
PHRASE = "|".join(re.sub(r"\(\?P<\w+>", "(?:", p) for p, _ in _PATTERNS)
#: A period in a folded question: a phrase first ("first half of 2025" is one period, not
#: "first half" of the reference year and 2025; "Q3 FY24" a quarter, not FY2024).
QUESTION_PERIOD = re.compile(
    rf"(?<![a-z0-9])(?:{PHRASE})"
    r"|(?:fy\s?\d{4}\s?(?:h[12]|q[1-4])?"
    r"|[hq][1-4]\s?(?:fy)?\s?\d{4}"
    r"|[12]h\s?(?:fy)?\s?\d{4}|[1-4]q\s?(?:fy)?\s?\d{4}"
    r"|(?<![a-z0-9.,])(?:[1-4]q|[12]h)\s?(?:fy)?'?\d{2}(?![\d%]|\.\d)"
    r"|\d{4}\s?(?:h[12]|q[1-4])"
    r"|\d{4}\s?年\s?(?:上半年|下半年|第?[一二三四1-4]季度)?"
    # a full stop after a year ends the sentence ("… in 2021 and 2022."); a decimal does not
    r"|(?<![a-z0-9])fy?\s?'?\d{2}(?![\d%]|\.\d)"
    r"|(?<![\d.a-z])(?:19|20)\d{2}(?![\d%]|\.\d)"
    r"|今年上半年|今年下半年|去年上半年|去年下半年|前年|去年|今年|本年度|上年度"
    r"|本季度|上季度|上个季度|上半年|下半年"
    r"|the year before last|last year|this year|last quarter|this quarter"
    r"|first half of (?:last|this) year|second half of (?:last|this) year"
    r"|first half|second half)"
)


def _year(text: str) -> int:
    digits = text.lstrip("'")
    return int(digits) if len(digits) == 4 else 2000 + int(digits)


def _date(text: str) -> tuple[int, int, int]:
    """``(year, month, day)`` of a :data:`_DATE` match."""
    if m := re.fullmatch(r"(\d{4})年(\d{1,2})月(\d{1,2})日", text):
        return int(m.group(1)), int(m.group(2)), int(m.group(3))
    words = re.findall(r"[a-z]+|\d+", text)
    month = MONTH_STEMS.index(next(w for w in words if w.isalpha())[:3]) + 1
    *day, year = (int(w) for w in words if w.isdigit())
    return year, month, day[0] if day else monthrange(year, month)[1]


def ended_period(months: int, date: tuple[int, int, int]) -> Period | None:
    """The period of ``months`` months ended on ``date`` (``None``: not one of ours).

    Examples
    --------
    >>> ended_period(3, (2019, 9, 30)), ended_period(6, (2025, 6, 30))
    (('QUARTER', '2019Q3'), ('HY', '2025H1'))
    >>> ended_period(3, (2020, 1, 3)), ended_period(12, (2020, 1, 3))
    (('QUARTER', '2019Q4'), ('FY', '2020'))
    >>> ended_period(3, (2019, 7, 27)), ended_period(9, (2019, 9, 30))
    (None, None)
    """
    year, month, day = date
    if months == 12:
        return "FY", str(year)
    if months not in (3, 6):
        return None
    if day <= 7:  # a few days into the next month: the month before ended it
        month, year = (12, year - 1) if month == 1 else (month - 1, year)
    elif day < 24:
        return None
    if months == 3 and month % 3 == 0:
        return "QUARTER", f"{year}Q{month // 3}"
    if months == 6 and month in (6, 12):
        return "HY", f"{year}H{month // 6}"
    return None


def _months(span: str) -> int:
    for months, pattern in ((3, r"three|\b3\b|quarter|1[23] weeks|三个月|季度"),
                            (6, r"six|\b6\b|half|2[56] weeks|六个月|半年"),
                            (9, r"nine|\b9\b|39 weeks|九个月")):
        if re.search(pattern, span):
            return months
    return 12


def _ended(m: re.Match[str]) -> list[Period | None]:
    """Each date of "... ended <date>[, and <date or year>]..." read with the span."""
    months, first = _months(m.group("span")), _date(m.group("date"))
    dates = [first]
    for other in re.finditer(rf"{_DATE}|{_Y4}", m.groupdict().get("more") or ""):
        text = other.group(0)
        dates.append((int(text), first[1], first[2]) if text.isdigit() else _date(text))
    return [ended_period(months, d) for d in dates]


def _part(m: re.Match[str]) -> Period | None:
    year, number, kind = _year(m.group("y")), ORDINALS[m.group("n")], m.group("kind")
    if kind in ("half", "h"):
        return ("HY", f"{year}H{number}") if number <= 2 else None
    return "QUARTER", f"{year}Q{number}"


def phrase_periods(text: str) -> list[Period | None] | None:
    """The periods one whole :data:`PHRASE` names, in order; ``None``: not a phrase.

    A phrase naming a span that is none of our periods (nine months, a quarter ending
    mid-month) reads as ``[None]``: the caller must not read its year as a fiscal year.

    Examples
    --------
    >>> [phrase_periods(t)[0] for t in ("first half of 2025", "q3 fy24", "fiscal 2024",
    ...  "the year ended december 31, 2019", "2019 fiscal year", "h1 fy25", "2025年第三季度",
    ...  "2018 year end")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('HY', '2025H1'), ('QUARTER', '2024Q3'), ('FY', '2024'), ('FY', '2019'), ('FY', '2019'),
     ('HY', '2025H1'), ('QUARTER', '2025Q3'), ('FY', '2018')]
    >>> phrase_periods("three months ended march 31, 2019 and 2018")
    [('QUARTER', '2019Q1'), ('QUARTER', '2018Q1')]
    >>> phrase_periods("the quarter ended december 2022"), phrase_periods("year ended june 2019")
    ([('QUARTER', '2022Q4')], [('FY', '2019')])
    >>> phrase_periods("quarters ended january 26, 2019 and december 29, 2018")
    [None, ('QUARTER', '2018Q4')]
    >>> phrase_periods("截至2019年12月31日止年度"), phrase_periods("nine months ended sep 30, 2019")
    ([('FY', '2019')], [None])
    >>> phrase_periods("2019") is None
    True
    """
    for pattern, kind in _COMPILED:
        m = pattern.fullmatch(text)
        if m is None:
            continue
        if kind == "ended":
            return _ended(m)
        if kind == "part":
            return [_part(m)]
        return [("FY", str(_year(m.group("y") or m.group("y2"))))]
    return None


#: the words of a named period: ordinals, quarters, halves, "fiscal", months, years
_PERIOD_WORD = re.compile(
    rf"(?<![a-z0-9])(?:{_ORD}|quarters?|half|fiscal|years?|annual|full|fy(?:\d\d)*|q[1-4]|"
    rf"h[12]|ended|ending|{MONTH}|(?:19|20)\d\d|\d{{1,2}}|the|of|and|for)(?![a-z0-9])"
    r"|第[一二三四1-4]季度|[上下]半年|全年|年度|财年|季度|\d+年|[\s,.:;'()/-]+")
#: a word only a named period has (a count of months or years is a bucket's name:
#: "Three to six months", "1-3 years" are rows of an ageing or maturity table)
_PERIOD_CORE = re.compile(r"quarter|half|fiscal|full year|annual|fy|q[1-4]|h[12]|季度|半年|"
                          r"全年|年度|财年")


def names_only_a_period(name: str) -> bool:
    """Whether a name says only a period ("Fiscal Year", "First Quarter", "上半年").

    A table's row so labelled (quarters down a column with no year above them) is no
    line item a question names: "gross margin in each fiscal year" asks for gross margin.

    >>> [names_only_a_period(x) for x in ("Fiscal Year", "first quarter", "Q3 2019", "上半年")]
    [True, True, True, True]
    >>> [names_only_a_period(x) for x in ("Total", "2019", "Net sales", "Third quarter revenue",
    ...                                   "Three to six months", "1-3 years")]
    [False, False, False, False, False, False]
    """
    folded = name.casefold()
    return bool(_PERIOD_CORE.search(folded)) and not _PERIOD_WORD.sub("", folded).strip()


#: "each fiscal year", "over the years", "historically", "历年": every year a figure is
#: reported for, not one period (apply to folded text). "All years" is left out: "the
#: total of all years" sums them.
EVERY_YEAR = re.compile(
    r"(?<![a-z0-9])(?:(?:in|for) )?(?:each|every) (?:single )?(?:fiscal )?year"
    r"|(?<![a-z0-9])(?:over|across) the (?:past |last )?(?:few |several )?(?:fiscal )?years"
    r"|(?<![a-z0-9])(?:year[- ]by[- ]year|historically|by year)(?![a-z0-9])"
    r"|历年|每年|各年度?|逐年")

#: "the last three fiscal years", "over the past 3 years", "近三年": the latest years reported,
#: as many as it says (apply to folded text; :func:`latest_years` reads the count).
LATEST_YEARS = re.compile(
    r"(?<![a-z0-9])(?:the )?(?:last|past|previous|latest|most recent|recent) "
    r"(?P<n>two|three|four|five|six|seven|eight|nine|ten|[2-9]|10) (?:fiscal |financial )?years"
    r"(?![a-z0-9])|(?:近|过去|最近)(?P<cn>[二两三四五六七八九十]|[2-9])个?(?:财年|会计年度|年)")


def latest_years(text: str) -> int | None:
    """How many of the latest years a folded text asks for ("the last three years": 3).

    >>> latest_years("revenue over the past 5 fiscal years"), latest_years("近三年的营业收入")
    (5, 3)
    >>> latest_years("last year") is None
    True
    """
    m = LATEST_YEARS.search(text)
    return (count_word(m.group("n") or m.group("cn")) or None) if m else None


def fiscal_quarter(ended: date, year_end: date | None) -> Period | None:
    """The fiscal quarter that ended on ``ended``, by the company's fiscal year end.

    A fiscal year is named by the year it ends in; its quarters end about 3, 6, 9 and 12
    months after the last year end (52/53-week calendars end up to a week off). With no
    known year end, the calendar quarter (:func:`ended_period`); ``None`` when the date
    ends no quarter.

    Examples
    --------
    >>> fiscal_quarter(date(2023, 7, 29), date(2023, 1, 28))  # Best Buy: Q2 of fiscal 2024
    ('QUARTER', '2024Q2')
    >>> fiscal_quarter(date(2022, 12, 31), date(2022, 6, 30))  # Amcor: Q2 of fiscal 2023
    ('QUARTER', '2023Q2')
    >>> fiscal_quarter(date(2023, 3, 31), date(2022, 12, 31))
    ('QUARTER', '2023Q1')
    >>> fiscal_quarter(date(2019, 9, 30), None)  # no year end known: the calendar's quarter
    ('QUARTER', '2019Q3')
    >>> fiscal_quarter(date(2023, 5, 15), date(2022, 12, 31)) is None  # no quarter's end
    True
    >>> fiscal_quarter(date(2021, 1, 2), date(2019, 12, 28))  # a 53-week year ended in January
    ('QUARTER', '2020Q4')
    """
    if year_end is None:
        return ended_period(3, (ended.year, ended.month, ended.day))
    day = min(year_end.day, 28) if year_end.month == 2 else year_end.day
    # the fiscal year is the first whose end (a week's leeway) is not before the date
    fiscal = next(y for y in (ended.year - 1, ended.year, ended.year + 1)
                  if ended <= date(y, year_end.month, day) + timedelta(days=7))
    left = (date(fiscal, year_end.month, day) - ended).days / (365.25 / 4)  # quarters to go
    if abs(left - round(left)) > 0.15 or not 0 <= round(left) <= 3:
        return None
    return "QUARTER", f"{fiscal}Q{4 - round(left)}"


def without_periods(text: str) -> str:
    """Folded ``text`` without the phrases read as periods ("the second quarter of fiscal 2024").

    A period the question names is its period, never also a column ("Second Quarter").

    >>> without_periods("revenue in the second quarter of fiscal 2024 by second quarter")
    'revenue in   by second quarter'
    """
    def blank(m: re.Match[str]) -> str:
        found = phrase_periods(m.group(0))
        return " " if found and None not in found else m.group(0)
    return QUESTION_PERIOD.sub(blank, text)
