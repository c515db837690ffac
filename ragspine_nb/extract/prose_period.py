"""A table's unstated period, read from the sentence that introduces it.

A table of buckets ("Less than 1 year | 1-3 years | Total") or of names ("Age | Title")
names no period in its header; the report says it in the sentence before it: "The
following table summarizes our contractual obligations as of December 31, 2019:". When
the sentences of the prose beside a table that introduce a table ("the following
table", "as follows", "set out below", a sentence ending with a colon; 如下, 下表) state
exactly one period — every date and year they write falls in one year, and none names
a part of a year (a quarter, six months) — the table is of that period (a date is its
year's, as a dated column header is). Anything else (two years, a quarter, no
introducing sentence) tells nothing: the table stays skipped and reported.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine_nb.extract.header_periods import YEAR, Period, duration

__all__ = ["PeriodInference", "infer_period", "introducing_sentences"]

_INTRO = re.compile(
    r"\b(?:the|these) following\b|\bas follows\b|\btables?\b"
    r"|\b(?:set out|set forth|shown|presented|summari[sz]ed|detailed|listed|provided|"
    r"disclosed|analy[sz]ed|included|reconciled|as) below\b|如下|下表", re.I)
#: Sentence ends: a full stop, question or exclamation mark (a closing quote may follow)
#: before a space, a Chinese full stop, or a line break. "Dec. 31" and "U.S." are not
#: cut: a full stop ends a sentence only before a capital letter, a digit or a bracket.
#: A colon ends an introducing sentence only at the end of its paragraph.
_SPLIT = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][”\"’)]))\s+(?=[A-Z0-9(\"“])|(?<=。)\s*|\n+")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_CN_DATE = re.compile(r"((?:19|20)\d\d)年(?:\d{1,2}月(?:\d{1,2}日)?)?")


@dataclass(frozen=True)
class PeriodInference:
    """The one period the introducing sentences state, and those sentences."""

    period: Period
    evidence: tuple[str, ...]


def introducing_sentences(prose: str) -> list[str]:
    r"""The sentences of ``prose`` that introduce a table.

    Examples
    --------
    >>> introducing_sentences("Revenue grew. Our obligations as of May 26, 2019, were as "
    ...                       "follows:\n\nDebt fell below plan.")
    ['Our obligations as of May 26, 2019, were as follows:']
    """
    out = []
    for piece in _SPLIT.split(prose):
        sentence = " ".join(piece.split())
        if sentence and (_INTRO.search(sentence) or sentence.endswith((":", "："))):
            out.append(sentence)
    return out


def _years(sentence: str) -> set[str]:
    """Every year a sentence writes (in dates, fiscal labels or alone)."""
    folded = sentence.casefold()
    found = set(YEAR.findall(folded)) | {m.group(1) for m in _CN_DATE.finditer(sentence)}
    found |= {f"20{m.group(1)}" for m in re.finditer(r"\bfy\s?'?(\d\d)\b", folded)}
    return found


def infer_period(prose: Sequence[str]) -> PeriodInference | None:
    """The one period the table-introducing sentences of ``prose`` state, else None.

    Examples
    --------
    >>> infer_period(["The following table summarizes our obligations as of "
    ...               "December 31, 2019 (in thousands):"]).period
    ('FY', '2019')
    >>> infer_period(["The following table shows revenue for 2019 and 2018:"]) is None
    True
    >>> infer_period(["The following table shows the three months ended June 30, 2019:"]
    ...              ) is None
    True
    """
    years: set[str] = set()
    evidence: list[str] = []
    for text in prose:
        for sentence in introducing_sentences(text):
            found = _years(sentence)
            if not found:
                continue
            if duration(sentence):  # a quarter, a half, nine months: not the year
                return None
            years |= found
            evidence.append(sentence)
    if len(years) != 1:
        return None
    return PeriodInference(("FY", years.pop()), tuple(evidence))
