"""A fiscal year named by its distance from the one a question writes: "two years before 2023".

"What was Nike's revenue two years before fiscal 2023?" names one fiscal year, 2021, by
way of another; read as the year written it answered fiscal 2023's 51,217 million, a
wrong number. "Fiscal 2023 and the year before" names two, 2023 and 2022 (the second
was dropped). :func:`offset_years` reads these phrases against the fiscal years the
question names:

* "N years before / prior to / earlier than Y", "N years after / later than Y" — the
  year N before or after Y, in place of Y;
* "the year before / after Y" — the year before or after Y, in place of Y;
* "Y and the year before" ("… and the prior / preceding / previous year") and "… in Y
  than in the prior year" — Y and the year before it.

A phrase about a year the question does not name as a fiscal year (a quarter, a date) is
not read: the question's period is unread and asked back, never taken as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine_nb.number_words import count_word

__all__ = ["OffsetYears", "offset_years"]

_YEAR = r"(?:the\s+end\s+of\s+)?(?:fiscal\s+(?:year\s+)?|fy\s*)?(?P<y>(?:19|20)\d\d)(?![0-9])"
_COUNT = r"(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|a)"
_BEFORE = r"(?P<d>before|prior\s+to|earlier\s+than|after|later\s+than)"
#: the year is optional: "two years before q2 2023" or "… before the merger" is unread
_PHRASES = (
    re.compile(rf"(?<![a-z0-9]){_COUNT}\s+(?:fiscal\s+)?years?\s+{_BEFORE}\s+(?:{_YEAR}|"
               r"[^\s?.,;]+(?:\s+[^\s?.,;]+)?)"),
    re.compile(rf"(?<![a-z])the\s+(?:fiscal\s+)?year\s+(?P<d>before|after)\s+(?:{_YEAR}|"
               r"[^\s?.,;]+(?:\s+[^\s?.,;]+)?)"),
)
_AND_BEFORE = re.compile(rf"{_YEAR},?\s+and\s+(?:in\s+)?(?:for\s+)?the\s+(?:(?:prior|preceding|"
                         r"previous)\s+(?:fiscal\s+)?year|(?:fiscal\s+)?year\s+before)"
                         r"(?![a-z])")

#: "how much lower was it in 2025 than in the prior year": the one year named, compared
#: with the year before it
_THAN_PRIOR = re.compile(r"(?<![a-z])than\s+(?:in\s+|for\s+)?the\s+(?:prior|previous|"
                         r"preceding)\s+(?:fiscal\s+)?year(?![a-z])")


@dataclass(frozen=True)
class OffsetYears:
    """The periods once a phrase naming one year by another is read.

    ``periods`` replace the question's; ``unread`` is a phrase that could not be read
    (the period is then asked back), empty otherwise.
    """

    periods: tuple[tuple[str, str], ...]
    unread: str = ""


def _count(word: str) -> int | None:
    return 1 if word == "a" else count_word(word)


def offset_years(text: str, periods: Sequence[tuple[str, str]]) -> OffsetYears | None:
    """The periods ``text`` (folded) names by distance from one it writes, or ``None``.

    Examples
    --------
    >>> offset_years("revenue two years before fiscal 2023?", [("FY", "2023")])
    OffsetYears(periods=(('FY', '2021'),), unread='')
    >>> offset_years("revenue in fiscal 2023 and the year before?", [("FY", "2023")]).periods
    (('FY', '2023'), ('FY', '2022'))
    >>> offset_years("revenue the year after fy2021?", [("FY", "2021")]).periods
    (('FY', '2022'),)
    >>> offset_years("revenue 2 years before q2 2023?", [("QUARTER", "2023Q2")]).unread
    '2 years before q2 2023'
    >>> offset_years("how much lower was it in fy2025 than in the prior year?",
    ...              [("FY", "2025")]).periods
    (('FY', '2025'), ('FY', '2024'))
    >>> offset_years("revenue in fiscal 2023 and fiscal 2022?", [("FY", "2023")]) is None
    True
    """
    for pattern in _PHRASES:
        found = pattern.search(text)
        if found is None:
            continue
        year = found.group("y")
        steps = _count(found.group("n")) if "n" in found.groupdict() else 1
        if year is None or steps is None or ("FY", year) not in periods:
            return OffsetYears(tuple(periods), found.group(0))
        sign = 1 if found.group("d").startswith(("after", "later")) else -1
        moved = ("FY", str(int(year) + sign * steps))
        return OffsetYears(tuple(moved if p == ("FY", year) else p for p in periods))
    fiscal = [p for p in periods if p[0] == "FY"]
    if _THAN_PRIOR.search(text) and len(periods) == 1 and fiscal:  # "than the prior year"
        return OffsetYears((*periods, ("FY", str(int(fiscal[0][1]) - 1))))
    found = _AND_BEFORE.search(text)
    if found is None:
        return None
    year = found.group("y")
    if ("FY", year) not in periods:
        return OffsetYears(tuple(periods), found.group(0))
    before = ("FY", str(int(year) - 1))
    return OffsetYears(tuple(dict.fromkeys((*periods, before))))
