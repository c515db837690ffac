"""A company's fiscal calendar, as its filing states it, and dated column heads read in it.

A filing says when its fiscal year ends ("For the fiscal year ended June 30, 2023"; a
10-Q: "… our Annual Report on Form 10-K for the fiscal year ended January 28, 2023").
With that calendar a column "Three Months Ended July 29, 2023" is the second quarter of
fiscal 2024 — not a quarter of calendar 2023 — "Six Months Ended December 31, 2022" the
first half of fiscal 2023, and a balance "July 29, 2023" the end of that quarter, so a
10-Q's figures are filed under the periods the company and its readers name them by.

A fiscal year is named by the year it ends in — except by companies whose year ends in
January to March and who name it by the year it starts in (a retailer's "Fiscal 2023 ended
February 3, 2024"). For those the document must say which: a fiscal year or quarter it
names beside its end date ("the second quarter of fiscal 2024 on July 29, 2023"; "Fiscal
2023 ended February 3, 2024"), or the quarter its cover reports ("For the quarterly period
ended July 29, 2023") named most often in its text ("the second quarter of fiscal 2024").
With no calendar stated, statements that disagree, or no naming said, headers keep their
calendar reading: nothing is guessed.
"""

from __future__ import annotations

import re
from calendar import monthrange
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import date

from ragspine_nb.extract.header_periods import Period, dated_period, duration, header_date
from ragspine_nb.extract.layout import Column
from ragspine_nb.lexicon import MONTH, MONTH_CAPTURED, MONTH_NAMES, MONTH_STEMS
from ragspine_nb.period_phrases import fiscal_quarter

__all__ = ["FiscalCalendar", "stated_calendar", "in_calendar", "row_period", "between", "due_on",
           "phrase_period", "phrase_date", "company_calendars", "CALENDAR_SOURCE",
           "DATE_PHRASE"]

#: The identity's source naming a calendar read from the document (its periods are fiscal).
CALENDAR_SOURCE = ("calendar", "document text")

_DATE = rf"(?P<date>(?:{MONTH_NAMES})\s+\d{{1,2}},?\s+(?:19|20)\d\d)"
#: "fiscal year ended June 30, 2023", "fiscal year ending on May 31, 2024".
_YEAR_END = re.compile(rf"\bfiscal\s+years?\s+end(?:ed|ing|s)?\s+(?:on\s+)?{_DATE}", re.I)
#: "fiscal 2024 on July 29, 2023", "Fiscal year 2022, 2021, and 2020 represented the 52 weeks
#: ended January 28, 2023, …": how years are named.
_NAMED = re.compile(rf"\bfiscal(?:\s+year)?\s+((?:19|20)\d\d)\b[^.]{{0,60}}?"
                    rf"\b(?:ended|ending|on)\s+{_DATE}", re.I)
#: A column head naming a year's length ("Year Ended", "Twelve Months", "52 Weeks").
_ANNUAL = re.compile(r"\byears?\b|\btwelve\b|\b12[- ]months?\b|\b5[23][- ]weeks?\b", re.I)
#: A 10-Q cover's quarter: "For the quarterly period ended July 29, 2023".
_COVER_QUARTER = re.compile(rf"for\s+the\s+quarterly\s+period\s+ended\s*:?\s*{_DATE}", re.I)
#: A fiscal quarter named in words: "the second quarter of fiscal 2024".
_QUARTER_NAMED = re.compile(r"\b(first|second|third|fourth)\s+quarter\s+of\s+fiscal\s+"
                            r"(?:year\s+)?((?:19|20)\d\d)\b", re.I)
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4}
#: A row naming a maturity ("3.2% notes due February 10, 2027"), not a period.
_DUE = re.compile(r"\bdue\b|\bmatur", re.I)
#: Heads over several quarters ("Average for the trailing five / quarters ended …").
_SEVERAL = re.compile(r"\b(?:trailing|rolling|average)\b|(?<![- ])\bquarters\b", re.I)
#: Days either way within which two year ends are one calendar (52/53-week years).
_LEEWAY = 7


