"""A span of time asked as a window over a maturity table's buckets ("due within 5 years").

A maturity or ageing table splits a total into buckets: "Less than 1 year | 1-3 years |
3-5 years | More than 5 years". A question asking for what falls "within 5 years" (or "in
the next 5 years", "in 5 years or less") asks for the buckets that together cover the
first five years, summed. :func:`window_columns` names them only when they tile the
window exactly — from zero, with no gap and no bucket straddling its end; otherwise it
names none and the agent asks which column is meant (never a part passed off as the
whole, never the total column).

Pure reading of the question and of the columns' names, no store.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Window", "Bucket", "window_asked", "bucket_of", "window_columns", "bucket_columns"]

_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "twelve": 12}
_N = rf"(\d{{1,3}}|{'|'.join(_NUMBERS)})"
_UNIT = r"(year|month|day|week)s?"
#: "within 5 years", "in the next five years", "over the next 12 months" (not "in 5 years":
#: the fifth year, or the first five?)
_WITHIN = re.compile(rf"\b(?:within (?:the )?(?:next |first |coming )?|(?:in|over|during) "
                     rf"(?:the )?(?:next|first|coming) ){_N} {_UNIT}\b"
                     r"(?! (?:or|and) (?:more|over|after|later))")
#: "in 5 years or less", "5 years or below", "no more than 5 years"
_OR_LESS = re.compile(rf"\b{_N} {_UNIT} or (?:less|below|fewer|under|sooner|earlier)\b"
                      rf"|\bno (?:more|later) than {_N} {_UNIT}\b")
_OPEN_LOW = re.compile(rf"^(?:less than|up to|within|under|below|due in less than) {_N} "
                       rf"{_UNIT}$")
_OPEN_HIGH = re.compile(rf"^(?:more than|greater than|after|over|beyond) {_N} {_UNIT}$")
_RANGE = re.compile(rf"^(?:between )?{_N}\s*(?:-|–|to|and)\s*{_N} {_UNIT}$")


@dataclass(frozen=True)
class Window:
    """The first ``size`` units of time (``unit``: year, month, day or week)."""

    size: int
    unit: str


@dataclass(frozen=True)
class Bucket:
    """A column's span of time, ``start`` to ``end`` units (``end`` may be infinite)."""

    start: float
    end: float
    unit: str


def _n(text: str) -> int:
    return _NUMBERS.get(text, 0) or int(text)


def window_asked(text: str) -> Window | None:
    """The window a folded question asks for, if it names one.

    Examples
    --------
    >>> window_asked("total purchase obligations that are due within 5 years?")
    Window(size=5, unit='year')
    >>> window_asked("payments due in 3 years or less"), window_asked("revenue in 2019")
    (Window(size=3, unit='year'), None)
    >>> window_asked("obligations due in more than 5 years") is None
    True
    >>> window_asked("due in the next twelve months"), window_asked("due in 5 years") is None
    (Window(size=12, unit='month'), True)
    """
    m = _WITHIN.search(text) or _OR_LESS.search(text)
    if m is None:
        return None
    number, unit = next((n, u) for n, u in zip(m.groups()[::2], m.groups()[1::2], strict=True)
                        if n)
    return Window(_n(number), unit)


def bucket_of(name: str) -> Bucket | None:
    """The span a column's name states ("1-3 years", "less than 1 year", "after 5 years").

    >>> bucket_of("1 to 3 years"), bucket_of("after five years")
    (Bucket(start=1, end=3, unit='year'), Bucket(start=5, end=inf, unit='year'))
    >>> bucket_of("total") is None
    True
    """
    text = " ".join(name.casefold().split())
    if m := _OPEN_LOW.match(text):
        return Bucket(0, _n(m.group(1)), m.group(2))
    if m := _OPEN_HIGH.match(text):
        return Bucket(_n(m.group(1)), math.inf, m.group(2))
    if m := _RANGE.match(text):
        start, end = _n(m.group(1)), _n(m.group(2))
        return Bucket(start, end, m.group(3)) if start < end else None
    return None


def _buckets(columns: Mapping[str, Sequence[str]], unit: str) -> list[tuple[Bucket, str]]:
    """Each column that names one span of ``unit``, by its start."""
    found = []
    for code, names in columns.items():
        spans = {b for n in names if (b := bucket_of(n)) is not None and b.unit == unit}
        if len(spans) == 1:
            found.append((spans.pop(), code))
    return sorted(found, key=lambda pair: (pair[0].start, pair[0].end))


def window_columns(text: str, columns: Mapping[str, Sequence[str]]) -> tuple[str, ...]:
    """The columns whose buckets tile the window the question asks for; ``()`` if none do.

    ``columns`` maps a column's code to its names. The buckets must start at zero, follow
    on without a gap ("1-3 years" then "3-5 years", or "4-5 years" written inclusively)
    and end exactly where the window does.

    >>> cols = {"C_1": ("less than 1 year",), "C_1_3": ("1-3 years",),
    ...         "C_3_5": ("3-5 years",), "C_5": ("more than 5 years",), "C_T": ("total",)}
    >>> window_columns("obligations due within 5 years", cols)
    ('C_1', 'C_1_3', 'C_3_5')
    >>> window_columns("obligations due within 4 years", cols)
    ()
    """
    window = window_asked(text)
    if window is None:
        return ()
    reach, picked = 0.0, []
    for bucket, code in _buckets(columns, window.unit):
        if bucket.start >= window.size:
            break
        if bucket.start not in (reach, reach + 1) or bucket.end > window.size:
            return ()  # a gap, or a bucket running past the window's end
        reach = bucket.end
        picked.append(code)
    return tuple(picked) if picked and reach == window.size else ()


def bucket_columns(text: str, columns: Mapping[str, Sequence[str]]) -> tuple[str, ...]:
    """Every bucket column of the unit of the window the question asks for, by start.

    >>> bucket_columns("due within 4 years", {"C_1": ("less than 1 year",),
    ...                "C_1_5": ("1-5 years",), "C_T": ("total",)})
    ('C_1', 'C_1_5')
    """
    window = window_asked(text)
    return tuple(code for _, code in _buckets(columns, window.unit)) if window else ()
