"""The buckets of a maturity or ageing table: "Less than 1 year", "1 to 3 years", "After 5".

One reading of bucket headers for everyone: the layout names columns with it
(:func:`bucket_names` gives the other ways to say a bucket), and the agent reads a
column's span of time back from its name (:func:`bucket_span`) to answer "due within 5
years".
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

__all__ = ["NUMBER_WORDS", "BOUND", "UNIT_RANGE", "Bucket", "bucket_names", "bucket_span"]

#: Numbers written as words in bucket headers.
NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
                "seven": "7", "eight": "8", "nine": "9", "ten": "10"}
#: An open bucket of a maturity or ageing table: "Less than 1 year", "After 5 years".
BOUND = re.compile(
    r"\b(less than|more than|greater than|up to|within|after|over|beyond|under)\s+"
    rf"(\d{{1,3}}|{'|'.join(NUMBER_WORDS)})\s+(year|month|day|week)s?\b", re.I)
#: A closed bucket: "1-3 years", "1 to 3 years".
UNIT_RANGE = re.compile(
    r"(?<![\d.,/])(\d{1,3})\s*(?:[-–—]|\bto\b)\s*(\d{1,3})\s+(year|month|day|week)s?\b", re.I)
#: A closed bucket as :func:`bucket_names` also writes it: "between 1 and 3 years".
_BETWEEN = re.compile(r"between (\d{1,3}) and (\d{1,3}) (year|month|day|week)s?")
#: The bounds of an open bucket that start it at zero ("less than 1 year").
_FROM_ZERO = frozenset({"less than", "up to", "within", "under"})


@dataclass(frozen=True)
class Bucket:
    """A column's span of time, ``start`` to ``end`` units (``end`` may be infinite)."""

    start: float
    end: float
    unit: str


def bucket_names(text: str) -> tuple[str, ...]:
    """Other ways to say the buckets a header names ("1 to 3 years": "1-3 years", ...).

    Examples
    --------
    >>> bucket_names("1 to 3 years")
    ('1-3 years', '1 to 3 years', 'between 1 and 3 years')
    >>> bucket_names("Less than one year")
    ('less than 1 year', 'less than one year')
    """
    out = []
    for a, b, unit in UNIT_RANGE.findall(text):
        units = f"{unit.lower()}s"
        out += [f"{a}-{b} {units}", f"{a} to {b} {units}", f"between {a} and {b} {units}"]
    words = {v: k for k, v in NUMBER_WORDS.items()}
    for bound, n, unit in BOUND.findall(text):
        digits = NUMBER_WORDS.get(n.lower(), n)
        units = f"{unit.lower()}{'' if digits == '1' else 's'}"
        out += [f"{bound.lower()} {k} {units}" for k in (digits, words.get(digits, ""))
                if k]
    return tuple(dict.fromkeys(out))


def bucket_span(name: str) -> Bucket | None:
    """The span a bucket's whole name states, else ``None``.

    Examples
    --------
    >>> bucket_span("1 to 3 years"), bucket_span("after five years")
    (Bucket(start=1, end=3, unit='year'), Bucket(start=5, end=inf, unit='year'))
    >>> bucket_span("total") is None, bucket_span("3 to 1 years") is None
    (True, True)
    """
    text = " ".join(name.casefold().split())
    if m := BOUND.fullmatch(text):
        n = int(NUMBER_WORDS.get(m.group(2), m.group(2)))
        return Bucket(0, n, m.group(3)) if m.group(1) in _FROM_ZERO \
            else Bucket(n, math.inf, m.group(3))
    if m := UNIT_RANGE.fullmatch(text) or _BETWEEN.fullmatch(text):
        start, end = int(m.group(1)), int(m.group(2))
        return Bucket(start, end, m.group(3)) if start < end else None
    return None
