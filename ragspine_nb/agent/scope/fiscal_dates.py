"""A date a question names, read in its company's fiscal calendar as its filings were.

Ingestion files a filing's dated columns under the fiscal periods of the calendar the
filing states (:mod:`ragspine_nb.extract.fiscal_calendar`): Amcor's "Three Months Ended
December 31, 2022" is 2023Q2, Best Buy's balance "July 29, 2023" 2024Q2. A question naming
that date ("Amcor's net sales for the three months ended December 31, 2022", "Best Buy's
cash as of July 29, 2023") is read the same way: its calendar reading, 2022Q4 or FY2023,
is another stored period of the company (the quarter ended June 30, 2022; the year ended
January 28, 2023). The calendar comes from the company's document identities
(:func:`~ragspine_nb.extract.fiscal_calendar.company_calendars`): documents whose calendar
was read. A company whose documents disagree makes the date no period — the question is
asked back, never answered from the calendar's reading; one whose year ends with the
calendar's keeps the date's year (its date still names no row: "3M's cash at December 31,
2022" names no row "December 31"), one none of whose documents had a calendar read is
read as before. A month
named with no day ("Best Buy's revenue in May 2023") is no fiscal year of a company whose
year ends in another month: asked back, never read as the fiscal year of its number; the
month its year ends in names that year ("Nike's revenue in the year to May 2023", Foot
Locker's "January 2023": its fiscal 2022, a year it names by its start).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from ragspine_nb.agent.reading.intent import ParsedIntent
from ragspine_nb.extract.fiscal_calendar import (
    CALENDAR_SOURCE,
    DATE_PHRASE,
    FiscalCalendar,
    company_calendars,
    phrase_date,
    phrase_period,
)
from ragspine_nb.glossary import fold
from ragspine_nb.lexicon import MONTH_NAMES, MONTH_STEMS
from ragspine_nb.profile import DomainProfile
from ragspine_nb.stores.protocols import FactReader
from ragspine_nb.wordset import content_words

__all__ = ["Calendars", "calendars_of", "in_fiscal_calendar"]

#: Each company's fiscal calendar (``None``: its documents disagree).
Calendars = Mapping[str, FiscalCalendar | None]

_READ = "=".join(CALENDAR_SOURCE)
#: A month named with its year and no day ("in May 2023"): a month, no period of ours.
_MONTH_OF_YEAR = re.compile(rf"\b(?:{MONTH_NAMES}|{'|'.join(MONTH_STEMS)}|sept)\.?\s+"
                            rf"(?:of\s+)?(?:19|20)\d\d\b")


def calendars_of(store: FactReader) -> dict[str, FiscalCalendar | None]:
    """Each company's fiscal calendar, from the store's document identities."""
    identities = getattr(store, "document_identities", None)
    rows = identities() if callable(identities) else {}
    return company_calendars([(r.get("entity", ""), r.get("fiscal_year_end", ""),
                               r.get("period", ""), _READ in r.get("sources", ""))
                              for r in rows.values() if r.get("entity")])


def _calendar_year(calendar: FiscalCalendar) -> bool:
    """A year ending with the calendar's (52/53 weeks: within a week of December 31)."""
    return (calendar.month, calendar.day) >= (12, 24) or (calendar.month, calendar.day) <= (1, 7)


def _not_by_the_date(intent: ParsedIntent, phrase: str, profile: DomainProfile
                     ) -> ParsedIntent:
    """Without the readings the date alone explains: the date is when, not what.

    A row ("Balances at January 28, 2023", "May 2022" for "… as of May 31, 2022") or a
    column dated that day ("Quarters Ended May 31") it names no other word of.
    """
    ymd = phrase_date(phrase)
    stamp = f"_{MONTH_STEMS[ymd[1] - 1].upper()}_{ymd[2]}" if ymd else "?"
    if intent.channels and all(c.endswith(stamp) for c in intent.channels):
        intent = replace(intent, channel=None, channels=())
    said = content_words(fold(intent.raw_question).replace(phrase, " "))
    kept = tuple(m for m in intent.metrics if m in profile.metrics and said & frozenset(
        w for n in (profile.metrics[m].label, *profile.metrics[m].synonyms)
        for w in content_words(n)))
    if not kept or len(kept) == len(intent.metrics):
        return intent
    return replace(intent, metrics=kept, metric=kept[0])


def in_fiscal_calendar(intent: ParsedIntent, calendars: Calendars,
                       profile: DomainProfile) -> ParsedIntent:
    """The question's dated period read in its company's calendar (unchanged otherwise).

    The company is the one the question names, else the workspace's only one.
    """
    phrase = intent.mentions.get("period", "") or intent.unread_period
    asked = fold(intent.raw_question)
    dated = DATE_PHRASE.search(asked)
    if dated and phrase and phrase_date(phrase) is None and phrase in dated.group(0):
        phrase = dated.group(0)  # "2023" of "as of July 29, 2023": the date is the period
    entity = intent.entity or (next(iter(calendars)) if len(calendars) == 1 else None)
    if not phrase or entity is None or entity not in calendars:
        return intent
    calendar = calendars[entity]
    if calendar is not None and _calendar_year(calendar):  # the date's year is the FY's
        return _not_by_the_date(intent, phrase, profile) if phrase_date(phrase) else intent
    if phrase_date(phrase) is None:  # "in May 2023": a month, not its company's FY2023
        month = _MONTH_OF_YEAR.search(asked)
        if month is None or phrase not in month.group(0):
            return intent
        # the month the company's year ends in ("the year to May 2023"): that year
        year = phrase_period(calendar, f"the fiscal year ended {month.group(0)}") \
            if calendar is not None else None
        if year is None or year[0] != "FY":
            return replace(intent, periods=(), period=None, unread_period=month.group(0))
        return replace(intent, periods=(year,), period=year, unread_period="")
    period = phrase_period(calendar, phrase) \
        if calendar is not None and len(intent.periods) <= 1 else None
    if period is None:  # the company's documents disagree: asked back, never guessed
        return replace(intent, periods=(), period=None, unread_period=phrase)
    return _not_by_the_date(replace(intent, periods=(period,), period=period,
                                    unread_period=""), phrase, profile)