@dataclass(frozen=True)
class FiscalCalendar:
    """The month and day a company's fiscal year ends (52/53-week years: about then).

    ``by_start``: the company names a fiscal year by the year it starts in; ``stated``:
    the year end the document names most (ISO date; ``""``: none kept).
    """

    month: int
    day: int
    by_start: bool = False
    stated: str = field(default="", compare=False, repr=False)

    def quarter(self, ended: date) -> Period | None:
        """The fiscal quarter ended on ``ended`` (``None``: no quarter ends then).

        >>> FiscalCalendar(1, 28).quarter(date(2023, 7, 29))
        ('QUARTER', '2024Q2')
        >>> FiscalCalendar(1, 28, by_start=True).quarter(date(2024, 2, 3))
        ('QUARTER', '2023Q4')
        """
        found = fiscal_quarter(ended, date(2000, self.month, self.day))
        if found is None or not self.by_start:
            return found
        return found[0], f"{int(found[1][:4]) - 1}{found[1][4:]}"


def _day(ymd: tuple[int, int, int] | None) -> date | None:
    """The day ``(year, month, day)`` names (``None``: none, or no such day)."""
    try:
        return date(*ymd) if ymd else None
    except ValueError:
        return None


def _stated(m: re.Match[str] | None) -> date | None:
    """The day a match of a pattern written with :data:`_DATE` states."""
    return _day(header_date(m.group("date"))) if m else None


def _apart(a: date, b: date) -> int:
    """Days between two dates' days of the year, around the year's end."""
    gap = abs(a.replace(year=2001).toordinal() - b.replace(year=2001).toordinal()) \
        if (a.month, a.day) != (2, 29) and (b.month, b.day) != (2, 29) else 0
    return min(gap, 365 - gap)


def _naming(text: str, calendar: FiscalCalendar) -> FiscalCalendar | None:
    """The calendar with the naming its text says, ``None`` when it says none or both.

    Evidence: a fiscal year named beside a quarter's end date, and the cover's quarter
    named in the text more often by one of the two namings than by the other ("the second
    quarter of fiscal 2024" against "… of fiscal 2023", :data:`_QUARTER_NAMED`).
    """
    said: list[tuple[int, int]] = []  # (year named, year it ends in)
    for m in _NAMED.finditer(text):
        ended = _stated(m)
        found = calendar.quarter(ended) if ended else None
        if found is not None:  # a filing date ends no quarter: no evidence
            said.append((int(m.group(1)), int(found[1][:4])))
    cover = _COVER_QUARTER.search(text[:3000])
    ended = _stated(cover)
    if ended and (found := calendar.quarter(ended)):
        named = Counter((_ORDINAL[m.group(1).lower()], int(m.group(2)))
                        for m in _QUARTER_NAMED.finditer(text))
        number, end_year = int(found[1][-1]), int(found[1][:4])
        as_end, as_start = named[(number, end_year)], named[(number, end_year - 1)]
        if as_end != as_start:
            said.append((end_year if as_end > as_start else end_year - 1, end_year))
    namings = {named_year == end_year for named_year, end_year in said
               if named_year in (end_year, end_year - 1)}
    return replace(calendar, by_start=False in namings) if len(namings) == 1 else None


