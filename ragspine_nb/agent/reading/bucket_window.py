"""A span of time asked as a window over a maturity table's buckets ("due within 5 years").

A maturity or ageing table splits a total into buckets: "Less than 1 year | 1-3 years |
3-5 years | More than 5 years". A question asking for what falls "within 5 years" (or "in
the next 5 years", "in 5 years or less") asks for the buckets that together cover the
first five years, summed. :func:`read_window` names them only when they tile the
window exactly — from zero, with no gap and no bucket straddling its end; otherwise the
agent asks which bucket column is meant (never a part passed off as the whole, never the
total column). A column's span is read from its name by the layout's own bucket reader
(:func:`~ragspine_nb.extract.buckets.bucket_span`).

Pure reading of the question and of the columns' names, no store.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ragspine_nb.extract.buckets import NUMBER_WORDS, Bucket, bucket_span

__all__ = ["Window", "WindowColumns", "window_asked", "read_window"]

#: Numbers a question writes as words ("the next twelve months").
_NUMBERS = {**{w: int(n) for w, n in NUMBER_WORDS.items()}, "twelve": 12}
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


@dataclass(frozen=True)
class Window:
    """The first ``size`` units of time (``unit``: year, month, day or week)."""

    size: int
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


def _buckets(columns: Mapping[str, Sequence[str]], unit: str) -> list[tuple[Bucket, str]]:
    """Each column that names one span of ``unit``, by its start."""
    found = []
    for code, names in columns.items():
        spans = {b for n in names if (b := bucket_span(n)) is not None and b.unit == unit}
        if len(spans) == 1:
            found.append((spans.pop(), code))
    return sorted(found, key=lambda pair: (pair[0].start, pair[0].end))


@dataclass(frozen=True)
class WindowColumns:
    """The columns covering an asked window, or the bucket columns to ask back with."""

    codes: tuple[str, ...] = ()
    options: tuple[str, ...] = ()


def read_window(text: str, columns: Mapping[str, Sequence[str]]) -> WindowColumns | None:
    """The columns whose buckets tile the window the question asks for (``None``: none asked).

    ``columns`` maps a column's code to its names. The buckets must start at zero, follow
    on without a gap ("1-3 years" then "3-5 years", or "4-5 years" written inclusively)
    and end exactly where the window does; otherwise every bucket column of the window's
    unit is an option to ask back with.

    >>> cols = {"C_1": ("less than 1 year",), "C_1_3": ("1-3 years",),
    ...         "C_3_5": ("3-5 years",), "C_5": ("more than 5 years",), "C_T": ("total",)}
    >>> read_window("obligations due within 5 years", cols).codes
    ('C_1', 'C_1_3', 'C_3_5')
    >>> read_window("obligations due within 4 years", cols).options
    ('C_1', 'C_1_3', 'C_3_5', 'C_5')
    """
    window = window_asked(text)
    if window is None:
        return None
    buckets = _buckets(columns, window.unit)
    reach, picked = 0.0, []
    for bucket, code in buckets:
        if bucket.start >= window.size:
            break
        if bucket.start not in (reach, reach + 1) or bucket.end > window.size:
            break  # a gap, or a bucket running past the window's end
        reach = bucket.end
        picked.append(code)
    if picked and reach == window.size:
        return WindowColumns(tuple(picked))
    return WindowColumns(options=tuple(code for _, code in buckets))

