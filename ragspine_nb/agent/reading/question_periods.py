"""Which periods a question names: in order, the words naming the first, and any unread.

Every period phrase of the folded question (``2018/19`` one fiscal year) is read
(:func:`~ragspine_nb.period_codes.normalize_periods`); a phrase one of whose dates is no
period of ours ("the quarter ended July 27, 2019") is unread, never the year in it. A
column's date names the period; a part of a year written without its year ("between the
second and first quarter"), naming no row or column, is unread — or the parts of the one
year named; "two years before 2023" is 2021; a period named only relative to another
("three years ago", "the prior year") is unread unless a change is asked (never the
latest year).
"""

from __future__ import annotations

import re
from datetime import date

from ragspine_nb.agent.reading.change_base import names_start
from ragspine_nb.agent.reading.cue_words import CHANGE_CUES
from ragspine_nb.agent.reading.intent_columns import Columns
from ragspine_nb.agent.reading.intent_terms import has_cue, part_of_year, parts_of_year
from ragspine_nb.agent.reading.offset_period import offset_years
from ragspine_nb.agent.reading.period_lists import Period, listed_parts, split_years
from ragspine_nb.period_codes import normalize_periods
from ragspine_nb.period_phrases import QUESTION_PERIOD, phrase_periods
from ragspine_nb.profile import DomainProfile

__all__ = ["question_periods", "starts_change"]

#: A period named relative to another that no phrase reader reads ("three years ago",
#: "the prior year"): asked back, never read as the latest year.
_RELATIVE = re.compile(r"(?<![a-z])(?:(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
                       r"\s+(?:fiscal\s+)?years?\s+ago|(?:the\s+)?(?:prior|preceding)\s+"
                       r"(?:fiscal\s+)?year|the\s+year\s+before)(?![a-z])")
#: Period types that are parts of a year.
_PARTS = ("QUARTER", "HY")


def starts_change(text: str, period_text: str) -> bool:
    """Whether the first period phrase is a change's starting point (``change_base``)."""
    split = split_years(text)
    first = next((m for m in QUESTION_PERIOD.finditer(split) if m.group(0) == period_text),
                 None)
    return first is not None and names_start(split, first.start(), first.end())


def _phrases(profile: DomainProfile, text: str, reference_date: date | None
             ) -> tuple[list[Period], str, str]:
    """The periods named in order, the first phrase naming one, an unread phrase."""
    period_text = unread = ""
    matches = []
    for m in QUESTION_PERIOD.finditer(text := split_years(text)):  # "2018/19": one year
        found = normalize_periods(profile, m.group(0), reference_date)
        if None in (phrase_periods(m.group(0)) or ()):  # one of its dates is no period
            unread = unread or m.group(0)
        matches.append((m.start(), m.end(), found))
        period_text = period_text or (m.group(0) if found else "")
    return list(dict.fromkeys(listed_parts(text, matches))), period_text, unread


def _parts_read(outside: str, periods: list[Period], unread: str,
                named: frozenset[str], cols: Columns) -> tuple[list[Period], str]:
    """The periods after reading dated columns and parts of a year named without one.

    ``outside`` is the folded question outside the rows' names; ``named`` the words of
    the rows and columns named.
    """
    if cols.dated is not None:  # "the quarter ended July 27, 2019": a column's date
        unread, periods = "", periods or [("FY", y) for y in cols.dated.years]
    if unread or any(p[0] in _PARTS for p in periods):
        return periods, unread
    # "between the second and first quarter": a part of a year named without its year
    # (and naming no row or column) is no period of ours, never a year
    unread = part_of_year(outside, named)
    if unread and len(periods) == 1 and periods[0][0] == "FY":
        # "in 2019, ... between the third quarter and fourth quarter": its parts
        parts = parts_of_year(outside, periods[0][1])
        return (parts, "") if parts else (periods, unread)
    return periods, unread


def question_periods(profile: DomainProfile, text: str, reference_date: date | None,
                     outside: str, named: frozenset[str], cols: Columns
                     ) -> tuple[list[Period], str, str]:
    """The periods ``text`` (a folded question) names, the words naming the first, unread.

    ``outside``: the question outside the rows' names; ``named``: the words of the rows
    and columns read; ``cols``: the columns read (a dated one names its period).
    """
    periods, period_text, unread = _phrases(profile, text, reference_date)
    periods, unread = _parts_read(outside, periods, unread, named, cols)
    if (offset := offset_years(text, periods)) is not None:  # "two years before 2023"
        periods, unread = list(offset.periods), offset.unread or unread
    relative = _RELATIVE.search(text) if not periods and not unread and \
        not has_cue(text, CHANGE_CUES) else None
    return periods, period_text, relative.group(0) if relative else unread