def stated_calendar(text: str) -> FiscalCalendar | None:
    """The fiscal calendar a document states, else ``None``.

    Two-thirds of the year ends it names must fall within a week of the most named one.

    Examples
    --------
    >>> stated_calendar("Annual Report on Form 10-K for the fiscal year ended June 30, 2022")
    FiscalCalendar(month=6, day=30, by_start=False)
    >>> text = "the fiscal year ended January 28, 2023"
    >>> stated_calendar(text) is None  # a January year end: how are its years named?
    True
    >>> stated_calendar(text + "; the second quarter of fiscal 2024 on July 29, 2023")
    FiscalCalendar(month=1, day=28, by_start=False)
    >>> stated_calendar("For the fiscal year ended February 3, 2024. Fiscal 2023 ended "
    ...                 "February 3, 2024 and consisted of 53 weeks.")
    FiscalCalendar(month=2, day=3, by_start=True)
    >>> stated_calendar("For the quarterly period ended July 29, 2023 … fiscal year ended "
    ...                 "January 28, 2023 … in the second quarter of fiscal 2023, sales …")
    FiscalCalendar(month=1, day=28, by_start=True)
    >>> stated_calendar("no calendar here") is None
    True
    """
    ends = [d for m in _YEAR_END.finditer(text) if (d := _stated(m))]
    if not ends:
        return None
    (month, day), _ = Counter((d.month, d.day) for d in ends).most_common(1)[0]
    most = date(2001, month, day) if (month, day) != (2, 29) else date(2001, 2, 28)
    if 3 * sum(_apart(d, most) <= _LEEWAY for d in ends) < 2 * len(ends):
        return None
    stated = next(d for d in ends if (d.month, d.day) == (month, day)).isoformat()
    calendar = FiscalCalendar(month, day, stated=stated)
    return _naming(text, calendar) if month <= 3 else calendar


def _quarter(calendar: FiscalCalendar, ymd: tuple[int, int, int]) -> Period | None:
    return calendar.quarter(day) if (day := _day(ymd)) else None


def _period(calendar: FiscalCalendar, span: str, annual: bool, ymd: tuple[int, int, int]
            ) -> Period | None:
    """The period a head or label dated ``ymd`` names (``None``: as written).

    ``span`` is Q, H, P (another part of a year) or none: a year when ``annual``, else a
    balance at that date.
    """
    found = _quarter(calendar, ymd)
    if found is None:
        return None
    fiscal, number = found[1][:4], int(found[1][-1])
    if span == "Q":
        return found
    if span == "H":
        return ("HY", f"{fiscal}H{number // 2}") if number in (2, 4) else None
    if span == "P" or number == 4:  # nine months: a part of its fiscal year, kept apart
        return "FY", fiscal
    # a year ended at another quarter's end stays as written; a balance is the quarter's
    return None if annual else found


def _redated(col: Column, calendar: FiscalCalendar) -> Column:
    """One column dated by the calendar, when its period was read from its date."""
    ymd = header_date(col.named)
    if col.kind != "level" or col.period is None or ymd is None:
        return col
    span = duration(col.named) or duration(col.header)
    if col.period not in (("FY", str(ymd[0])), dated_period(span, ymd)) or \
            _SEVERAL.search(f"{col.named} {col.header}"):
        return col  # the head names its period in words, or spans quarters: as written
    period = _period(calendar, span, bool(_ANNUAL.search(col.header)), ymd)
    if period is None:
        return col
    if span in ("Q", "H"):
        return replace(col, period=period, part=False, dated="")
    return replace(col, period=period)


def due_on(label: str) -> bool:
    """Whether a row label dates an instrument, not its figures ("notes due April 27, 2023").

    >>> due_on("1.0% notes due April 27, 2023"), due_on("Balances at December 31, 2018")
    (True, False)
    """
    return bool(_DUE.search(label))


def row_period(label: str, calendar: FiscalCalendar) -> tuple[Period, bool] | None:
    """A dated row label's period by the calendar, and whether it is a balance at its date.

    >>> row_period("Balances at July 29, 2023", FiscalCalendar(1, 28))
    (('QUARTER', '2024Q2'), True)
    >>> row_period("Net earnings, six months ended July 29, 2023", FiscalCalendar(1, 28))
    (('HY', '2024H1'), False)
    """
    ymd = header_date(label)
    if ymd is None or due_on(label):  # a note due on a date: no period of a balance
        return None
    span, annual = duration(label), bool(_ANNUAL.search(label))
    period = _period(calendar, span, annual, ymd)
    return (period, not span and not annual) if period else None


def between(label: str, later: str, calendar: FiscalCalendar) -> Period | None:
    """The period of the movements between two balances, else ``None``.

    "Balances at January 28, 2023" … "Balances at July 29, 2023": the first half of fiscal
    2024.

    >>> between("Balances at January 28, 2023", "Balances at July 29, 2023",
    ...         FiscalCalendar(1, 28))
    ('HY', '2024H1')
    """
    end = header_date(later)
    start, stop = _day(header_date(label)), _day(end)
    if start is None or stop is None or end is None:
        return None
    span = {3: "Q", 6: "H", 12: ""}.get(round((stop - start).days / (365.25 / 12)))
    return None if span is None else _period(calendar, span, True, end)


def in_calendar(cols: dict[int, Column], calendar: FiscalCalendar | None
                ) -> dict[int, Column]:
    """Columns dated by a company's fiscal calendar (unchanged without one).

    Examples
    --------
    >>> from ragspine_nb.extract.layout import read_columns
    >>> table = [["", "Three Months Ended", "Three Months Ended", "Six Months Ended"],
    ...          ["", "July 29, 2023", "July 30, 2022", "July 29, 2023"],
    ...          ["Revenue", "1", "2", "3"]]
    >>> cols = in_calendar(read_columns(table, 2), FiscalCalendar(1, 28))
    >>> [cols[c].period for c in (1, 2, 3)]
    [('QUARTER', '2024Q2'), ('QUARTER', '2023Q2'), ('HY', '2024H1')]
    >>> sheet = [["", "December 31, 2022", "June 30, 2022"], ["Cash", "1", "2"]]
    >>> cols = in_calendar(read_columns(sheet, 1), FiscalCalendar(6, 30))
    >>> cols[1].period, cols[2].period
    (('QUARTER', '2023Q2'), ('FY', '2022'))
    """
    if calendar is None:
        return cols
    return {c: _redated(col, calendar) for c, col in cols.items()}


#: A month's end a balance is asked at ("at the end of July 2023", "as of July 2023") or a
#: span ended in ("the quarter ended July 2023": its words are the phrase's).
_MONTH_END_TEXT = (rf"(?:\b(?:the\s+)?(?:(?:three|six|nine|twelve)\s+months|quarter|half[- ]year"
                   rf"|(?:fiscal\s+)?year)\s+)?\b(?:end of|as of|as at|at|ended|ending)\s+"
                   rf"(?:the\s+end\s+of\s+)?{MONTH_CAPTURED},?\s+((?:19|20)\d\d)\b")
_MONTH_END = re.compile(_MONTH_END_TEXT, re.I)
#: A date written in Chinese ("2023年7月29日") and the spans named beside it ("止三个月").
_CN_DATE_TEXT = r"((?:19|20)\d\d)年(\d{1,2})月(\d{1,2})日"
_CN_DATE = re.compile(_CN_DATE_TEXT)
#: A date a question writes (:func:`phrase_date` reads it): "July 29, 2023", "29 July
#: 2023", a month's end, or "2023年7月29日" with the span after it ("止六个月").
DATE_PHRASE = re.compile(rf"\b{MONTH}\s+\d{{1,2}},?\s+(?:19|20)\d\d\b"
                         rf"|\b\d{{1,2}}\s+{MONTH},?\s+(?:19|20)\d\d\b|{_MONTH_END_TEXT}"
                         rf"|{_CN_DATE_TEXT}(?:止?(?:三|六|九|十二)个月)?", re.I)
_CN_SPANS = (("Q", re.compile(r"三个月|季度")), ("H", re.compile(r"六个月|半年")),
             ("P", re.compile(r"九个月")))
_CN_YEAR = re.compile(r"十二个月|年度")


def phrase_date(phrase: str) -> tuple[int, int, int] | None:
    """``(year, month, day)`` of the first date a phrase writes (English, Chinese), else None.

    A month's end ("the end of July 2023") is its last day.

    >>> phrase_date("as of july 29, 2023"), phrase_date("截至2023年7月29日")
    ((2023, 7, 29), (2023, 7, 29))
    >>> phrase_date("at 29 july 2023"), phrase_date("at the end of july 2023")
    ((2023, 7, 29), (2023, 7, 31))
    """
    if m := _CN_DATE.search(phrase):
        return int(m.group(1)), int(m.group(2)), int(m.group(3))
    if (found := header_date(phrase)) is not None:
        return found
    if m := _MONTH_END.search(phrase):
        year, month = int(m.group(2)), MONTH_STEMS.index(m.group(1)[:3].lower()) + 1
        return year, month, monthrange(year, month)[1]
    return None


def phrase_period(calendar: FiscalCalendar, phrase: str) -> Period | None:
    """The fiscal period a dated phrase of a question names ("as of July 29, 2023").

    >>> phrase_period(FiscalCalendar(6, 30), "the three months ended december 31, 2022")
    ('QUARTER', '2023Q2')
    >>> phrase_period(FiscalCalendar(1, 28), "as of july 29, 2023")
    ('QUARTER', '2024Q2')
    >>> phrase_period(FiscalCalendar(6, 30), "截至2022年12月31日止六个月")
    ('HY', '2023H1')
    >>> phrase_period(FiscalCalendar(1, 28), "the quarter ended july 2023")
    ('QUARTER', '2024Q2')
    >>> phrase_period(FiscalCalendar(6, 30), "the nine months ended march 31, 2023") is None
    True
    """
    ymd = phrase_date(phrase)
    if ymd is None:
        return None
    span = duration(phrase) or next((s for s, p in _CN_SPANS if p.search(phrase)), "")
    if span == "P":  # nine months: no period of ours, never the year they are part of
        return None
    annual = bool(_ANNUAL.search(phrase) or _CN_YEAR.search(phrase))
    return _period(calendar, span, annual, ymd)


def company_calendars(rows: list[tuple[str, str, str, bool]]
                      ) -> dict[str, FiscalCalendar | None]:
    """Each company's fiscal calendar, from its documents' identity rows.

    A row is ``(entity, year end, period, whether the calendar was read from the text)``.

    A document whose calendar was read from its text (its periods fiscal) says how the
    company names its years: a fiscal year one before the year it ended in, or a quarter
    in the year it ended in, is named by its start (no period said: by its end, for a year
    ending in April to December). A company no such document is of is
    left out (its dated columns kept the calendar's reading, as its questions' dates do);
    one whose documents say both namings, or state year ends more than a week apart, is
    ``None`` (a date is then no period of it).

    >>> company_calendars([("AMCOR", "2022-06-30", "2023Q2", True)])
    {'AMCOR': FiscalCalendar(month=6, day=30, by_start=False)}
    >>> company_calendars([("BEST_BUY", "2023-01-28", "FY2023", False)])
    {}
    """
    by_entity: dict[str, list[tuple[date, str]]] = {}
    for entity, ended, period, read in rows:
        try:
            if read:
                by_entity.setdefault(entity, []).append((date.fromisoformat(ended), period))
        except ValueError:
            continue
    out: dict[str, FiscalCalendar | None] = {}
    for entity, found in by_entity.items():
        first = found[0][0]
        said = {(p.startswith("FY") and p[2:] == str(d.year - 1)) or
                (p[4:5] == "Q" and p[:4] == str(d.year)) for d, p in found if p}
        said = said or ({False} if first.month > 3 else set())  # no period: named by its end
        out[entity] = None if len(said) != 1 or any(
            _apart(d, first) > _LEEWAY for d, _ in found) else \
            FiscalCalendar(first.month, first.day, by_start=said == {True})
    return out
